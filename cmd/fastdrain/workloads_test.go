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

func TestFioCommand(t *testing.T) {
	out, err := run("fio", "testdata/jobs.yaml")
	require.NoError(t, err)
	// db: io_size 8 MiB of 4 KiB blocks = 2048 IOs, rwmixread 70 → 1434 reads (fio's exact
	// deck) and 614 writes; log: 4 MiB = 1024 writes with a flush every 16 → 64 flushes.
	require.Regexp(t, `db │  read │ 1434 `, out)
	require.Regexp(t, `db │ write │  614 `, out)
	require.Regexp(t, `log │ write │ 1024 `, out)
	require.Regexp(t, `log │ flush │   64 `, out)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("jobs:\n  - name: x\n    blocksize: 4k\n"), 0o644))
	_, err = run("fio", bad)
	require.ErrorContains(t, err, `bad.yaml:3: unknown key "blocksize"`)
}
