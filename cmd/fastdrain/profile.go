package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profileFlags is the --cpuprofile flag every command has: a CPU profile of the whole
// command, for `go tool pprof` and for refreshing the build's default.pgo (see
// docs/performance.md).
type profileFlags struct {
	path string
	file *os.File
}

func (pf *profileFlags) register(root *cobra.Command) {
	root.PersistentFlags().StringVar(&pf.path, "cpuprofile", "", "write a CPU profile of the command to this file (go tool pprof)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return pf.start() }
	root.PersistentPostRunE = func(*cobra.Command, []string) error { return pf.stop() }
}

func (pf *profileFlags) start() error {
	if pf.path == "" {
		return nil
	}
	f, err := os.Create(pf.path)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile %s: %w", pf.path, err)
	}
	pf.file = f
	return nil
}

func (pf *profileFlags) stop() error {
	if pf.file == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := pf.file.Close()
	pf.file = nil
	if err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", pf.path, err)
	}
	return nil
}
