package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"
)

// defaultOut is --out's default, the results root every command writes under. Tests point
// it at a temporary directory so that they leave nothing in the package.
var defaultOut = "results"

// outputFlags is the output contract every command that produces results shares
// (docs/outputs.md, "The output contract"), with the same defaults and meaning everywhere:
//
//	--format text|json|csv  what standard output holds (default text)
//	--out DIR               the results root: the command writes under DIR/COMMAND/ (default results)
//	--no-files              write nothing under --out
//	--percentiles LIST      the latency percentiles of every output
//	--timeline FILE         a Perfetto trace of the simulated resources (and --timeline-*)
//
// A command that cannot honour one of them still accepts it in its help and refuses it,
// when given, with the reason (refuse).
type outputFlags struct {
	cmd     *cobra.Command
	command string // files go to --out/command/
	format  string
	out     string
	noFiles bool
	pcts    percentileFlag
	tl      timelineFlags
	refused []refusal
	// outShort is --out's one-letter form ("" for none; merge keeps its -o).
	outShort string
}

// refusal is a flag of the contract a command cannot honour, and why.
type refusal struct{ flag, why string }

// register adds the contract's flags to cmd: formats says what --format json and csv
// print for this command, window is --timeline-window's default and pctWhere which outputs
// --percentiles changes.
func (o *outputFlags) register(cmd *cobra.Command, command, formats, window, pctWhere string) {
	o.cmd, o.command = cmd, command
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "standard output: text, json or csv ("+formats+")")
	f.StringVarP(&o.out, "out", o.outShort, defaultOut, "results directory: this command writes under OUT/"+command+"/ (empty: no files)")
	f.BoolVar(&o.noFiles, "no-files", false, "write nothing under --out")
	o.pcts.register(cmd, pctWhere)
	o.tl.register(cmd, window)
}

// refuse makes the command refuse flag (and, for --timeline, every --timeline-* flag)
// with the reason why, which also goes into the flag's help.
func (o *outputFlags) refuse(flag, why string) {
	o.refused = append(o.refused, refusal{flag, why})
	if fl := o.cmd.Flags().Lookup(flag); fl != nil {
		fl.Usage = "not for " + o.command + ": " + why
	}
}

// timelineFlagNames are the --timeline flags that --timeline's refusal covers.
var timelineFlagNames = []string{"timeline", "timeline-window", "timeline-tracks", "timeline-skip", "timeline-max"}

// parse checks the flags: the format, the percentiles and every refused flag given.
func (o *outputFlags) parse() error {
	var errs []error
	if o.format != "text" && o.format != "json" && o.format != "csv" {
		errs = append(errs, fmt.Errorf("--format %q: want text, json or csv", o.format))
	}
	if err := o.pcts.parse(); err != nil {
		errs = append(errs, err)
	}
	for _, r := range o.refused {
		names := []string{r.flag}
		if r.flag == "timeline" {
			names = timelineFlagNames
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

// dir returns the command's output directory, --out/COMMAND, or "" when it writes no files
// (--no-files or an empty --out).
func (o *outputFlags) dir() string {
	if o.noFiles || o.out == "" {
		return ""
	}
	return filepath.Join(o.out, o.command)
}

// status returns where status lines go: standard output with --format text, else standard
// error, so that standard output holds only the JSON or CSV.
func (o *outputFlags) status() io.Writer {
	if o.format == "text" {
		return o.cmd.OutOrStdout()
	}
	return o.cmd.ErrOrStderr()
}

// write prints the command's result on standard output in --format, with the function
// for that format (nil: that format prints nothing more): the one place the format is
// dispatched.
func (o *outputFlags) write(text, jsonDoc, csvTable func(io.Writer) error) error {
	f := text
	switch o.format {
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

// jsonWriter returns a function writing v as indented JSON, for write.
func jsonWriter(v any) func(io.Writer) error {
	return func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
}
