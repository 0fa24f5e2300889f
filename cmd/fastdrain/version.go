package main

import (
	"github.com/fastdrain-sim/fastdrain/internal/buildinfo"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
)

// version is the program version; release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the VCS revision it was built from and the Go toolchain",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return buildinfo.Read().Write(cmd.OutOrStdout(), version)
		},
	}
}

// writeRunMeta writes dir/run.yaml for the run o with this binary's provenance
// (runner.WriteMeta).
func writeRunMeta(dir string, o runner.Options) error {
	b := buildinfo.Read()
	return runner.WriteMeta(dir, o, runner.Provenance{Command: buildinfo.CommandLine(), Version: version, Revision: b.Revision,
		Modified: b.Modified, RevisionFrom: b.From(), Go: b.GoVersion})
}
