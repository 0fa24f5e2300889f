package main

import (
	"encoding/json"
	"testing"

	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
)

// TestOutputContract: every command that produces results has the same output flags with
// the same defaults (--format text, --out the results root, --no-files off, no
// --percentiles and no --timeline), and a flag a command cannot honour is refused with the
// reason, naming the flag.
func TestOutputContract(t *testing.T) {
	root := newRoot()
	find := func(path ...string) *cobra.Command {
		c, _, err := root.Find(path)
		require.NoError(t, err)
		return c
	}
	for _, path := range [][]string{{"run"}, {"compare"}, {"figures"}, {"fio"}, {"replay"}, {"uflip"}, {"flashbench"},
		{"sweep"}, {"merge"}, {"stats", "list"}} {
		c := find(path...)
		for flag, def := range map[string]string{"format": "text", "out": defaultOut, "no-files": "false", "percentiles": "",
			"timeline": "", "timeline-max": "2000000", "timeline-skip": "refresh"} {
			f := c.Flags().Lookup(flag)
			require.NotNil(t, f, "%v --%s", path, flag)
			require.Equal(t, def, f.DefValue, "%v --%s", path, flag)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--timeline", "x.json"}, "--timeline: fastdrain compare does not take it: it runs many simulations in parallel"},
		{[]string{"sweep", "--kind", "flashbench", "--preset", "tiny", "--axis", "flash.channels=1", "--timeline-window", "0s:1ms"},
			"--timeline-window: fastdrain sweep does not take it"},
		{[]string{"uflip", "--percentiles", "50"}, "--percentiles: fastdrain uflip does not take it: uFLIP's methodology reports"},
		{[]string{"figures", "--percentiles", "50"}, "--percentiles: fastdrain figures does not take it"},
		{[]string{"merge", "--percentiles", "50", "x.json"}, "--percentiles: fastdrain merge does not take it"},
		{[]string{"stats", "list", "--out", "x"}, "--out: fastdrain stats list does not take it: it prints the catalogue and writes no files"},
		{[]string{"flashbench", "--format", "xml"}, `--format "xml": want text, json or csv`},
	} {
		_, err := run(c.args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
}

// TestStatsList: stats list prints the catalogue in every format: as many entries as
// runner.Statistics holds, the first buffer_capacity_pages (pages), the last
// simulated_events (count), a time in µs.
func TestStatsList(t *testing.T) {
	text, err := run("stats", "list")
	require.NoError(t, err)
	require.Regexp(t, `write_stall_time_us │ +us │ +total time host writes waited for room in the write buffer`, text)
	doc, _, err := runStdout("stats", "list", "--format", "csv")
	require.NoError(t, err)
	hdr, rows := readCSV(t, doc)
	require.Equal(t, []string{"name", "unit", "description"}, hdr)
	require.Len(t, rows, len(runner.Statistics.Stats()))
	require.Equal(t, map[string]string{"name": "buffer_capacity_pages", "unit": "pages",
		"description": "pages the controller's DRAM write buffer holds (0 = unbounded)"}, rows[0])
	require.Equal(t, "simulated_events", rows[len(rows)-1]["name"])
	js, _, err := runStdout("stats", "list", "--format", "json")
	require.NoError(t, err)
	var es []catalogueEntry
	require.NoError(t, json.Unmarshal([]byte(js), &es))
	require.Len(t, es, len(rows))
	rowOf := map[string]string{}
	for _, e := range es {
		rowOf[e.Name] = e.Row
	}
	require.Equal(t, "GC runs / pages moved / erases", rowOf["erases"])
	require.Equal(t, rowOf["gc_runs"], rowOf["erases"], "one text row")
}
