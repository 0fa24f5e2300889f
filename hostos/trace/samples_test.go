package trace

import (
	"io"
	"os"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestSampleTraces parses every sample trace (internal/sampletraces: the repository's
// testdata/traces, and the optional ../shared/traces) completely with auto-detection
// and checks the request count, mix, bytes and span against numbers computed independently
// with awk (commands in each row) and the README's table.
func TestSampleTraces(t *testing.T) {
	cases := []struct {
		file   string
		opt    Options
		format Format
		// Expected values, from the awk command in the comment.
		lines, requests, reads, writes, flushes int64
		readBytes, writeBytes                   int64
		last                                    sim.Time
		devices                                 int
	}{
		{
			// README: 6,999 lines, 63 % R / 37 % W, 16 devices, 0.136 s.
			// awk '{n++; if($5==1){r++; rb+=$4*512} else {w++; wb+=$4*512}} END{print n,r,w,rb,wb}'
			//   → 6999 4381 2618 36315136 23403520
			// first and last time: 938513000 and 1075002000 ns → 136489000 ns apart.
			file: "mqsim_tpcc-small.trace", format: DiskSim,
			lines: 6999, requests: 6999, reads: 4381, writes: 2618,
			readBytes: 36315136, writeBytes: 23403520,
			last: 136489000 * sim.Nanosecond, devices: 16,
		},
		{
			// README: 10,000 requests, 40 % R / 60 % W, 86 s.
			// awk '{if($5==1){r++; rb+=$4} else {w++; wb+=$4}} END{print r,w,rb,wb}'
			//   → 4054 5946 19537408 29298176; first time 0.000, last 85915.075 ms.
			file: "heimdall_msr.cut.per_10k.rw_40_60.1370.trace", format: Replayer,
			lines: 10000, requests: 10000, reads: 4054, writes: 5946,
			readBytes: 19537408, writeBytes: 29298176,
			last: 85915075 * sim.Microsecond, devices: 1,
		},
		{
			// README: 113,873 lines (one is the header), 41 % R / 59 % W, mean 36 KiB, 2 h.
			// awk -F, 'NR>1{if($3=="28"){r++; rb+=$4} else {w++; wb+=$4}} END{printf "%d %d %.0f %.0f\n",r,w,rb,wb}'
			//   → 46974 66898 1797412352 2408565760 (mean 4205978112/113872 = 36936 B);
			// time 5633898 … 5641098 = 7200 units = 2 h, so the unit is the second.
			file: "libcachesim_cloudPhysicsIO.csv", format: VSCSI,
			lines: 113873, requests: 113872, reads: 46974, writes: 66898,
			readBytes: 1797412352, writeBytes: 2408565760,
			last: 7200 * sim.Second, devices: 1,
		},
		{
			// README: 50,000 events, 170 completed requests (78 R / 92 W).
			// awk '$6=="D"{n++; if($7=="R"){r++; rb+=$10*512} else {w++; wb+=$10*512}} END{print n,r,w,rb,wb}'
			//   → 170 78 92 9977856 31252480; D times 0.000031865 … 9.352904571 s.
			file: "apress_mbpa_blktrace.txt", format: Blkparse,
			lines: 50000, requests: 170, reads: 78, writes: 92,
			readBytes: 9977856, writeBytes: 31252480,
			last: 9352904571*sim.Nanosecond - 31865*sim.Nanosecond, devices: 1,
		},
		{
			// C events: awk '$6=="C"{print $7, NF}' | sort | uniq -c → 78 R, 86 W, 6 WS with
			// "+ n" and one "C WS 1950885322 [0]" without a size (a flush completion).
			file: "apress_mbpa_blktrace.txt", format: Blkparse, opt: Options{BlkparseEvent: BlkComplete},
			lines: 50000, requests: 171, reads: 78, writes: 92, flushes: 1,
			readBytes: 9977856, writeBytes: 31252480, last: -1, devices: 1,
		},
		{
			// Q events (bios before merging): awk '$6=="Q"{if($7=="R")r++; else w++} END{print r,w}'
			//   → 80 15444.
			file: "apress_mbpa_blktrace.txt", format: Blkparse, opt: Options{BlkparseEvent: BlkQueue},
			lines: 50000, requests: 15524, reads: 80, writes: 15444,
			readBytes: -1, writeBytes: -1, last: -1, devices: 1,
		},
	}
	for _, c := range cases {
		name := c.format.String()
		if c.format == Blkparse {
			name += "-" + blkEventNames[c.opt.BlkparseEvent]
		}
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(sampletraces.Path(t, c.file))
			require.NoError(t, err)
			defer f.Close()
			rd, err := NewReader(f, c.file, c.opt)
			require.NoError(t, err)
			require.Equal(t, c.format, rd.Format())
			devs := map[int]bool{}
			var size8k int64
			var prev sim.Time
			for {
				req, err := rd.Next()
				if err != nil {
					require.ErrorIs(t, err, io.EOF)
					break
				}
				require.GreaterOrEqual(t, req.Time, prev, "line %d", req.Line)
				prev = req.Time
				devs[req.Device] = true
				if req.Size == 8192 {
					size8k++
				}
			}
			s := rd.Stats()
			require.Equal(t, c.lines, s.Lines)
			require.Equal(t, c.requests, s.Requests)
			require.Equal(t, c.reads, s.Reads)
			require.Equal(t, c.writes, s.Writes)
			require.Equal(t, c.flushes, s.Flushes)
			require.Zero(t, s.Skipped)
			require.Zero(t, s.Rounded, "every sample request is sector-aligned")
			if c.readBytes >= 0 {
				require.Equal(t, c.readBytes, s.ReadBytes)
				require.Equal(t, c.writeBytes, s.WriteBytes)
			}
			if c.last >= 0 {
				require.Equal(t, c.last, s.Last)
			}
			require.Len(t, devs, c.devices)
			if c.format == DiskSim {
				// README: 96 % 8 KiB. awk '$4*512==8192' | wc -l → 6748 (96.4 %).
				require.Equal(t, int64(6748), size8k)
			}
		})
	}
}
