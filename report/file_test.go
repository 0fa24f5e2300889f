package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.txt")
	require.NoError(t, WriteFile(p, func(w io.Writer) error { _, err := io.WriteString(w, "hi\n"); return err }))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "hi\n", string(b))
	err = WriteFile(p, func(io.Writer) error { return errors.New("boom") })
	require.EqualError(t, err, p+": boom")
	require.Error(t, WriteFile(filepath.Join(p, "no", "dir"), func(io.Writer) error { return nil }))
}
