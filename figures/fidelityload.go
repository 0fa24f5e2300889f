package figures

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Report is a finished figures run as its results directory holds it (WriteDir): the
// claims and tallies of summary.json and each figure's tables from NAME.json, per host
// profile. The fidelity report (Markdown, fidelitymd.go) is rendered from it alone, so a
// run's directory is all a report needs: the one written beside a run's results, and one
// re-rendered later from a directory a run left (LoadReport), are the same bytes.
type Report struct {
	Doc      Document // summary.json
	Preset   string
	Duration sim.Time
	Sets     []string // the run's --set overrides
	Hosts    []string // the host profiles, the headline's first
	Seeds    int      // the seeds every claim's runs were made on
	Short    sim.Time // the shorter duration the claims were also made at (0 = none)
	Runs     int      // simulations the run made (RunCount of its options)
	Figures  []ReportFigure
}

// ReportFigure is one figure's tables, one per host profile in Report.Hosts order.
type ReportFigure struct {
	Name string
	Text []report.Table
	Nums []NumTable
}

// figureFile is NAME.json as WriteDir writes it (the parts a report reads).
type figureFile struct {
	Table     NumTable     `json:"table"`
	TextTable report.Table `json:"text_table"`
}

// reportOrder is the order the report shows the figures in: the paper's, with the
// engagement table after Fig. 5 (as the text output).
var reportOrder = []string{"fig1a", "fig1b", "fig2b", "fig3a", "fig3b", "fig5", "engagement", "fig6a", "fig6b", "sensitivity"}

// LoadReport reads the report of the figures run whose results are in dir (WriteDir's files:
// summary.json and NAME.json, NAME-HOST.json per figure). The preset, the duration and the
// overrides are summary.json's; a directory written before they were recorded there (main
// before issue 31's report) is named for them, PRESET-DURATION[-N] (Set.RunDir's name), and
// has no overrides. The run count is RunCount of the options so read back.
func LoadReport(dir string) (*Report, error) {
	var r Report
	if err := readJSON(filepath.Join(dir, "summary.json"), &r.Doc); err != nil {
		return nil, err
	}
	if len(r.Doc.Claims) == 0 {
		return nil, fmt.Errorf("%s: no claims", filepath.Join(dir, "summary.json"))
	}
	c := r.Doc.Claims[0]
	r.Hosts = []string{c.Host}
	for _, h := range c.Hosts {
		r.Hosts = append(r.Hosts, h.Host)
	}
	r.Seeds = max(1, len(c.Seeds))
	if c.ShortS != nil {
		r.Short = seconds(*c.ShortS)
	}
	r.Preset, r.Sets = r.Doc.Preset, r.Doc.Sets
	if r.Doc.DurationS != nil {
		r.Duration = seconds(*r.Doc.DurationS)
	} else {
		var err error
		if r.Preset, r.Duration, err = presetDuration(filepath.Base(dir)); err != nil {
			return nil, fmt.Errorf("%s: summary.json names no preset and duration, and %w", dir, err)
		}
	}
	var only []string
	for _, name := range reportOrder {
		f := ReportFigure{Name: name}
		for i, h := range r.Hosts {
			file := name
			if i > 0 {
				file += "-" + h
			}
			var ff figureFile
			path := filepath.Join(dir, file+".json")
			if _, err := os.Stat(path); i == 0 && os.IsNotExist(err) {
				break
			}
			if err := readJSON(path, &ff); err != nil {
				return nil, err
			}
			f.Text, f.Nums = append(f.Text, ff.TextTable), append(f.Nums, ff.Table)
		}
		if len(f.Text) > 0 {
			r.Figures = append(r.Figures, f)
			if name != "engagement" {
				only = append(only, name)
			}
		}
	}
	n, err := RunCount(Options{Preset: r.Preset, Sets: r.Sets, Duration: r.Duration, Only: only, Hosts: r.Hosts, Seeds: r.Seeds, Short: r.Short})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	r.Runs = n
	return &r, nil
}

// seconds converts a JSON duration in seconds to simulated time, rounded to the picosecond.
func seconds(s float64) sim.Time { return sim.Time(math.Round(s * float64(sim.Second))) }

// presetDuration splits a figures results directory's name, PRESET-DURATION or
// PRESET-DURATION-N, into the preset and the duration.
func presetDuration(name string) (string, sim.Time, error) {
	base := name
	if i := strings.LastIndex(base, "-"); i > 0 {
		if _, err := strconv.Atoi(base[i+1:]); err == nil {
			base = base[:i]
		}
	}
	i := strings.LastIndex(base, "-")
	if i <= 0 {
		return "", 0, fmt.Errorf("its name %q is not PRESET-DURATION", name)
	}
	d, err := sim.ParseTime(base[i+1:])
	if err != nil {
		return "", 0, fmt.Errorf("its name %q is not PRESET-DURATION: %w", name, err)
	}
	return base[:i], d, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// claimOf is the claim a ClaimJSON records, as far as a report shows it: the values,
// the band, the seeds, the shorter duration's value and verdict, the other hosts; the
// verdict recorded (not run, tie, not engaged) is kept as the claim's state, so that
// Outcome gives it back.
func claimOf(j ClaimJSON, full sim.Time) Claim {
	c := Claim{ID: j.ID, Figure: j.Figure, Text: j.Claim, Unit: j.Unit, Paper: j.Paper, Tolerance: j.Tolerance,
		Kind: kindOf(j.Kind), NotEngaged: j.NotEngaged, Note: j.Note, Band: j.Band, Host: j.Host, SeedsOK: j.SeedsOK,
		Missing: j.Verdict == "not run", Tie: j.Verdict == "tie", Measured: value(j.Measured)}
	for _, v := range j.Seeds {
		c.Seeds = append(c.Seeds, value(v))
	}
	if j.ShortS != nil {
		sh := c
		sh.Seeds, sh.SeedsOK, sh.Hosts = nil, 0, nil
		sh.Measured, sh.Missing, sh.Tie, sh.NotEngaged = value(j.ShortMeasured), j.ShortVerdict == "not run", j.ShortVerdict == "tie", ""
		if j.ShortVerdict == "not engaged" {
			sh.NotEngaged = "not engaged"
		}
		c.Short, c.ShortAt, c.fullDuration = &sh, seconds(*j.ShortS), full
	}
	for _, h := range j.Hosts {
		c.Hosts = append(c.Hosts, claimOf(h, full))
	}
	return c
}

// value is a JSON number, NaN for null.
func value(p *float64) float64 {
	if p == nil {
		return nan
	}
	return *p
}

// kindOf is Kind.String's inverse.
func kindOf(s string) Kind {
	switch s {
	case "at_least":
		return AtLeast
	case "at_most":
		return AtMost
	}
	return About
}
