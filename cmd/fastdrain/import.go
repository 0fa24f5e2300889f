package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/platforms/mqsim"
	"github.com/spf13/cobra"
)

func newConfigImport() *cobra.Command {
	var out, base string
	cmd := &cobra.Command{
		Use:   "import mqsim FILE",
		Short: "Convert an MQSim ssdconfig.xml into a fastdrain configuration layer",
		Long: `import mqsim reads MQSim's SSD configuration (ssdconfig.xml) and writes the equivalent
fastdrain configuration keys as YAML, each with a comment naming the MQSim element it came
from, headed by the list of elements with no exact equivalent and why. Apply the layer on a
preset for the host side, e.g.

  fastdrain config import mqsim ssdconfig.xml -o mqsim.yaml
  fastdrain run --preset fastdrain-tlc --config mqsim.yaml

The layer is checked on --preset: whether it validates for whole-system runs is printed (a
flash page other than 4 KiB validates only for flashbench and flash sweeps until sub-page
mapping exists).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "mqsim" {
				return fmt.Errorf("import %q: the one known source is mqsim", args[0])
			}
			f, err := os.Open(args[1])
			if err != nil {
				return err
			}
			defer f.Close()
			r, err := mqsim.Import(f, args[1])
			if err != nil {
				return err
			}
			y, err := r.YAML(filepath.Base(args[1]))
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			dest := out
			if dest == "" {
				if _, err := cmd.OutOrStdout().Write(y); err != nil {
					return err
				}
				tmp, err := os.CreateTemp("", "mqsim-*.yaml")
				if err != nil {
					return err
				}
				defer os.Remove(tmp.Name())
				if _, err := tmp.Write(y); err != nil {
					tmp.Close()
					return err
				}
				if err := tmp.Close(); err != nil {
					return err
				}
				dest = tmp.Name()
			} else if err := os.WriteFile(dest, y, 0o644); err != nil {
				return err
			}
			nearest := 0
			for _, n := range r.Notes {
				if n.Nearest {
					nearest++
				}
			}
			fmt.Fprintf(stderr, "%s: %d keys set, %d elements mapped to the nearest equivalent, %d with none (listed in the file's header)\n",
				args[1], len(r.Settings), nearest, len(r.Notes)-nearest)
			if _, err := platforms.Load(platforms.Options{Preset: base, Files: []string{dest}}); err != nil {
				fmt.Fprintf(stderr, "on preset %s it does not validate for whole-system runs: %v\n", base, err)
			} else {
				fmt.Fprintf(stderr, "on preset %s it validates for whole-system runs\n", base)
			}
			if out != "" {
				fmt.Fprintf(stderr, "wrote %s\n", out)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the YAML to this file (default: standard output)")
	cmd.Flags().StringVar(&base, "preset", "fastdrain-tlc", "preset the layer is checked on")
	return cmd
}
