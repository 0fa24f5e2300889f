package main

import (
	"fmt"
	"io"

	"github.com/fastdrain-sim/fastdrain/internal/buildinfo"
	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
)

// version is the program version; release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func newVersion() *cobra.Command {
	var o cliflags.Output
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, the VCS revision it was built from and the Go toolchain",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
			b := buildinfo.Read()
			t := &report.Table{Title: "version", Header: []string{"key", "value"}}
			doc := map[string]any{}
			for _, kv := range [][2]any{{"version", version}, {"revision", b.Revision}, {"revision_time", b.Time},
				{"modified", b.Modified}, {"revision_from", b.From()}, {"module", b.Module}, {"go", b.GoVersion}} {
				k := kv[0].(string)
				doc[k] = kv[1]
				t.Append(k, fmt.Sprint(kv[1]))
			}
			text := func(w io.Writer) error { return b.Write(w, version) }
			return o.Write(text, cliflags.JSONWriter(doc), t.WriteCSV)
		},
	}
	o.RegisterInfo(cmd, "version", "json: {version, revision, revision_time, modified, revision_from, module, go}; csv: key, value",
		"it prints the program's version and writes no files (every result's run.yaml records it)")
	return cmd
}

// writeRunMeta writes dir/run.yaml for the run o with this binary's provenance
// (runner.WriteMeta).
func writeRunMeta(dir string, o runner.Options) error {
	b := buildinfo.Read()
	return runner.WriteMeta(dir, o, runner.Provenance{Command: buildinfo.CommandLine(), Version: version, Revision: b.Revision,
		Modified: b.Modified, RevisionFrom: b.From(), Go: b.GoVersion})
}
