package figures

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TextReport returns a function writing the figures as the command's text output: a
// heading naming the platform and the simulated time per experiment (and the quick
// preset's note), the figures (WriteText), and where the results went (dir; empty: nowhere).
func TextReport(figs []*Figure, preset string, dur sim.Time, dir string) func(io.Writer) error {
	return func(out io.Writer) error {
		fmt.Fprintf(out, "FastDrain paper reproduction on %s, %s simulated per experiment\n", preset, dur)
		if preset == QuickPreset {
			fmt.Fprintln(out, QuickNote)
		}
		fmt.Fprintln(out)
		if err := WriteText(out, figs); err != nil {
			return err
		}
		return writtenTo(out, dir)
	}
}

// SaveModern writes the modern section's table as modern.csv in dir; an empty dir writes
// nothing.
func SaveModern(t *report.Table, dir string) error {
	if dir == "" {
		return nil
	}
	return t.SaveCSV(filepath.Join(dir, Modern+".csv"))
}

// ModernText returns a function writing the modern section as text: a heading naming the
// platform and the simulated time per run, the table, and where the results went.
func ModernText(t *report.Table, preset string, dur sim.Time, dir string) func(io.Writer) error {
	return func(out io.Writer) error {
		fmt.Fprintf(out, "FastDrain on a modern drive (%s), %s simulated per run\n\n", preset, dur)
		if err := t.WriteText(out); err != nil {
			return err
		}
		return writtenTo(out, dir)
	}
}

// writtenTo says where the results went, if anywhere.
func writtenTo(out io.Writer, dir string) error {
	if dir != "" {
		_, err := fmt.Fprintf(out, "\nresults written to %s\n", dir)
		return err
	}
	return nil
}
