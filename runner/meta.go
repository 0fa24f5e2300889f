package runner

import (
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// Provenance is what produced a run's results: the program and its build.
type Provenance struct {
	Command  string // the command line as typed ("go run ./cmd/fastdrain …" under go run), quoted where needed
	Version  string // fastdrain's version
	Revision string // VCS revision the binary was built from ("" if unknown)
	Modified bool   // built with uncommitted changes
	// RevisionFrom says how the revision was found: "build" (stamped by go build),
	// "source tree" (read with git when go run or go test built the binary) or "" (unknown).
	RevisionFrom string
	Go           string // the Go toolchain
}

// runMeta is run.yaml, written beside every run's results: what produced them, so a result
// directory explains itself. The resolved configuration is config.yaml beside it.
type runMeta struct {
	Command      string `yaml:"command"`
	Version      string `yaml:"version"`
	Revision     string `yaml:"revision"`
	Modified     bool   `yaml:"modified"`
	RevisionFrom string `yaml:"revision_from"`
	Go           string `yaml:"go"`
	Preset       string `yaml:"preset"`
	Variant      string `yaml:"variant"`
	Scenario     string `yaml:"scenario"`
	Seed         uint64 `yaml:"seed"`     // the platform's root seed
	Duration     string `yaml:"duration"` // simulated, after warm-up
	Warmup       string `yaml:"warmup"`
	Config       string `yaml:"config"` // the file holding the resolved configuration
}

// WriteMeta writes dir/run.yaml for the run o made by p.
func WriteMeta(dir string, o Options, p Provenance) error {
	m := runMeta{Command: p.Command, Version: p.Version, Revision: p.Revision, Modified: p.Modified, RevisionFrom: p.RevisionFrom,
		Go: p.Go, Preset: o.Config.Name, Variant: o.Label, Scenario: o.Workload.Scenario.Name,
		Seed: o.Config.Seed, Duration: o.Workload.Scenario.Duration.String(), Warmup: o.Workload.Scenario.Warmup.String(),
		Config: "config.yaml"}
	out, err := yaml.Marshal(m)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "run.yaml"), out, 0o644)
}
