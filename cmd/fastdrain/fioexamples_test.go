package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/stretchr/testify/require"
)

// fioExamples are fio's example job files that run (hostos/fio's examplesRun), with the
// extra flags one needs (jesd219's 512-byte direct I/Os need a namespace of 512-byte
// blocks, as on Linux) or the error one ends with (cross-stripe-verify's 30 jobs start
// 124 GiB apart, past the simulated device's end; zbd-rand-write needs a zoned namespace).
var fioExamples = map[string]struct {
	flags     []string
	err       string
	verifyBad string // the job whose verify fails because the cap cut the file's writing short
}{
	"aio-read": {}, "backwards-read": {}, "basic-verify": {}, "dedupe-global": {}, "disk-zone-profile": {},
	"fio-rand-RW": {}, "fio-rand-read": {}, "fio-rand-write": {}, "fio-seq-RW": {}, "fio-seq-read": {}, "fio-seq-write": {},
	"fixed-rate-submission": {}, "fsx": {}, "mmap-cxlmem": {}, "mobile-storage": {}, "rand-zones": {},
	"ssd-steadystate": {}, "ssd-test": {}, "tiobench-example": {},
	// The runtime cap stops the write phase (fill_device) early, so the verify phase reads
	// pages no job wrote and fails as fio would (a bad header): error 84 (EILSEQ).
	"surface-scan":        {verifyBad: "verify-phase"},
	"jesd219":             {flags: []string{"--set", "nvme.lba_size=512"}},
	"cross-stripe-verify": {err: "past the end of the device"},
	// zonemode=zbd needs a zoned namespace; the presets' namespace is conventional.
	"zbd-rand-write": {err: "zonemode=zbd needs a zoned namespace"},
}

// fioDoc is what the tests read of fio.json: each job's name, error and I/Os and bandwidth
// per direction, and the power-loss table.
type fioDoc struct {
	Jobs []struct {
		Name  string `json:"jobname"`
		Error int    `json:"error"`
		Read  struct {
			IOs int64 `json:"total_ios"`
			BW  int64 `json:"bw"`
		} `json:"read"`
		Write struct {
			IOs int64 `json:"total_ios"`
			BW  int64 `json:"bw"`
		} `json:"write"`
	} `json:"jobs"`
	PowerLoss json.RawMessage `json:"power_loss"`
}

// runFioExample runs one example with every job's runtime capped and checks what a fio
// user would: every job reported, every reported direction with I/Os and a bandwidth.
func runFioExample(t *testing.T, name, runtime string) {
	t.Helper()
	ex := fioExamples[name]
	dir := t.TempDir()
	args := append([]string{"fio", "--runtime", runtime, "--out", dir, "--format", "csv"}, ex.flags...)
	_, err := run(append(args, filepath.Join("..", "..", "hostos", "fio", "testdata", "examples", name+".fio"))...)
	if ex.err != "" {
		require.ErrorContains(t, err, ex.err, name)
		return
	}
	require.NoError(t, err, name)
	// The run's own directory, OUT/fio/JOBFILE-PRESET (cliflags.Output.RunDir).
	found, err := filepath.Glob(filepath.Join(dir, "fio", name+"-*", "fio.json"))
	require.NoError(t, err)
	require.Len(t, found, 1, "%s: one results directory", name)
	data, err := os.ReadFile(found[0])
	require.NoError(t, err)
	var doc fioDoc
	require.NoError(t, json.Unmarshal(data, &doc), name)
	require.NotEmpty(t, doc.Jobs, name)
	var ios int64
	for _, j := range doc.Jobs {
		if j.Name == ex.verifyBad {
			require.Equal(t, 84, j.Error, "%s/%s", name, j.Name)
		} else {
			require.Zero(t, j.Error, "%s/%s", name, j.Name)
		}
		ios += j.Read.IOs + j.Write.IOs
	}
	require.Positive(t, ios, name)
	csv, err := os.ReadFile(filepath.Join(filepath.Dir(found[0]), "fio.csv"))
	require.NoError(t, err)
	for _, row := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
		f := strings.Split(row, ",")
		n, err := strconv.ParseInt(f[2], 10, 64)
		require.NoError(t, err)
		require.Positive(t, n, "%s: %s", name, row)
	}
}

// TestFioExamplesQuick runs a few of fio's example files end to end (small files, 20 ms).
func TestFioExamplesQuick(t *testing.T) {
	for _, n := range []string{"backwards-read", "fixed-rate-submission", "dedupe-global", "mobile-storage", "cross-stripe-verify", "zbd-rand-write"} {
		runFioExample(t, n, "20ms")
	}
}

// TestFioExamplesLong runs every one of fio's example files that runs (about 3 minutes:
// several lay out 10 GiB files first).
func TestFioExamplesLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "fio's example job files, every one that runs")
	for n := range fioExamples {
		t.Run(n, func(t *testing.T) { runFioExample(t, n, "100ms") })
	}
}
