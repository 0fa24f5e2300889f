package trace

import (
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
	"github.com/stretchr/testify/require"
)

// TestDetectSamples checks that detection picks the README's format for every sample and
// hand-made file.
func TestDetectSamples(t *testing.T) {
	cases := map[string]Format{
		sampletraces.TPCC:         DiskSim,
		sampletraces.Heimdall:     Replayer,
		sampletraces.CloudPhysics: VSCSI,
		sampletraces.Apress:       Blkparse,
		"testdata/msr_sample.csv": MSR,
		"testdata/spc_sample.spc": SPC,
	}
	for path, want := range cases {
		t.Run(path, func(t *testing.T) {
			if !strings.HasPrefix(path, "testdata/") {
				path = sampletraces.Path(t, path)
			}
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			if len(data) > bufSize {
				data = data[:bufSize]
			}
			got, err := Detect(data)
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}

// TestDetectLines is the contract of Detect on short inputs.
func TestDetectLines(t *testing.T) {
	cases := []struct {
		head string
		want Format
	}{
		{"938513000 4 264719034 16 0\n", DiskSim},
		{"# DiskSim\n0 0 8 16 1\n", DiskSim},
		{"0.000 0 3242508288 4096 0\n", Replayer},
		{"100 0 4096 4096 1\n200 0 8192 512 0\n", Replayer}, // all bytes-like: multiples of 512
		{"100 0 4096 4096 1\n200 0 8192 16 0\n", DiskSim},   // a size of 16 is sectors
		{"version,time,op,size,lbn\n", VSCSI},
		{"1,5633898,2a,512,42932745\n", VSCSI},
		{"128166372003061629,hm,0,Read,7014609920,24576,41286\n", MSR},
		{"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n", MSR},
		{"0,20941264,8192,W,0.551706\n", SPC},
		{"ASU,LBA,Size,Opcode,Timestamp\n", SPC},
		{"  8,0    3        1     0.000000000  2736  Q   W 1572864 + 8 [kworker]\n", Blkparse},
	}
	for _, c := range cases {
		got, err := Detect([]byte(c.head))
		require.NoError(t, err, c.head)
		require.Equal(t, c.want, got, c.head)
	}
	for _, bad := range []string{"", "# only a comment\n", "hello world\n", "a,b\n1,2\n"} {
		_, err := Detect([]byte(bad))
		require.ErrorIs(t, err, errUndetected, bad)
	}
}

// TestFormatNames checks ParseFormat, its aliases and the text round trip.
func TestFormatNames(t *testing.T) {
	for f := Auto; f < numFormats; f++ {
		b, err := f.MarshalText()
		require.NoError(t, err)
		var g Format
		require.NoError(t, g.UnmarshalText(b))
		require.Equal(t, f, g)
	}
	for name, want := range map[string]Format{"MQSim": DiskSim, "heimdall": Replayer, "umass": SPC, "blktrace": Blkparse, "cloudphysics": VSCSI, " MSR ": MSR} {
		got, err := ParseFormat(name)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err := ParseFormat("tracefs")
	require.EqualError(t, err, `trace format "tracefs": want one of auto, disksim, replayer, msr, spc, blkparse, vscsi, vscsi-bin`)
}
