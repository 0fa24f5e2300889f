package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/platforms/mqsim"
	"github.com/spf13/cobra"
)

func newConfigImport() *cobra.Command {
	var out, base string
	cmd := &cobra.Command{
		Use:   "import mqsim|mqsim-workload FILE",
		Short: "Convert an MQSim ssdconfig.xml into a configuration layer, or an MQSim workload file into fio-like jobs",
		Long: `import mqsim reads MQSim's SSD configuration (ssdconfig.xml) and writes the equivalent
fastdrain configuration keys as YAML, each with a comment naming the MQSim element it came
from, headed by the list of elements with no exact equivalent and why. Apply the layer on a
preset for the host side, e.g.

  fastdrain config import mqsim ssdconfig.xml -o mqsim.yaml
  fastdrain run --preset fastdrain-tlc --config mqsim.yaml

The layer is checked on --preset: whether it validates for whole-system runs is printed (a
flash page other than 4, 8 or 16 KiB, two or four 4 KiB mapping units a page, validates only
for flashbench and flash sweeps).

import mqsim-workload reads an MQSim workload file (MQSim_IO_Scenarios) and writes one
fio-like job file per IO_Scenario, OUT/scenario-N.yaml (-o is a directory, default "."),
sized for the device of --preset: each synthetic flow becomes a job on its own share of the
device; trace-based flows are listed with the replay command to run instead. Run a scenario
with: fastdrain fio OUT/scenario-1.yaml --preset PRESET.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch args[0] {
			case "mqsim":
			case "mqsim-workload":
				return importWorkload(cmd, args[1], out, base)
			default:
				return fmt.Errorf("import %q: the known sources are mqsim (ssdconfig.xml) and mqsim-workload (workload.xml)", args[0])
			}
			return importConfig(cmd, args[1], out, base)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "mqsim: write the YAML to this file (default: standard output); mqsim-workload: the directory for scenario-N.yaml (default .)")
	cmd.Flags().StringVar(&base, "preset", "fastdrain-tlc", "preset the layer is checked on (mqsim) or whose device the jobs are sized for (mqsim-workload)")
	return cmd
}

// importConfig converts the MQSim ssdconfig.xml at path into a configuration layer, written
// to out (standard output when empty), and checks it on preset base.
func importConfig(cmd *cobra.Command, path, out, base string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := mqsim.Import(f, path)
	if err != nil {
		return err
	}
	y, err := r.YAML(filepath.Base(path))
	if err != nil {
		return err
	}
	layer := platforms.Source{Name: out, Data: y}
	if out == "" {
		layer.Name = "the layer imported from " + path
		if _, err := cmd.OutOrStdout().Write(y); err != nil {
			return err
		}
	} else if err := os.WriteFile(out, y, 0o644); err != nil {
		return err
	}
	layerSummary(cmd.ErrOrStderr(), r, path, layer, base)
	if out != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", out)
	}
	return nil
}

// layerSummary writes the import's warnings, a tally of how its elements mapped, and
// whether the layer validates on preset base for whole-system runs.
func layerSummary(stderr io.Writer, r *mqsim.Result, path string, layer platforms.Source, base string) {
	nearest := 0
	for _, n := range r.Notes {
		if n.Nearest {
			nearest++
		}
		if n.Warning {
			fmt.Fprintf(stderr, "warning: %s:%d: %s = %s: %s\n", path, n.Line, n.Element, n.Value, n.Why)
		}
	}
	fmt.Fprintf(stderr, "%s: %d keys set, %d elements mapped to the nearest equivalent, %d with none (listed in the file's header)\n",
		path, len(r.Settings), nearest, len(r.Notes)-nearest)
	if _, err := platforms.Load(platforms.Options{Preset: base, Layers: []platforms.Source{layer}}); err != nil {
		fmt.Fprintf(stderr, "on preset %s it does not validate for whole-system runs: %v\n", base, err)
	} else {
		fmt.Fprintf(stderr, "on preset %s it validates for whole-system runs\n", base)
	}
}

// importWorkload converts an MQSim workload file into fio-like job files for preset's device.
func importWorkload(cmd *cobra.Command, path, dir, preset string) error {
	if dir == "" {
		dir = "."
	}
	c, err := platforms.Load(platforms.Options{Preset: preset})
	if err != nil {
		return fmt.Errorf("--preset: %w", err)
	}
	m, err := platforms.Build(c)
	if err != nil {
		return err
	}
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	m.Eng.Close()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	scs, err := mqsim.ImportWorkload(f, filepath.Base(path), capacity)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	for i, sc := range scs {
		name := filepath.Join(dir, fmt.Sprintf("scenario-%d.yaml", i+1))
		if sc.Flows == 0 {
			fmt.Fprintf(stderr, "scenario %d: no synthetic flow; %d notes:\n", i+1, len(sc.Notes))
			for _, n := range sc.Notes {
				fmt.Fprintf(stderr, "  %s: %s\n", n.Element, n.Why)
			}
			continue
		}
		if err := os.WriteFile(name, sc.Jobs, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s: %d jobs, %d notes in its header\n", name, sc.Flows, len(sc.Notes))
	}
	return nil
}
