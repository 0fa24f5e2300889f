package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNewResultDir: a second run with the same name gets name-2, then name-3; nothing is
// replaced.
func TestNewResultDir(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "compare")
	var got []string
	for range 3 {
		d, err := NewResultDir(parent, "fastdrain-tlc-10s")
		require.NoError(t, err)
		got = append(got, filepath.Base(d))
		require.NoError(t, os.WriteFile(filepath.Join(d, "summary.json"), []byte("{}"), 0o644))
	}
	require.Equal(t, []string{"fastdrain-tlc-10s", "fastdrain-tlc-10s-2", "fastdrain-tlc-10s-3"}, got)
}
