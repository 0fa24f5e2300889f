package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is the program version; release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// buildInfo is what the binary knows of its own build: the Go toolchain, the module
// version and the VCS revision the go command stamped (go build in a git checkout stamps
// vcs.revision, vcs.time and vcs.modified; go test and -buildvcs=false do not).
type buildInfo struct {
	GoVersion string
	Module    string // the main module's version, "(devel)" for a checkout
	Revision  string // "" when not stamped
	Time      string
	Modified  bool
}

// readBuildInfo reads the running binary's build information.
func readBuildInfo() buildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildInfo{}
	}
	return buildInfoOf(bi)
}

// buildInfoOf extracts the fields fastdrain reports from Go's build information.
func buildInfoOf(bi *debug.BuildInfo) buildInfo {
	b := buildInfo{GoVersion: bi.GoVersion, Module: bi.Main.Version}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// write prints the version block: the first line is "fastdrain VERSION", as scripts expect.
func (b buildInfo) write(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "fastdrain %s\n", version)
	switch {
	case b.Revision == "":
		sb.WriteString("revision: not stamped (built by go test, go run of files, or -buildvcs=false)\n")
	case b.Modified:
		fmt.Fprintf(&sb, "revision: %s (%s), with uncommitted changes\n", b.Revision, b.Time)
	default:
		fmt.Fprintf(&sb, "revision: %s (%s)\n", b.Revision, b.Time)
	}
	if b.Module != "" {
		fmt.Fprintf(&sb, "module: %s\n", b.Module)
	}
	if b.GoVersion != "" {
		fmt.Fprintf(&sb, "go: %s\n", b.GoVersion)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the VCS revision it was built from and the Go toolchain",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return readBuildInfo().write(cmd.OutOrStdout())
		},
	}
}
