package figures

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Summary is the table of every claim: the paper's value and band, then per host profile
// the measured value and the verdict (the headline host's first).
func Summary(figs []*Figure) *report.Table {
	t := &report.Table{Title: "FastDrain claims: paper vs measured", Header: []string{"fig.", "claim", "paper", "band"}}
	hosts := claimHosts(figs)
	for _, h := range hosts {
		if h == "" {
			t.Header = append(t.Header, "measured", "verdict")
		} else {
			t.Header = append(t.Header, h+" host", "verdict")
		}
	}
	for _, f := range figs {
		for _, c := range f.Claims {
			row := []string{c.Figure, c.Text, c.PaperText(), c.BandText()}
			for _, x := range append([]Claim{c}, c.Hosts...) {
				row = append(row, x.MeasuredText(), x.verdictCell())
			}
			t.Append(row...)
		}
	}
	return t
}

// claimHosts are the hosts of the first claim and its other hosts ([""] for a one-host set).
func claimHosts(figs []*Figure) []string {
	for _, f := range figs {
		if len(f.Claims) == 0 {
			continue
		}
		c := f.Claims[0]
		hs := []string{c.Host}
		for _, x := range c.Hosts {
			hs = append(hs, x.Host)
		}
		return hs
	}
	return []string{""}
}

// verdictCell is the verdict, with what fell short when not engaged.
func (c Claim) verdictCell() string { return c.Verdict() }

// details lists, per claim and host, what the summary's cells leave out: the values on every
// seed, the shorter duration, the mechanisms engaged in some apps only, the note.
func details(figs []*Figure, full sim.Time) []string {
	var out []string
	for _, f := range figs {
		for _, c := range f.Claims {
			for _, x := range append([]Claim{c}, c.Hosts...) {
				var parts []string
				for _, p := range []string{x.SeedText(), x.ShortText(full), x.Note} {
					if p != "" {
						parts = append(parts, p)
					}
				}
				if len(parts) == 0 {
					continue
				}
				id := x.ID
				if x.Host != "" {
					id += " [" + x.Host + "]"
				}
				out = append(out, id+": "+strings.Join(parts, "; "))
			}
		}
	}
	return out
}

