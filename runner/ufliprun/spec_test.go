package ufliprun

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/stretchr/testify/require"
)

// TestDivideCounts: 1024 IOs and 10 ignored divided by 4 are 256 and 2 (integer
// division); 3 IOs divided by 4 keep 1, never 0.
func TestDivideCounts(t *testing.T) {
	s := uflip.PlanSpec{IOCount: uflip.BaseCounts{SR: 1024, RR: 3, SW: 8, RW: 4}, IOIgnore: uflip.BaseCounts{SR: 10, RR: 1, SW: 4, RW: 0}}
	DivideCounts(&s, 4)
	require.Equal(t, uflip.BaseCounts{SR: 256, RR: 1, SW: 2, RW: 1}, s.IOCount)
	require.Equal(t, uflip.BaseCounts{SR: 2, RR: 0, SW: 1, RW: 0}, s.IOIgnore)
}

// TestCapCounts: the automatic rule's cap is every base's IOCount, and nothing is ignored
// by fixed count.
func TestCapCounts(t *testing.T) {
	s := uflip.DefaultPlanSpec()
	CapCounts(&s, 5116)
	require.Equal(t, uflip.BaseCounts{SR: 5116, RR: 5116, SW: 5116, RW: 5116}, s.IOCount)
	require.Equal(t, uflip.BaseCounts{}, s.IOIgnore)
}

// TestCheckTarget: an existing non-empty file is refused without force; a new or empty
// one is fine; a directory is neither a file nor a device.
func TestCheckTarget(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "data.img")
	require.NoError(t, os.WriteFile(full, []byte("precious"), 0o644))
	require.ErrorContains(t, CheckTarget(full, false), "exists and holds 8 bytes: uFLIP writes over it; give --force")
	require.NoError(t, CheckTarget(full, true))
	empty := filepath.Join(dir, "empty.img")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	require.NoError(t, CheckTarget(empty, false))
	require.NoError(t, CheckTarget(filepath.Join(dir, "new.img"), false))
	require.ErrorContains(t, CheckTarget(dir, false), "is not a regular file or a block device")
}
