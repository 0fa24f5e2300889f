package fio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// examplesRun are fio's example job files (testdata/examples) that use file or block I/O
// on one device with engines and options the simulator models: they decode, and the
// long-tier test in cmd/fastdrain runs each of them.
var examplesRun = []string{
	"aio-read", "backwards-read", "basic-verify", "cross-stripe-verify", "dedupe-global", "disk-zone-profile",
	"fio-rand-RW", "fio-rand-read", "fio-rand-write", "fio-seq-RW", "fio-seq-read", "fio-seq-write",
	"fixed-rate-submission", "fsx", "jesd219", "mmap-cxlmem", "mobile-storage", "rand-zones",
	"ssd-steadystate", "ssd-test", "surface-scan", "tiobench-example", "zbd-rand-write",
}

// examplesInvalid are example files fio itself rejects (an option value or name fio does
// not have, or ${VAR}s left unset): every problem is listed, as fio's parser lists them.
var examplesInvalid = map[string]string{
	"exitwhat":                `[slow1] rw: "r" is not one of`,
	"poisson-rate-submission": "rate_poisson: unknown option (fio's option is rate_process=poisson)",
	"steadystate":             "threads: unknown option (fio's option is thread)",
	"waitfor":                 "threads: unknown option (fio's option is thread)",
	"xnvme-compare":           "${FIO_RW} expands to nothing",
	"xnvme-fdp":               "${FIO_RW} expands to nothing",
	"xnvme-zoned":             "${FIO_RW} expands to nothing",
}

// TestFioExamples decodes every one of fio's example job files: those that can run decode;
// those fio rejects too are refused with fio's reasons; every other is refused with exactly
// one line that names the file, line, section and option or engine and says why it is
// outside the simulated machine.
func TestFioExamples(t *testing.T) {
	paths, err := filepath.Glob("testdata/examples/*.fio")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 107, "fio's examples directory")
	run := map[string]bool{}
	for _, n := range examplesRun {
		run[n] = true
	}
	var ran, refused int
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".fio")
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		jobs, err := decodeINI(data, filepath.Base(p), DecodeOptions{Include: os.ReadFile})
		switch {
		case run[name]:
			require.NoError(t, err, name)
			require.NotEmpty(t, jobs)
			ran++
		case examplesInvalid[name] != "":
			require.ErrorContains(t, err, examplesInvalid[name], name)
		default:
			require.Error(t, err, name)
			msg := err.Error()
			require.NotContains(t, msg, "\n", "%s: one line", name)
			require.True(t, strings.HasPrefix(msg, filepath.Base(p)+":"), "%s: names the file and line: %s", name, msg)
			require.True(t, strings.Contains(msg, "ioengine=") || strings.Contains(msg, "refused:"), "%s: says what is refused: %s", name, msg)
			refused++
		}
	}
	require.Equal(t, len(examplesRun), ran)
	t.Logf("%d example files: %d run, %d refused in one line, %d invalid in fio too", len(paths), ran, refused, len(examplesInvalid))
}
