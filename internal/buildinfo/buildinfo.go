package buildinfo

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Info is what the binary knows of its own build: the Go toolchain, the module
// version and the VCS revision the go command stamped (go build in a git checkout stamps
// vcs.revision, vcs.time and vcs.modified; go run, go test and -buildvcs=false do not: for
// go run and go test the revision is then read from the source tree, provenance.go).
type Info struct {
	GoVersion string // the toolchain, e.g. go1.26.0
	Module    string // the main module's version, "(devel)" for a checkout
	Revision  string // "" when not stamped
	Time      string // the revision's commit time, RFC 3339
	Modified  bool   // built with uncommitted changes
	// FromRepository says Revision, Time and Modified were read from the source tree when
	// the program started, not stamped at build time.
	FromRepository bool
}

// Read reads the running binary's build information.
func Read() Info {
	var b Info
	if bi, ok := debug.ReadBuildInfo(); ok {
		b = Of(bi)
	}
	if b.Revision == "" {
		if exe, err := os.Executable(); err == nil && goBuildWork(exe) {
			if dir := sourceDir(); dir != "" {
				b.fromRepository(dir)
			}
		}
	}
	return b
}

// Of extracts the fields fastdrain reports from Go's build information.
func Of(bi *debug.BuildInfo) Info {
	b := Info{GoVersion: bi.GoVersion, Module: bi.Main.Version}
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

// Write prints the version block of version: the first line is "fastdrain VERSION", as
// scripts expect.
func (b Info) Write(w io.Writer, version string) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "fastdrain %s\n", version)
	switch {
	case b.Revision == "":
		sb.WriteString("revision: not stamped (built with -buildvcs=false, outside a git checkout, or without git)\n")
	case b.Modified:
		fmt.Fprintf(&sb, "revision: %s (%s), with uncommitted changes%s\n", b.Revision, b.Time, b.origin())
	default:
		fmt.Fprintf(&sb, "revision: %s (%s)%s\n", b.Revision, b.Time, b.origin())
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

// From is run.yaml's revision_from: "build", "source tree" or "".
func (b Info) From() string {
	switch {
	case b.Revision == "":
		return ""
	case b.FromRepository:
		return "source tree"
	}
	return "build"
}

// origin says where a revision came from when it was not stamped at build time.
func (b Info) origin() string {
	if b.FromRepository {
		return "; read from the source tree at start (go run and go test stamp none)"
	}
	return ""
}