// WriteText writes each figure's table (and its other hosts' tables), the summary, what the
// summary leaves out per claim, and the tally: the headline host's, then the others'.
func WriteText(w io.Writer, figs []*Figure) error {
	var full sim.Time
	for _, f := range figs {
		for _, g := range append([]*Figure{f}, f.Others...) {
			if err := g.Table.WriteText(w); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		for _, c := range f.Claims {
			if c.Short != nil {
				full = c.fullDuration
			}
		}
	}
	if err := Summary(figs).WriteText(w); err != nil {
		return err
	}
	for _, d := range details(figs, full) {
		fmt.Fprintln(w, "  "+d)
	}
	hosts := claimHosts(figs)
	if t, ok := engagementText(figs, hosts); ok {
		fmt.Fprintln(w)
		if err := t.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if len(hosts) == 1 && hosts[0] == "" {
		_, err := fmt.Fprintln(w, "verdicts:", Tally(figs))
		return err
	}
	fmt.Fprintf(w, "verdicts on the %s host (the headline): %s\n", hosts[0], Tally(figs))
	for i, h := range hosts[1:] {
		fmt.Fprintf(w, "verdicts on the %s host: %s\n", h, Tally(hostFigs(figs, i)))
	}
	return nil
}

// engagementText is the per-claim engagement table (claimEngagement) of figs, if the
// engagement table was made.
func engagementText(figs []*Figure, hosts []string) (*report.Table, bool) {
	var claims []Claim
	var nums []NumTable
	for _, f := range figs {
		claims = append(claims, f.Claims...)
		if f.Name == "engagement" {
			for _, g := range append([]*Figure{f}, f.Others...) {
				nums = append(nums, g.d.numTable())
			}
		}
	}
	if len(nums) != len(hosts) {
		return nil, false
	}
	t := claimEngagement(claims, hosts, nums)
	return &t, true
}

// hostFigs returns the figures with each claim replaced by its i-th other host's.
func hostFigs(figs []*Figure, i int) []*Figure {
	var out []*Figure
	for _, f := range figs {
		g := &Figure{Name: f.Name}
		for _, c := range f.Claims {
			if i < len(c.Hosts) {
				g.Claims = append(g.Claims, c.Hosts[i])
			}
		}
		out = append(out, g)
	}
	return out
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
	Note       string   `json:"note,omitempty"`
	Band       string   `json:"band,omitempty"` // why the tolerance is what it is
	Host       string   `json:"host,omitempty"` // the host profile measured on
	// Seeds are the measured values on every seed (default first), SeedsOK how many were in
	// the band with the mechanism engaged.
	Seeds   []*float64 `json:"seeds,omitempty"`
	SeedsOK int        `json:"seeds_ok,omitempty"`
	// ShortS and ShortMeasured are the shorter duration and the value there; ShortVerdict
	// the verdict there on the default seed.
	ShortS        *float64 `json:"short_s,omitempty"`
	ShortMeasured *float64 `json:"short_measured,omitempty"`
	ShortVerdict  string   `json:"short_verdict,omitempty"`
	// Hosts are the same claim on the other host profiles.
	Hosts []ClaimJSON `json:"hosts,omitempty"`
}

// JSON is the claim as ClaimJSON.
func (c Claim) JSON() ClaimJSON {
	j := ClaimJSON{ID: c.ID, Figure: c.Figure, Claim: c.Text, Unit: c.Unit, Paper: c.Paper, Tolerance: c.Tolerance,
		Kind: c.Kind.String(), Verdict: c.Outcome(), NotEngaged: c.NotEngaged, Note: c.Note}
	if m := c.measured(); !math.IsNaN(m) {
		j.Measured = &m
	}
	j.Band, j.Host, j.SeedsOK = c.Band, c.Host, c.SeedsOK
	for _, v := range c.Seeds {
		if math.IsNaN(v) {
			j.Seeds = append(j.Seeds, nil)
		} else {
			j.Seeds = append(j.Seeds, &v)
		}
	}
	if c.Short != nil {
		secs := float64(c.ShortAt) / float64(sim.Second)
		j.ShortS, j.ShortVerdict = &secs, c.Short.Outcome()
		if m := c.Short.measured(); !math.IsNaN(m) {
			j.ShortMeasured = &m
		}
	}
	for _, x := range c.Hosts {
		j.Hosts = append(j.Hosts, x.JSON())
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

// HostTallyJSON is one host profile's tally.
type HostTallyJSON struct {
	Host  string    `json:"host"`
	Tally TallyJSON `json:"tally"`
}

// FigureJSON is a figure's numeric table in the --format json document.
type FigureJSON struct {
	Name  string   `json:"name"`
	Table NumTable `json:"table"`
}

// Document is summary.json: every claim and the tally; on standard output (--format json)
// also the platform preset, the simulated time per run and each figure's numeric table.
type Document struct {
	Preset    string      `json:"preset,omitempty"`
	DurationS *float64    `json:"duration_s,omitempty"`
	Claims    []ClaimJSON `json:"claims"`
	// Sets are the run's --set overrides (summary.json; none when empty).
	Sets  []string  `json:"sets,omitempty"`
	Tally TallyJSON `json:"tally"` // the headline host's
	// HostTallies are the other host profiles' tallies, in order.
	HostTallies []HostTallyJSON `json:"host_tallies,omitempty"`
	Figures     []FigureJSON    `json:"figures,omitempty"`
}

// SummaryDoc is summary.json's document for figs.
func SummaryDoc(figs []*Figure) Document {
	d := Document{Claims: []ClaimJSON{}, Tally: tally(figs)}
	for _, f := range figs {
		for _, c := range f.Claims {
			d.Claims = append(d.Claims, c.JSON())
		}
	}
	if hosts := claimHosts(figs); len(hosts) > 1 {
		for i, h := range hosts[1:] {
			d.HostTallies = append(d.HostTallies, HostTallyJSON{Host: h, Tally: tally(hostFigs(figs, i))})
		}
	}
	return d
}

// tally counts the claims of figs per verdict.
func tally(figs []*Figure) TallyJSON {
	var t TallyJSON
	for _, f := range figs {
		for _, c := range f.Claims {
			switch c.Outcome() {
			case "reproduced":
				t.Reproduced++
			case "not reproduced":
				t.NotReproduced++
			case "not engaged":
				t.NotEngaged++
			case "tie":
				t.Tie++
			default:
				t.NotRun++
			}
		}
	}
	return t
}

// FullDoc is the --format json document: SummaryDoc with the preset, the simulated time
// per run and the figures' numeric tables.
func FullDoc(figs []*Figure, preset string, duration sim.Time) Document {
	d := SummaryDoc(figs)
	d.Preset = preset
	secs := float64(duration) / float64(sim.Second)
	d.DurationS = &secs
	for _, f := range figs {
		for _, g := range append([]*Figure{f}, f.Others...) {
			d.Figures = append(d.Figures, FigureJSON{Name: g.Name, Table: g.d.numTable()})
		}
	}
	return d
}

// summaryTextCols are summary.csv's text columns; the others hold numbers (measured empty
// when not run).
var summaryTextCols = map[string]bool{"id": true, "host": true, "figure": true, "claim": true, "unit": true, "kind": true,
	"verdict": true, "not_engaged": true, "note": true, "band": true, "seeds": true, "short_verdict": true}

// SummaryCSV is summary.csv: one row a claim, its numbers and its verdict by name.
func SummaryCSV(figs []*Figure) *report.Table {
	t := &report.Table{Title: "FastDrain claims: paper vs measured",
		Header: []string{"id", "host", "figure", "claim", "unit", "paper", "tolerance", "kind", "measured", "verdict", "not_engaged", "note",
			"band", "seeds", "seeds_ok", "short_measured", "short_verdict"}}
	for _, f := range figs {
		for _, c := range f.Claims {
			for _, x := range append([]Claim{c}, c.Hosts...) {
				var seeds []string
				for _, v := range x.Seeds {
					seeds = append(seeds, num(v))
				}
				sm, sv := "", ""
				if x.Short != nil {
					sm, sv = num(x.Short.measured()), x.Short.Outcome()
				}
				t.Append(x.ID, x.Host, x.Figure, x.Text, x.Unit, num(x.Paper), num(x.Tolerance), x.Kind.String(), num(x.measured()),
					x.Outcome(), x.NotEngaged, x.Note, x.Band, strings.Join(seeds, " "), fmt.Sprint(x.SeedsOK), sm, sv)
			}
		}
	}
	return t
}

// WriteDir writes, for each figure, NAME.csv (its numeric table), NAME.json (the numeric
// table, the text table and the claims) and NAME.png / NAME.svg, and the claims as
// summary.csv and summary.json (SummaryDoc), into dir. An empty dir writes nothing.
func WriteDir(dir string, figs []*Figure) error { return writeDir(dir, figs, nil) }

// writeDir is WriteDir with meta, if not nil, completing summary.json's document.
func writeDir(dir string, figs []*Figure, meta func(*Document)) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var all []*Figure
	for _, f := range figs {
		all = append(append(all, f), f.Others...)
	}
	for _, f := range all {
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
	doc := SummaryDoc(figs)
	if meta != nil {
		meta(&doc)
	}
	return writeJSON(filepath.Join(dir, "summary.json"), doc)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
