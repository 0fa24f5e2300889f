package replayrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/stretchr/testify/require"
)

// TestRunDiskSim replays a DiskSim trace of three writes and one read of 16 sectors
// (16 × 512 B = 8 KiB each) on the tiny preset: 4 requests, 3 writes and 1 read of 8,192
// bytes each asked and moved (whole 4 KiB blocks: nothing rounded), one trace device.
func TestRunDiskSim(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.trace")
	lines := "1000 0 0 16 0\n2000 0 16 16 0\n3000 0 32 16 0\n4000 0 0 16 1\n"
	require.NoError(t, os.WriteFile(path, []byte(lines), 0o644))
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	m, err := runner.Open(c)
	require.NoError(t, err)
	defer m.Close()
	r, err := Run(m, path, Options{Trace: trace.DefaultOptions(), Replay: replay.DefaultOptions()})
	require.NoError(t, err)
	require.NoError(t, r.Empty())
	s := r.Summary
	require.Equal(t, "disksim", s.TraceFormat)
	require.Equal(t, int64(4), s.Requests)
	require.Equal(t, int64(4), s.Replayed)
	require.Zero(t, s.Rounded)
	ops := map[string]OpSum{}
	for _, o := range s.Ops {
		ops[o.Op] = o
	}
	require.Equal(t, int64(3), ops["write"].Requests)
	require.Equal(t, int64(3*8192), ops["write"].BytesAsked)
	require.Equal(t, int64(3*8192), ops["write"].BytesMoved)
	require.Equal(t, int64(1), ops["read"].Requests)
	require.Equal(t, int64(8192), ops["read"].BytesMoved)
	require.Equal(t, int64(4), ops["all"].Requests)
	require.Len(t, s.Devices, 2, "device 0 and the all row")
	var b strings.Builder
	require.NoError(t, s.Table().WriteCSV(&b))
	require.Contains(t, b.String(), "\nwrite,3,")
}

// TestRunEmptyTrace: a DiskSim trace of no line replays nothing, and Empty is the error
// naming the file.
func TestRunEmptyTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.trace")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	m, err := runner.Open(c)
	require.NoError(t, err)
	defer m.Close()
	topt := trace.DefaultOptions()
	topt.Format = trace.DiskSim
	r, err := Run(m, path, Options{Trace: topt, Replay: replay.DefaultOptions()})
	require.NoError(t, err)
	require.Nil(t, r.Summary)
	require.ErrorContains(t, r.Empty(), path+": no requests in the trace (0 lines")
}
