package main

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
)

// openMachine builds the machine of cf (runner.Open).
func openMachine(cf *cliflags.Config) (*runner.Machine, error) {
	c, err := cf.Load()
	if err != nil {
		return nil, err
	}
	return runner.Open(c)
}

func newConfig() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show, validate, compare and list platform configurations",
	}
	cmd.AddCommand(newConfigShow(), newConfigValidate(), newConfigDiff(), newConfigList(), newConfigImport())
	return cmd
}

func newConfigShow() *cobra.Command {
	cf := &cliflags.Config{}
	cmd := &cobra.Command{
		Use:   "show [PRESET]",
		Short: "Print the resolved configuration (keys sorted; the host profile's keys marked)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				cf.Preset = args[0]
			}
			c, err := cf.Load()
			if err != nil {
				return err
			}
			out, err := c.Annotated()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	cf.Register(cmd, "fastdrain-tlc")
	return cmd
}

func newConfigValidate() *cobra.Command {
	cf := &cliflags.Config{}
	var memory bool
	cmd := &cobra.Command{
		Use:   "validate [FILE...]",
		Short: "Check configuration files over a preset and report every problem",
		Long: `validate loads the configuration as run does and reports every problem, each with
its field path, including what the models refuse on the whole geometry and the resource
guard: a configuration whose estimated memory exceeds limits.memory (default: the machine's
memory) is refused (docs/reliability.md). --memory prints the estimate's parts.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cf.Files = append(cf.Files, args...)
			c, err := cf.Load()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if memory {
				if err := c.EstimateMemory().WriteText(w, c.Flash.Die.PageSize); err != nil {
					return err
				}
			}
			_, err = fmt.Fprintln(w, "ok")
			return err
		},
	}
	cf.Register(cmd, "")
	cmd.Flags().BoolVar(&memory, "memory", false, "print the resource guard's memory estimate, part by part")
	return cmd
}

func newConfigDiff() *cobra.Command {
	var sets []string
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Show the fields that differ between two presets, variants (preset/variant) or files",
		Long: `diff resolves two configurations and prints every field whose value differs, as
"path: A-value → B-value". Each argument is a preset name, "preset/variant", or a YAML file
(applied over the built-in defaults).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var cs [2]platforms.Config
			for i, a := range args {
				c, err := platforms.LoadArg(a, sets)
				if err != nil {
					return err
				}
				cs[i] = c
			}
			changes, err := platforms.Diff(cs[0], cs[1])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, c := range changes {
				fmt.Fprintf(w, "%s: %s → %s\n", c.Path, c.A, c.B)
			}
			if len(changes) == 0 {
				fmt.Fprintln(w, "no differences")
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&sets, "set", nil, "override applied to both sides")
	return cmd
}

func newConfigList() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the embedded presets and variants",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			fmt.Fprintln(w, "presets:")
			for _, p := range platforms.Presets() {
				desc := ""
				if c, err := platforms.Decode(mustPreset(p)); err == nil {
					desc = c.Description
				}
				fmt.Fprintf(w, "  %-16s %s\n", p, desc)
			}
			fmt.Fprintln(w, "variants:")
			for _, v := range platforms.Variants() {
				fmt.Fprintf(w, "  %s\n", v)
			}
			return nil
		},
	}
}

func mustPreset(name string) platforms.Source {
	b, _ := platforms.PresetYAML("presets", name)
	return platforms.Source{Name: name, Data: b}
}
