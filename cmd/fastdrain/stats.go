package main

import (
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
)

func newStats() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "The statistics the simulator reports",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newStatsList())
	return cmd
}

// catalogueEntry is one statistic in stats list --format json.
type catalogueEntry struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
	Desc string `json:"description"`
	Row  string `json:"text_row"`
}

func newStatsList() *cobra.Command {
	var o cliflags.Output
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Print the catalogue of statistics: name, unit and description",
		Long: `stats list prints every statistic of the machine's catalogue (runner.Statistics) in the
order run, replay, fio, uflip and sweeps report them: its name (stats.csv's first column, the
"name" of JSON's ssd_stats), its unit (a time is in µs as a number and a duration in the text
tables) and what it counts. A statistic a run does not have (the fault counters without a
fault model, padded slots without sub-page mapping) is left out of every output of that run
alike. docs/outputs.md says how to declare a new one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
			es := []catalogueEntry{}
			for _, s := range runner.Statistics.Stats() {
				es = append(es, catalogueEntry{s.Name, s.Unit.String(), s.Desc, s.Row})
			}
			t := report.CatalogueTable("statistics", runner.Statistics)
			return o.Write(t.WriteText, cliflags.JSONWriter(es), t.WriteCSV)
		},
	}
	o.Register(cmd, "stats", "json: a list of {name, unit, description, text_row}; csv: name, unit, description", "0s:100ms", "")
	o.Refuse("out", "it prints the catalogue and writes no files")
	o.Refuse("no-files", "it writes no files")
	o.Refuse("percentiles", "the catalogue has no latencies")
	o.Refuse("timeline", "it simulates nothing")
	return cmd
}
