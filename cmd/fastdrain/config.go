package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
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

// configFiles is config's reason for refusing --out: a configuration is printed, and kept
// by redirecting it to a file (which --config loads back).
const configFiles = "it prints configurations and writes no files under --out (redirect standard output to keep them)"

func newConfigShow() *cobra.Command {
	cf := &cliflags.Config{}
	var o cliflags.Output
	cmd := &cobra.Command{
		Use:   "show [PRESET]",
		Short: "Print the resolved configuration (keys sorted; the host profile's keys marked)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
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
			var doc map[string]any
			if err := yaml.Unmarshal(out, &doc); err != nil {
				return err
			}
			t := &report.Table{Title: "configuration", Header: []string{"key", "value"}}
			flattenConfig(t, "", doc)
			text := func(w io.Writer) error { _, err := w.Write(out); return err }
			return o.Write(text, cliflags.JSONWriter(doc), t.WriteCSV)
		},
	}
	cf.Register(cmd, "fastdrain-tlc")
	o.RegisterInfo(cmd, "config", "json: the configuration as one object; csv: key (dotted path), value", configFiles)
	return cmd
}

// flattenConfig appends every scalar of a decoded configuration to t as its dotted path
// (list items as [i], the form of config diff) and its value, keys in sorted order.
func flattenConfig(t *report.Table, path string, v any) {
	join := func(k string) string {
		if path == "" || strings.HasPrefix(k, "[") {
			return path + k
		}
		return path + "." + k
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			flattenConfig(t, join(k), v[k])
		}
	case []any:
		for i, e := range v {
			flattenConfig(t, join(fmt.Sprintf("[%d]", i)), e)
		}
	default:
		t.Append(path, fmt.Sprint(v))
	}
}

// memoryJSON is config validate's memory estimate in JSON.
type memoryJSON struct {
	Parts []memoryPartJSON `json:"parts"`
	// The totals, and what a run adds per flash page it programs on a block not programmed before.
	BuildBytes        int64 `json:"build_bytes"`
	PeakBytes         int64 `json:"peak_bytes"`
	HeapBytes         int64 `json:"heap_bytes"`
	WriteBytesPerPage int64 `json:"write_bytes_per_page"`
}

// memoryPartJSON is one part of the estimate.
type memoryPartJSON struct {
	What       string `json:"what"`
	BuildBytes int64  `json:"build_bytes"`
	PeakBytes  int64  `json:"peak_bytes"`
}

func newConfigValidate() *cobra.Command {
	cf := &cliflags.Config{}
	var o cliflags.Output
	var memory bool
	cmd := &cobra.Command{
		Use:   "validate [FILE...]",
		Short: "Check configuration files over a preset and report every problem",
		Long: `validate loads the configuration as run does and reports every problem, each with
its field path, including what the models refuse on the whole geometry and the resource
guard: a configuration whose estimated memory exceeds limits.memory (default: the machine's
memory) is refused (docs/reliability.md). --memory prints the estimate's parts; --format json
and csv always carry them.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
			cf.Files = append(cf.Files, args...)
			c, err := cf.Load()
			if err != nil {
				return err
			}
			e := c.EstimateMemory()
			t := &report.Table{Title: "estimated memory", Header: []string{"what", "build_bytes", "peak_bytes"}}
			doc := struct {
				OK     bool       `json:"ok"`
				Memory memoryJSON `json:"memory"`
			}{true, memoryJSON{[]memoryPartJSON{}, e.Build, e.Peak, e.Heap, e.WriteBytes}}
			for _, p := range e.Parts {
				t.Append(p.What, fmt.Sprint(p.Build), fmt.Sprint(p.Peak))
				doc.Memory.Parts = append(doc.Memory.Parts, memoryPartJSON{p.What, p.Build, p.Peak})
			}
			t.Append("total", fmt.Sprint(e.Build), fmt.Sprint(e.Peak))
			text := func(w io.Writer) error {
				if memory {
					if err := e.WriteText(w, c.Flash.Die.PageSize); err != nil {
						return err
					}
				}
				_, err := fmt.Fprintln(w, "ok")
				return err
			}
			return o.Write(text, cliflags.JSONWriter(doc), t.WriteCSV)
		},
	}
	cf.Register(cmd, "")
	cmd.Flags().BoolVar(&memory, "memory", false, "print the resource guard's memory estimate, part by part")
	o.RegisterInfo(cmd, "config", "json: {ok, memory: {parts: [{what, build_bytes, peak_bytes}], build_bytes, peak_bytes, heap_bytes, write_bytes_per_page}}; csv: the estimate's parts and total", configFiles)
	return cmd
}

func newConfigDiff() *cobra.Command {
	var o cliflags.Output
	var sets []string
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Show the fields that differ between two presets, variants (preset/variant) or files",
		Long: `diff resolves two configurations and prints every field whose value differs, as
"path: A-value → B-value". Each argument is a preset name, "preset/variant", or a YAML file
(applied over the built-in defaults).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
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
			t := &report.Table{Title: "differences", Header: []string{"path", "a", "b"}}
			for _, c := range changes {
				t.Append(c.Path, c.A, c.B)
			}
			text := func(w io.Writer) error {
				for _, r := range t.Rows {
					fmt.Fprintf(w, "%s: %s → %s\n", r[0], r[1], r[2])
				}
				if len(changes) == 0 {
					fmt.Fprintln(w, "no differences")
				}
				return nil
			}
			return o.Write(text, t.WriteJSON, t.WriteCSV)
		},
	}
	cmd.Flags().StringArrayVar(&sets, "set", nil, "override applied to both sides: path.to.key=value, the value a YAML scalar, [list] or {mapping}")
	o.RegisterInfo(cmd, "config", `json: {title, header: ["path", "a", "b"], rows}; csv: path, a, b`, configFiles)
	return cmd
}

func newConfigList() *cobra.Command {
	var o cliflags.Output
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the embedded presets and variants",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Parse(); err != nil {
				return err
			}
			t := &report.Table{Title: "configurations", Header: []string{"kind", "name", "description"}}
			for _, p := range platforms.Presets() {
				desc := ""
				if c, err := platforms.Decode(mustPreset(p)); err == nil {
					desc = c.Description
				}
				t.Append("preset", p, desc)
			}
			for _, v := range platforms.Variants() {
				t.Append("variant", v, "")
			}
			text := func(w io.Writer) error {
				fmt.Fprintln(w, "presets:")
				for _, r := range t.Rows[:len(platforms.Presets())] {
					fmt.Fprintf(w, "  %-16s %s\n", r[1], r[2])
				}
				fmt.Fprintln(w, "variants:")
				for _, r := range t.Rows[len(platforms.Presets()):] {
					fmt.Fprintf(w, "  %s\n", r[1])
				}
				return nil
			}
			return o.Write(text, t.WriteJSON, t.WriteCSV)
		},
	}
	o.RegisterInfo(cmd, "config", `json: {title, header: ["kind", "name", "description"], rows}; csv: kind, name, description`, configFiles)
	return cmd
}

func mustPreset(name string) platforms.Source {
	b, _ := platforms.PresetYAML("presets", name)
	return platforms.Source{Name: name, Data: b}
}
