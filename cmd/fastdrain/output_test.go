package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
)

// informational are the commands outside the output contract (docs/outputs.md, "The
// output contract"): they describe configurations or the program and produce no results,
// so they declare none of its flags, and no flag of theirs takes a contract flag's name with
// another meaning.
var informational = map[string]bool{
	"fastdrain scenarios": true, "fastdrain version": true, "fastdrain config show": true,
	"fastdrain config validate": true, "fastdrain config diff": true, "fastdrain config list": true,
	"fastdrain config import": true,
}

// contractFlags are the output contract's flags.
var contractFlags = []string{"format", "out", "no-files", "percentiles", "timeline", "timeline-window",
	"timeline-tracks", "timeline-skip", "timeline-max"}

// walkCommands calls f on c and every command below it.
func walkCommands(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walkCommands(sub, f)
	}
}

// TestOutputContract walks the whole command tree: every command that runs and is not
// informational declares every flag of the output contract with the same default and the
// same usage — the contract's words, with the command's own output directory and formats
// filled in — unless it refuses the flag ("not for COMMAND: why"); an informational
// command declares none of them. A flag a command cannot honour is refused with the reason,
// naming the flag.
func TestOutputContract(t *testing.T) {
	// The defaults and usages every command shares, from docs/outputs.md's table.
	defaults := map[string]string{"format": "text", "out": cliflags.DefaultOut, "no-files": "false", "percentiles": "",
		"timeline": "", "timeline-window": "0s:100ms", "timeline-tracks": "", "timeline-skip": "refresh", "timeline-max": "2000000"}
	usagePrefix := map[string]string{
		"format":      "standard output: text, json or csv (json: ",
		"percentiles": "latency percentiles to report instead of the defaults, comma-separated, each in (0, 100), e.g. 50,90,99,99.9,99.99,99.999; sorted for you; fields are named p50_us, p999_us, p05_us (",
		"timeline":    "write a Perfetto/Chrome trace-event JSON of the resources to this file (gzip when it ends in .gz)",
	}
	// Where each command writes: OUT/DIR/ (merge joins sweeps; the bare program compares).
	dirOf := map[string]string{"fastdrain": "compare", "fastdrain merge": "sweep", "fastdrain stats list": "stats"}
	usages := map[string]string{} // flag → the usage the first command gave it, where it is the same for all
	var checked []string
	walkCommands(newRoot(), func(c *cobra.Command) {
		path := c.CommandPath()
		if !c.Runnable() {
			return
		}
		if informational[path] {
			for _, n := range contractFlags {
				require.Nil(t, c.Flags().Lookup(n), "%s is informational but has --%s", path, n)
			}
			return
		}
		checked = append(checked, path)
		dir := dirOf[path]
		if dir == "" {
			dir = c.Name()
		}
		for _, n := range contractFlags {
			f := c.Flags().Lookup(n)
			require.NotNil(t, f, "%s --%s", path, n)
			def := defaults[n]
			if path == "fastdrain flashbench" && n == "timeline-window" {
				def = "0s:10ms" // a flashbench run is milliseconds of simulated time
			}
			require.Equal(t, def, f.DefValue, "%s --%s", path, n)
			if strings.HasPrefix(f.Usage, "not for "+dir+": ") {
				continue // refused, with the reason
			}
			switch {
			case n == "out":
				require.Equal(t, "results directory: this command writes under OUT/"+dir+"/ (empty: no files)", f.Usage, path)
			case usagePrefix[n] != "":
				require.True(t, strings.HasPrefix(f.Usage, usagePrefix[n]), "%s --%s: %q", path, n, f.Usage)
			default:
				if usages[n] == "" {
					usages[n] = f.Usage
				}
				require.Equal(t, usages[n], f.Usage, "%s --%s", path, n)
			}
		}
	})
	// Every command that produces results was walked (a new one joins by itself).
	for _, want := range []string{"fastdrain", "fastdrain run", "fastdrain compare", "fastdrain figures", "fastdrain fio",
		"fastdrain replay", "fastdrain uflip", "fastdrain flashbench", "fastdrain sweep", "fastdrain merge",
		"fastdrain calibrate", "fastdrain powercut", "fastdrain stats list"} {
		require.Contains(t, checked, want)
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
