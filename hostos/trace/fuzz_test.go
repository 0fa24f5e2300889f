package trace

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// fuzzOptions are the two configurations every fuzz input is read with: strict defaults,
// and lenient with every normalisation switched on.
func fuzzOptions(f Format) []Options {
	return []Options{
		{Format: f},
		{Format: f, Lenient: true, MaxWarnings: 2, TimeScale: Ratio{3, 7}, Devices: Merged,
			DeviceStride: 1 << 30, Capacity: 64 << 30, PastCapacity: Wrap, SectorSize: 4096},
	}
}

// checkStream reads data to the end and checks the invariants every parser must keep,
// whatever the input: no panic; errors are *LineError (or a detection/options error from
// NewReader); time never goes backwards; data requests are non-empty, non-negative,
// aligned and within capacity; lenient mode never fails and accounts for every line.
func checkStream(t *testing.T, data []byte, opt Options) {
	rd, err := NewReader(bytes.NewReader(data), "fuzz", opt)
	if err != nil {
		if opt.Format == Auto {
			return // undetectable input
		}
		t.Fatalf("NewReader: %v", err)
	}
	var prevTime, prevLine int64 = 0, 0
	for {
		req, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 || opt.Lenient {
				t.Fatalf("unexpected error %v (lenient %v)", err, opt.Lenient)
			}
			return
		}
		if int64(req.Time) < prevTime || int64(req.Line) <= prevLine || req.Op > Flush {
			t.Fatalf("bad request %+v after time %d line %d", req, prevTime, prevLine)
		}
		prevTime, prevLine = int64(req.Time), int64(req.Line)
		if req.Op == Flush {
			if req.Offset != 0 || req.Size != 0 {
				t.Fatalf("flush with data %+v", req)
			}
			continue
		}
		ss := opt.withDefaults().SectorSize
		if req.Offset < 0 || req.Size <= 0 || req.Offset%ss != 0 || req.Size%ss != 0 {
			t.Fatalf("bad range %+v", req)
		}
		if opt.Capacity > 0 && req.End() > opt.Capacity {
			t.Fatalf("past capacity %+v", req)
		}
		if opt.Devices == Merged && req.Device != 0 {
			t.Fatalf("merged request on device %d", req.Device)
		}
	}
	s := rd.Stats()
	if s.Lines != s.Requests+s.Ignored+s.Skipped {
		t.Fatalf("lines %d != requests %d + ignored %d + skipped %d", s.Lines, s.Requests, s.Ignored, s.Skipped)
	}
	if int64(len(s.Warnings))+s.WarningsDropped != s.Skipped {
		t.Fatalf("warnings %d + dropped %d != skipped %d", len(s.Warnings), s.WarningsDropped, s.Skipped)
	}
}

// fuzzFormat runs checkStream on every input for format f, after the given seeds and the
// corpus in testdata/fuzz/<FuzzName>/.
func fuzzFormat(f *testing.F, format Format, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range fuzzOptions(format) {
			checkStream(t, data, opt)
		}
	})
}

func FuzzDiskSim(f *testing.F) {
	fuzzFormat(f, DiskSim, "938513000 4 264719034 16 0\n938828000 3 197570570 16 1\n", "# c\n0 0 0 1 2\n")
}

func FuzzReplayer(f *testing.F) {
	fuzzFormat(f, Replayer, "0.000 0 3242508288 4096 0\n22.810 0 2205343744 4096 1\n45.304 0 11403917312 512 0\n")
}

func FuzzMSR(f *testing.F) {
	fuzzFormat(f, MSR, "128166372003061629,hm,0,Read,7014609920,24576,41286\n128166372016382155,hm,1,Write,1000,1100,1963\n")
}

func FuzzSPC(f *testing.F) {
	fuzzFormat(f, SPC, "0,20941264,8192,W,0.551706\n1,3436288,15872,r,1.011732,x\n")
}

func FuzzVSCSI(f *testing.F) {
	fuzzFormat(f, VSCSI, "version,time,op,size,lbn\n1,5633898,2a,512,42932745\n1,5633899,28,6144,31954535\n1,5633900,35,0,0\n")
}

func FuzzBlkparse(f *testing.F) {
	fuzzFormat(f, Blkparse,
		"  8,16   5        2     0.000001850 18615  Q   R 1444645666 + 256 [java]\n"+
			"  8,16   5        3     0.000002850 18615  D   R 1444645666 + 256 [java]\n"+
			"  8,16   5      324     3.832956675     0  C  WS 1950885322 [0]\n",
		"  8,0 1 1 0.1 1 D FWFS 8 + 8 [x]\n  8,0 1 2 0.2 1 D FN [x]\nCPU1 (8,0):\n Reads Queued: 0\n")
}

// FuzzDetect feeds arbitrary input through auto-detection and whichever parser it picks.
func FuzzDetect(f *testing.F) {
	f.Add([]byte("1,5633898,2a,512,42932745\n"))
	f.Add([]byte("0,20941264,8192,W,0.551706\n"))
	f.Add([]byte("938513000 4 264719034 16 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStream(t, data, Options{})
		checkStream(t, data, Options{Lenient: true})
	})
}
