//go:build linux

package uflip

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// openTemp opens a 1 MiB O_DIRECT file in a temporary directory, skipping the test when the
// file system there does not support O_DIRECT.
func openTemp(t *testing.T) *FileDevice {
	t.Helper()
	d, err := OpenFileDevice(filepath.Join(t.TempDir(), "dev"), FileOptions{Size: 1 << 20, Create: true})
	if errors.Is(err, ErrDirectUnsupported) {
		t.Skipf("O_DIRECT unsupported here: %v", err)
	}
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func TestFileDevice(t *testing.T) {
	d := openTemp(t)
	require.Equal(t, int64(1<<20), d.Capacity())
	eng := sim.NewEngine()
	var lats []sim.Time
	var errs []error
	eng.Spawn("real", func(p *sim.Proc) {
		for _, io := range []struct {
			op        Op
			off, size int64
		}{{OpWrite, 0, 4096}, {OpWrite, 64 << 10, 32 << 10}, {OpRead, 0, 4096}, {OpFlush, 0, 0}} {
			lat, err := d.Do(p, io.op, io.off, io.size)
			lats = append(lats, lat)
			errs = append(errs, err)
		}
	})
	eng.Run()
	var sum sim.Time
	for i, err := range errs {
		require.NoError(t, err, "IO %d", i)
		require.Greater(t, lats[i], sim.Time(0))
		sum += lats[i]
	}
	require.Equal(t, sum, eng.Now(), "the process slept each wall-clock latency in simulated time")

	_, err := d.Do(nil, OpRead, 1<<20-4096, 8192)
	require.ErrorContains(t, err, "ends past the capacity 1048576")
	_, err = d.Do(nil, OpRead, 100, 4096)
	require.ErrorContains(t, err, "not sector aligned")
}

// TestFileDeviceUnderExecutor runs a small uFLIP run on the real file.
func TestFileDeviceUnderExecutor(t *testing.T) {
	d := openTemp(t)
	x := &Executor{Dev: d, Seed: 1}
	r := Run{Pattern: Pattern{Base: RW, IOSize: 4096, TargetSize: 1 << 20}, IOCount: 16, NbRun: 1}
	res := execute(t, x, func(p *sim.Proc, res *Result) error { return x.Run(p, "real", BenchGranularity, 0, r, res) })
	require.Equal(t, int64(16), res.Runs[0].Counted)
	require.Greater(t, res.Runs[0].Min, sim.Time(0))
}

// TestFileDeviceTmpfs: tmpfs rejected O_DIRECT with EINVAL before Linux 6.6; where it still
// does, the error names the path and says so.
func TestFileDeviceTmpfs(t *testing.T) {
	if _, err := os.Stat("/dev/shm"); err != nil {
		t.Skip("no /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "uflip")
	if err != nil {
		t.Skipf("cannot use /dev/shm: %v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "dev")
	d, err := OpenFileDevice(path, FileOptions{Size: 1 << 20, Create: true})
	if err == nil {
		_ = d.Close()
		t.Skip("this kernel's tmpfs supports O_DIRECT")
	}
	require.ErrorIs(t, err, ErrDirectUnsupported)
	require.ErrorContains(t, err, path+": O_DIRECT not supported by this file system")
}

func TestFileDeviceOpenErrors(t *testing.T) {
	_, err := OpenFileDevice(filepath.Join(t.TempDir(), "missing"), FileOptions{})
	require.Error(t, err)
	_, err = OpenFileDevice("x", FileOptions{Size: 1000})
	require.ErrorContains(t, err, "x: size 1000 is not a non-negative multiple of 512")
}
