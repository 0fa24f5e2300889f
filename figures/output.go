package figures

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
)

// Summary is the table of every claim: the paper's value, the measured one, the verdict.
func Summary(figs []*Figure) *report.Table {
	t := &report.Table{Title: "FastDrain claims: paper vs measured",
		Header: []string{"fig.", "claim", "paper", "measured", "verdict"}}
	for _, f := range figs {
		for _, c := range f.Claims {
			v := c.Verdict()
			if c.Engaged != "" && c.NotEngaged == "" && !c.Missing {
				v += " (" + c.Engaged + ")"
			}
			t.Append(c.Figure, c.Text, c.PaperText(), c.MeasuredText(), v)
		}
	}
	return t
}

// WriteText writes each figure's table and then the summary.
func WriteText(w io.Writer, figs []*Figure) error {
	for _, f := range figs {
		if err := f.Table.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if err := Summary(figs).WriteText(w); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "verdicts:", Tally(figs))
	return err
}

// WriteDir writes, for each figure, NAME.csv, NAME.json (table and claims) and NAME.png /
// NAME.svg, and the summary as summary.csv and summary.json, into dir.
func WriteDir(dir string, figs []*Figure) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		if err := f.Table.SaveCSV(filepath.Join(dir, f.Name+".csv")); err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(dir, f.Name+".json"), map[string]any{"table": f.Table, "claims": f.Claims}); err != nil {
			return err
		}
		if f.plot != nil {
			for _, ext := range []string{".png", ".svg"} {
				if err := f.plot(dir, ext); err != nil {
					return fmt.Errorf("%s: %w", f.Name, err)
				}
			}
		}
	}
	var claims []Claim
	for _, f := range figs {
		claims = append(claims, f.Claims...)
	}
	if err := Summary(figs).SaveCSV(filepath.Join(dir, "summary.csv")); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "summary.json"), claims)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
