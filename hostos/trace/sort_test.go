package trace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestReadSorted(t *testing.T) {
	// DiskSim lines (time ns, device, lba, sectors, type 1 read / 0 write) out of order:
	// 3000, 1000, 2000, 1000. Relative to the earliest (1000 ns) they are 2000, 0, 1000 and
	// 0 ns; sorted stably: line 2 (0), line 4 (0), line 3 (1000 ns), line 1 (2000 ns).
	path := filepath.Join(t.TempDir(), "u.trace")
	require.NoError(t, os.WriteFile(path, []byte("3000 0 0 8 1\n1000 0 8 8 0\n2000 0 16 8 1\n1000 0 24 8 1\n"), 0o644))
	_, _, err := ReadFile(path, Options{Format: DiskSim})
	require.ErrorContains(t, err, "earlier than the previous request", "a Reader refuses it")
	reqs, st, f, err := ReadSorted(path, Options{Format: Auto})
	require.NoError(t, err)
	require.Equal(t, DiskSim, f)
	var lines []int
	var times []sim.Time
	for _, r := range reqs {
		lines, times = append(lines, r.Line), append(times, r.Time)
	}
	require.Equal(t, []int{2, 4, 3, 1}, lines)
	require.Equal(t, []sim.Time{0, 0, 1000 * sim.Nanosecond, 2000 * sim.Nanosecond}, times)
	require.Equal(t, int64(4), st.Requests)
	require.Equal(t, 2000*sim.Nanosecond, st.Last)
	// A malformed line stops both passes (strict) or is skipped once (lenient).
	require.NoError(t, os.WriteFile(path, []byte("3000 0 0 8 1\nbad line\n1000 0 8 8 0\n"), 0o644))
	_, _, _, err = ReadSorted(path, Options{Format: DiskSim})
	require.ErrorContains(t, err, "u.trace:2:")
	reqs, st, _, err = ReadSorted(path, Options{Format: DiskSim, Lenient: true})
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	require.Equal(t, int64(1), st.Skipped)
}
