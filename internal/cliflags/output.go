package cliflags

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/spf13/cobra"
)

// DefaultOut is --out's default, the results root every command writes under. Tests point
// it at a temporary directory so that they leave nothing in their package.
var DefaultOut = "results"

// Output is the output contract every command that produces results shares
// (docs/outputs.md, "The output contract"), with the same defaults and meaning everywhere:
//
//	--format text|json|csv  what standard output holds (default text)
//	--out DIR               the results root: the command writes under DIR/COMMAND/ (default results)
//	--no-files              write nothing under --out
//	--percentiles LIST      the latency percentiles of every output
//	--timeline FILE         a Perfetto trace of the simulated resources (and --timeline-*)
//
// A command that cannot honour one of them still accepts it in its help and refuses it,
// when given, with the reason (Refuse).
type Output struct {
	Format      string      // --format: text, json or csv
	Out         string      // --out: the results root
	NoFiles     bool        // --no-files
	Percentiles Percentiles // --percentiles
	Timeline    Timeline    // --timeline and --timeline-*
	// OutShort is --out's one-letter form ("" for none; merge keeps its -o), set before Register.
	OutShort string

	cmd     *cobra.Command
	command string // files go to --out/command/
	refused []refusal
}

// refusal is a flag of the contract a command cannot honour, and why.
type refusal struct{ flag, why string }

// Register adds the contract's flags to cmd: formats says what --format json and csv
// print for this command, window is --timeline-window's default and pctWhere which outputs
// --percentiles changes.
func (o *Output) Register(cmd *cobra.Command, command, formats, window, pctWhere string) {
	o.cmd, o.command = cmd, command
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "text", "standard output: text, json or csv ("+formats+")")
	f.StringVarP(&o.Out, "out", o.OutShort, DefaultOut, "results directory: this command writes under OUT/"+command+"/ (empty: no files)")
	f.BoolVar(&o.NoFiles, "no-files", false, "write nothing under --out")
	o.Percentiles.Register(cmd, pctWhere)
	o.Timeline.Register(cmd, window)
}

// Refuse makes the command refuse flag (and, for --timeline, every --timeline-* flag)
// with the reason why, which also goes into the flag's help.
func (o *Output) Refuse(flag, why string) {
	o.refused = append(o.refused, refusal{flag, why})
	if fl := o.cmd.Flags().Lookup(flag); fl != nil {
		fl.Usage = "not for " + o.command + ": " + why
	}
}

// TimelineFlagNames are the --timeline flags that --timeline's refusal covers.
var TimelineFlagNames = []string{"timeline", "timeline-window", "timeline-tracks", "timeline-skip", "timeline-max"}

// Parse checks the flags: the format, the percentiles, the timeline (Timeline.Trace)
// and every refused flag given.
func (o *Output) Parse() error {
	var errs []error
	if o.Format != "text" && o.Format != "json" && o.Format != "csv" {
		errs = append(errs, fmt.Errorf("--format %q: want text, json or csv", o.Format))
	}
	errs = append(errs, o.Percentiles.Parse(), o.Timeline.build())
	for _, r := range o.refused {
		names := []string{r.flag}
		if r.flag == "timeline" {
			names = TimelineFlagNames
		}
		for _, n := range names {
			if o.cmd.Flags().Changed(n) {
				errs = append(errs, fmt.Errorf("--%s: %s does not take it: %s", n, o.cmd.CommandPath(), r.why))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// Dir returns the command's output directory, --out/COMMAND, or "" when it writes no files
// (--no-files or an empty --out).
func (o *Output) Dir() string {
	if o.NoFiles || o.Out == "" {
		return ""
	}
	return filepath.Join(o.Out, o.command)
}

// Results never replace earlier results silently. Two rules, by what the directory is:
//
//   - run, compare (the main job), figures and uflip write a directory of results under
//     --out (default results/) that the command names itself. Each run gets a directory of
//     its own, named for the command, preset, variant or scenario and simulated duration
//     (results/compare/fastdrain-tlc-10s), with -2, -3, … added when that name is taken.
//     These are the commands a user repeats with other flags, one README example after
//     another; refusing would stop the second, and a time stamp in the name would make
//     the path differ between two runs of the same command in fresh clones.
//   - sweep and merge write files whose paths the user or a batch script names and other
//     commands read back (merge's shard-*-of-N.json): those paths must stay predictable,
//     so an existing file is replaced only by the same sweep (a retried array task writes
//     the same bytes) or with --force; otherwise the command refuses before it runs.

// RunDir creates and returns this run's own directory under --out/COMMAND, named name
// (report.NewResultDir: -2, -3, … when taken), or "" when the command writes no files.
func (o *Output) RunDir(name string) (string, error) {
	d := o.Dir()
	if d == "" {
		return "", nil
	}
	return report.NewResultDir(d, name)
}

// Save writes a run's results into its own directory under --out/COMMAND (RunDir, named
// name) with write, then says where on standard error; without files it does nothing.
func (o *Output) Save(name string, write func(dir string) error) error {
	dir, err := o.RunDir(name)
	if err != nil || dir == "" {
		return err
	}
	if err := write(dir); err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.cmd.ErrOrStderr(), "results written to %s\n", dir)
	return err
}

// FileStem is a file's name without its directory and extension, for a results directory's
// name: testdata/traces/mqsim_tpcc-small.trace → mqsim_tpcc-small.
func FileStem(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// Status returns where status lines go: standard output with --format text, else standard
// error, so that standard output holds only the JSON or CSV.
func (o *Output) Status() io.Writer {
	if o.Format == "text" {
		return o.cmd.OutOrStdout()
	}
	return o.cmd.ErrOrStderr()
}

// Write prints the command's result on standard output in --format, with the function
// for that format (nil: that format prints nothing more): the one place the format is
// dispatched.
func (o *Output) Write(text, jsonDoc, csvTable func(io.Writer) error) error {
	f := text
	switch o.Format {
	case "json":
		f = jsonDoc
	case "csv":
		f = csvTable
	}
	if f == nil {
		return nil
	}
	return f(o.cmd.OutOrStdout())
}

// JSONWriter returns a function writing v as indented JSON, for Write.
func JSONWriter(v any) func(io.Writer) error {
	return func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
}
