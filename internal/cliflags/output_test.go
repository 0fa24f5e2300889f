package cliflags

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
)

// newOutputCmd returns a command "x" with the output contract, given args.
func newOutputCmd(t *testing.T, o *Output, args ...string) (*cobra.Command, *bytes.Buffer) {
	cmd := &cobra.Command{Use: "x"}
	o.Register(cmd, "x", "json: x.json", "0s:100ms", "every table")
	require.NoError(t, cmd.Flags().Parse(args))
	var stderr bytes.Buffer
	cmd.SetErr(&stderr)
	return cmd, &stderr
}

// TestOutputParse: every bad output flag is reported at once, each named — the format, the
// percentiles, the timeline's window — and a refused flag given is named with the reason,
// --timeline's refusal covering --timeline-*; the timeline exists only with --timeline.
func TestOutputParse(t *testing.T) {
	var o Output
	newOutputCmd(t, &o, "--format", "xml", "--percentiles", "100", "--timeline", "t.json", "--timeline-window", "2s:1s")
	err := o.Parse()
	require.ErrorContains(t, err, `--format "xml": want text, json or csv`)
	require.ErrorContains(t, err, `--percentiles "100"`)
	require.ErrorContains(t, err, `--timeline-window "2s:1s"`)

	o = Output{}
	newOutputCmd(t, &o, "--timeline", "t.json", "--timeline-window", "0s:1ms")
	require.NoError(t, o.Parse())
	require.NotNil(t, o.Timeline.Trace())

	o = Output{}
	newOutputCmd(t, &o, "--timeline-skip", "")
	o.Refuse("timeline", "it simulates nothing")
	require.EqualError(t, o.Parse(), "--timeline-skip: x does not take it: it simulates nothing")
	require.Nil(t, o.Timeline.Trace())
}

// TestOutputSave: results go to their own directory OUT/COMMAND/NAME, a second run's to
// NAME-2, and stderr says where; with --no-files nothing is written and nothing said.
func TestOutputSave(t *testing.T) {
	out := t.TempDir()
	write := func(dir string) error { return os.WriteFile(filepath.Join(dir, "r.txt"), []byte("r"), 0o644) }
	var o Output
	_, stderr := newOutputCmd(t, &o, "--out", out)
	require.NoError(t, o.Parse())
	require.NoError(t, o.Save("run", write))
	require.NoError(t, o.Save("run", write))
	require.FileExists(t, filepath.Join(out, "x", "run", "r.txt"))
	require.FileExists(t, filepath.Join(out, "x", "run-2", "r.txt"))
	require.Equal(t, "results written to "+filepath.Join(out, "x", "run")+"\nresults written to "+filepath.Join(out, "x", "run-2")+"\n", stderr.String())

	o = Output{}
	_, stderr = newOutputCmd(t, &o, "--out", out, "--no-files")
	require.Equal(t, "", o.Dir())
	require.NoError(t, o.Save("other", write))
	require.NoDirExists(t, filepath.Join(out, "x", "other"))
	require.Empty(t, stderr.String())
}
