package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUflipCommand(t *testing.T) {
	dir := t.TempDir()
	out, err := run("uflip", "--bench", "granularity", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none", "--out", dir)
	require.NoError(t, err)
	require.Contains(t, out, "granularity/RW/io_size=4096")
	for _, f := range []string{"runs.csv", "ios.csv"} {
		_, err := os.Stat(filepath.Join(dir, "uflip", f))
		require.NoError(t, err)
	}
	_, err = run("uflip", "--bench", "speed", "--format-device", "weird", "--span", "huge", "--io-divisor", "0")
	require.ErrorContains(t, err, "--bench")
	require.ErrorContains(t, err, "--format-device")
	require.ErrorContains(t, err, "--span")
	require.ErrorContains(t, err, "--io-divisor")
}

func TestUflipOnARealFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "dev.img")
	out, err := run("uflip", "--bench", "granularity", "--io-divisor", "128", "--nbrun", "1", "--format-device", "none",
		"--span", "8MiB", "--target", f, "--out", "")
	if err != nil {
		require.ErrorContains(t, err, "O_DIRECT", "the only acceptable failure is a file system without O_DIRECT")
		t.Skip(err)
	}
	require.Contains(t, out, "granularity/SR/io_size=512")
}

func TestReplayCommand(t *testing.T) {
	tr := "../../../shared/traces/mqsim_tpcc-small.trace"
	if _, err := os.Stat(tr); err != nil {
		t.Skip("shared traces not present")
	}
	rec := filepath.Join(t.TempDir(), "rec.csv")
	out, err := run("replay", tr, "--max", "500", "--records", rec)
	require.NoError(t, err)
	// The first 500 requests of the TPC-C trace (counted with awk).
	require.Contains(t, out, "replayed 500 in")
	require.Contains(t, out, "replay latency")
	st, err := os.Stat(rec)
	require.NoError(t, err)
	require.Positive(t, st.Size())
	_, err = run("replay", tr, "--mode", "sometimes", "--past-capacity", "maybe", "--time-scale", "x")
	require.ErrorContains(t, err, "--mode")
	require.ErrorContains(t, err, "--past-capacity")
	require.ErrorContains(t, err, "--time-scale")
	_, err = run("replay", "/no/such/trace")
	require.Error(t, err)
}
