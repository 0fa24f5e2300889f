package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComparePowerLoss: compare with a scripted cut prints the power-loss table and writes
// its CSV and plots; without a cut it writes none of them. Each row's pages add up: with
// protection and no hold-up bound every page dirty or evicting at the cut is flushed or
// lost (a drain ends drained or stuck).
func TestComparePowerLoss(t *testing.T) {
	dir := t.TempDir()
	args := []string{"compare", "--preset", "fastdrain-small", "--duration", "100ms", "--scenarios", "imgserver-u+ungzip",
		"--variants", "vanilla,fd", "--out", dir}
	out, err := run(append(args, "--set", "firmware.power_loss.enabled=true", "--set", "firmware.power_loss_protection=true",
		"--set", "firmware.power_loss.cut_at=80ms")...)
	require.NoError(t, err)
	require.Contains(t, out, "power loss per variant")
	require.Contains(t, out, "recovery scan (simulated)")
	for _, f := range []string{"power-loss.csv", "power-loss-holdup.png", "power-loss-holdup.svg", "power-loss-pages.png", "power-loss-pages.svg"} {
		_, err := os.Stat(filepath.Join(dir, "compare", "fastdrain-small-100ms", f))
		require.NoError(t, err, f)
	}
	b, err := os.ReadFile(filepath.Join(dir, "compare", "fastdrain-small-100ms", "power-loss.csv"))
	require.NoError(t, err)
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	for i, v := range []string{"vanilla", "fd"} {
		row := rows[i+1]
		require.Equal(t, []string{"imgserver-u+ungzip", v}, row[:2])
		var dirty, evicting, flushed, lost int
		_, err := fmt.Sscanf(row[2], "%d / %d", &dirty, &evicting)
		require.NoError(t, err)
		_, err = fmt.Sscan(row[3], &flushed)
		require.NoError(t, err)
		_, err = fmt.Sscan(row[4], &lost)
		require.NoError(t, err)
		require.Positive(t, dirty+evicting, v)
		require.Equal(t, dirty+evicting, flushed+lost, v)
	}

	dir2 := t.TempDir()
	out, err = run(append(args[:len(args)-1], dir2)...)
	require.NoError(t, err)
	require.NotContains(t, out, "power loss")
	_, err = os.Stat(filepath.Join(dir2, "compare", "fastdrain-small-100ms", "power-loss.csv"))
	require.True(t, os.IsNotExist(err), "no cut, no power-loss files")
}
