package figures

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
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

// ClaimJSON is one claim in summary.json and NAME.json: numbers, the kind and the verdict
// by name. Measured is null when the runs were not made or gave no value.
type ClaimJSON struct {
	ID         string   `json:"id"`
	Figure     string   `json:"figure"`
	Claim      string   `json:"claim"`
	Unit       string   `json:"unit"` // of paper, tolerance and measured: "%", "×", "ms", "apps"
	Paper      float64  `json:"paper"`
	Tolerance  float64  `json:"tolerance"`
	Kind       string   `json:"kind"` // "about": |measured − paper| ≤ tolerance; "at_least": measured ≥ paper − tolerance
	Measured   *float64 `json:"measured"`
	Verdict    string   `json:"verdict"` // Claim.Outcome
	NotEngaged string   `json:"not_engaged,omitempty"`
	Engaged    string   `json:"engaged,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// JSON is the claim as ClaimJSON.
func (c Claim) JSON() ClaimJSON {
	j := ClaimJSON{ID: c.ID, Figure: c.Figure, Claim: c.Text, Unit: c.Unit, Paper: c.Paper, Tolerance: c.Tolerance,
		Kind: c.Kind.String(), Verdict: c.Outcome(), NotEngaged: c.NotEngaged, Engaged: c.Engaged, Note: c.Note}
	if m := c.measured(); !math.IsNaN(m) {
		j.Measured = &m
	}
	return j
}

// TallyJSON counts the claims per verdict.
type TallyJSON struct {
	Reproduced    int `json:"reproduced"`
	NotReproduced int `json:"not_reproduced"`
	NotEngaged    int `json:"not_engaged"`
	Tie           int `json:"tie"`
	NotRun        int `json:"not_run"`
}

// FigureJSON is a figure's numeric table in the --format json document.
type FigureJSON struct {
	Name  string   `json:"name"`
	Table NumTable `json:"table"`
}

// Document is summary.json: every claim and the tally; on standard output (--format json)
// also the platform preset, the simulated time per run and each figure's numeric table.
type Document struct {
	Preset    string       `json:"preset,omitempty"`
	DurationS *float64     `json:"duration_s,omitempty"`
	Claims    []ClaimJSON  `json:"claims"`
	Tally     TallyJSON    `json:"tally"`
	Figures   []FigureJSON `json:"figures,omitempty"`
}

// SummaryDoc is summary.json's document for figs.
func SummaryDoc(figs []*Figure) Document {
	d := Document{Claims: []ClaimJSON{}}
	for _, f := range figs {
		for _, c := range f.Claims {
			d.Claims = append(d.Claims, c.JSON())
			switch c.Outcome() {
			case "reproduced":
				d.Tally.Reproduced++
			case "not reproduced":
				d.Tally.NotReproduced++
			case "not engaged":
				d.Tally.NotEngaged++
			case "tie":
				d.Tally.Tie++
			default:
				d.Tally.NotRun++
			}
		}
	}
	return d
}

// FullDoc is the --format json document: SummaryDoc with the preset, the simulated time
// per run and the figures' numeric tables.
func FullDoc(figs []*Figure, preset string, duration sim.Time) Document {
	d := SummaryDoc(figs)
	d.Preset = preset
	secs := float64(duration) / float64(sim.Second)
	d.DurationS = &secs
	for _, f := range figs {
		d.Figures = append(d.Figures, FigureJSON{Name: f.Name, Table: f.d.numTable()})
	}
	return d
}

// summaryTextCols are summary.csv's text columns; the others hold numbers (measured empty
// when not run).
var summaryTextCols = map[string]bool{"id": true, "figure": true, "claim": true, "unit": true, "kind": true,
	"verdict": true, "not_engaged": true, "engaged": true, "note": true}

// SummaryCSV is summary.csv: one row a claim, its numbers and its verdict by name.
func SummaryCSV(figs []*Figure) *report.Table {
	t := &report.Table{Title: "FastDrain claims: paper vs measured",
		Header: []string{"id", "figure", "claim", "unit", "paper", "tolerance", "kind", "measured", "verdict", "not_engaged", "engaged", "note"}}
	for _, f := range figs {
		for _, c := range f.Claims {
			t.Append(c.ID, c.Figure, c.Text, c.Unit, num(c.Paper), num(c.Tolerance), c.Kind.String(), num(c.measured()),
				c.Outcome(), c.NotEngaged, c.Engaged, c.Note)
		}
	}
	return t
}

// WriteDir writes, for each figure, NAME.csv (its numeric table), NAME.json (the numeric
// table, the text table and the claims) and NAME.png / NAME.svg, and the claims as
// summary.csv and summary.json (SummaryDoc), into dir.
func WriteDir(dir string, figs []*Figure) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		if err := f.Numbers.SaveCSV(filepath.Join(dir, f.Name+".csv")); err != nil {
			return err
		}
		claims := []ClaimJSON{}
		for _, c := range f.Claims {
			claims = append(claims, c.JSON())
		}
		doc := struct {
			Table     NumTable      `json:"table"`
			TextTable *report.Table `json:"text_table"`
			Claims    []ClaimJSON   `json:"claims"`
		}{f.d.numTable(), f.Table, claims}
		if err := writeJSON(filepath.Join(dir, f.Name+".json"), doc); err != nil {
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
	if err := SummaryCSV(figs).SaveCSV(filepath.Join(dir, "summary.csv")); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "summary.json"), SummaryDoc(figs))
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
