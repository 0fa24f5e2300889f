package figures

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The fidelity report is what docs/fidelity.md shows of a figures run (issue 31 item 8):
// the scale, every claim with its paper value, band, measured value per host, its seeds and
// its value at the shorter duration, the verdicts and tallies, the engagement share of
// every mechanism each claim needs, and each figure's table with one row block per host.
// Set.WriteDir writes it as ReportFile beside the run's other results; the page holds it
// between DocBegin and DocEnd, and bench/fidelity.sh checks the two byte for byte (or
// writes the page's block from a run).

// ReportFile is the report's file name in a figures results directory.
const ReportFile = "fidelity.md"

// DocBegin and DocEnd are the lines that enclose the report in docs/fidelity.md.
const (
	DocBegin = "<!-- figures --full: begin (generated: bench/fidelity.sh --update; do not edit by hand) -->"
	DocEnd   = "<!-- figures --full: end -->"
)

// Markdown renders the report.
func (r *Report) Markdown() string {
	var b strings.Builder
	r.writeScale(&b)
	claims := make([]Claim, len(r.Doc.Claims))
	for i, j := range r.Doc.Claims {
		claims[i] = claimOf(j, r.Duration)
	}
	r.writeClaims(&b, claims)
	r.writeEngagement(&b, claims)
	r.writeFigures(&b)
	return b.String()
}

// writeScale writes the run's scale: what ran, how long, on how many seeds and hosts, and
// how many simulations.
func (r *Report) writeScale(b *strings.Builder) {
	fmt.Fprintf(b, "**Scale.** Preset `%s`", r.Preset)
	if len(r.Sets) > 0 {
		fmt.Fprintf(b, " with `--set %s`", strings.Join(r.Sets, ","))
	}
	fmt.Fprintf(b, ", %v simulated per run", r.Duration)
	if r.Seeds > 1 {
		fmt.Fprintf(b, ", every claim's runs on %d seeds (the default and the next %d)", r.Seeds, r.Seeds-1)
	} else {
		b.WriteString(", the default seed (the never-draining Oracle on three)")
	}
	if r.Short > 0 {
		fmt.Fprintf(b, " and again at %v on the default seed", r.Short)
	}
	fmt.Fprintf(b, "; host profiles %s (the first is the headline); %d runs.\n\n", strings.Join(r.Hosts, ", "), r.Runs)
}

// writeClaims writes the claims table (per host: the default seed's value, the seeds in
// band, the shorter duration's value and verdict, the verdict), each claim's details below
// it and the tallies.
func (r *Report) writeClaims(b *strings.Builder, claims []Claim) {
	fmt.Fprintf(b, "### Every claim, %s\n\n", hostsPhrase(r.Hosts))
	header := []string{"id", "claim", "paper", "band"}
	for _, h := range r.Hosts {
		header = append(header, h+" host", "seeds in band")
		if r.Short > 0 {
			header = append(header, "at "+r.Short.String())
		}
		header = append(header, "verdict")
	}
	t := report.Table{Header: header}
	for _, c := range claims {
		row := []string{c.ID, c.Text, c.PaperText(), c.BandText()}
		for _, x := range append([]Claim{c}, c.Hosts...) {
			seeds := "-"
			if len(x.Seeds) > 1 {
				seeds = fmt.Sprintf("%d of %d", x.SeedsOK, len(x.Seeds))
			}
			row = append(row, x.MeasuredText(), seeds)
			if r.Short > 0 {
				short := "-"
				if x.Short != nil {
					short = x.Short.MeasuredText() + ", " + x.Short.Outcome()
				}
				row = append(row, short)
			}
			row = append(row, x.Outcome())
		}
		t.Append(row...)
	}
	writeMarkdownTable(b, t)
	b.WriteString("\n")
	for _, c := range claims {
		for _, x := range append([]Claim{c}, c.Hosts...) {
			var parts []string
			for _, p := range []string{x.NotEngaged, x.SeedText(), x.ShortText(r.Duration), x.Note} {
				if p != "" {
					parts = append(parts, p)
				}
			}
			if len(parts) > 0 {
				fmt.Fprintf(b, "- `%s [%s]`: %s\n", x.ID, x.Host, strings.Join(parts, "; "))
			}
		}
	}
	fmt.Fprintf(b, "\nVerdicts on the %s host (the headline): %s.\n", r.Hosts[0], r.Doc.Tally)
	for _, h := range r.Doc.HostTallies {
		fmt.Fprintf(b, "Verdicts on the %s host: %s.\n", h.Host, h.Tally)
	}
	b.WriteString("\n")
}

// writeEngagement writes, for every claim, each mechanism it needs: the lowest share of the
// run it was in force in over the runs the claim is computed from, and in how many of them
// it reached EngagedShare (the engagement table's default-seed runs at the full duration).
func (r *Report) writeEngagement(b *strings.Builder, claims []Claim) {
	var eng *ReportFigure
	for i := range r.Figures {
		if r.Figures[i].Name == "engagement" {
			eng = &r.Figures[i]
		}
	}
	if eng == nil {
		return
	}
	fmt.Fprintf(b, "### Engagement per claim (needed: in force ≥ %s of the run in every run)\n\n", pct(EngagedShare))
	fmt.Fprintf(b, "The lowest share of the run the mechanism was in force in, over the default seed's %v runs the claim is computed from, and how many of them reached %s.\n\n", r.Duration, pct(EngagedShare))
	writeMarkdownTable(b, claimEngagement(claims, r.Hosts, eng.Nums))
	b.WriteString("\n")
}

// claimEngagement is the table of every mechanism each claim needs (claimNeeds), with its
// lowest share and runs engaged per host, from the hosts' engagement tables (nums, in hosts
// order).
func claimEngagement(claims []Claim, hosts []string, nums []NumTable) report.Table {
	header := []string{"claim", "variant: mechanism", "runs"}
	for _, h := range hosts {
		header = append(header, h+" host")
	}
	t := report.Table{Title: fmt.Sprintf("Engagement per claim: lowest share of the run in force, and runs at ≥ %s", pct(EngagedShare)), Header: header}
	for _, c := range claims {
		for _, n := range claimNeeds[c.ID] {
			scope := "every app"
			if n.app != "" {
				scope = n.app
			}
			row := []string{c.ID, n.variant + ": " + n.m.String(), scope}
			for i := range hosts {
				row = append(row, engagedCell(nums[i], n))
			}
			t.Append(row...)
		}
	}
	return t
}

// engagedCell is need n's lowest share in the engagement table nt and how many of its runs
// reached EngagedShare: "3.3 % (6 of 6)"; "-" when none ran.
func engagedCell(nt NumTable, n need) string {
	col := -1
	for j, h := range nt.Header {
		if h == engagementColumn(n.variant, n.m) {
			col = j
		}
	}
	lo, ran, ok := math.Inf(1), 0, 0
	for _, row := range nt.Rows {
		if col < 0 || len(row) <= col || n.app != "" && row[0] != n.app {
			continue
		}
		v, isNum := row[col].(float64)
		if !isNum {
			continue
		}
		ran++
		lo = min(lo, v)
		if v >= EngagedShare {
			ok++
		}
	}
	if ran == 0 {
		return "-"
	}
	return fmt.Sprintf("%s (%d of %d)", pct(lo), ok, ran)
}

// writeFigures writes each figure's table, the hosts' rows one block after the other with
// the host in the first column.
func (r *Report) writeFigures(b *strings.Builder) {
	fmt.Fprintf(b, "### The figures, %s\n", hostsPhrase(r.Hosts))
	for _, f := range r.Figures {
		title := f.Text[0].Title
		if i := strings.LastIndex(title, " ["); i > 0 {
			title = title[:i] // the host, now a column
		}
		t := report.Table{Header: append([]string{"host"}, f.Text[0].Header...)}
		for i, x := range f.Text {
			for _, row := range x.Rows {
				t.Append(append([]string{r.Hosts[i]}, row...)...)
			}
		}
		fmt.Fprintf(b, "\n**%s**\n\n", title)
		writeMarkdownTable(b, t)
	}
	b.WriteString("\n") // a blank line before the page's end marker
}

// hostsPhrase is "both hosts" for two, "the paper host" for one, "every host" otherwise.
func hostsPhrase(hosts []string) string {
	switch len(hosts) {
	case 1:
		return "the " + hosts[0] + " host"
	case 2:
		return "both hosts"
	}
	return "every host"
}

// writeMarkdownTable writes t as a Markdown table (a "|" in a cell escaped).
func writeMarkdownTable(b *strings.Builder, t report.Table) {
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	line(t.Header)
	b.WriteString(strings.Repeat("|---", len(t.Header)) + "|\n")
	for _, row := range t.Rows {
		line(row)
	}
}

// String is the tally as the text output prints it.
func (t TallyJSON) String() string {
	return fmt.Sprintf("%d reproduced, %d not reproduced, %d not engaged, %d ties, %d not run", t.Reproduced, t.NotReproduced, t.NotEngaged, t.Tie, t.NotRun)
}

// DocBlock returns the report held in doc between DocBegin and DocEnd (the lines after
// DocBegin's up to DocEnd's), or an error naming what is missing.
func DocBlock(doc []byte) ([]byte, error) {
	begin, end, err := docMarkers(doc)
	if err != nil {
		return nil, err
	}
	return doc[begin:end], nil
}

// ReplaceDocBlock returns doc with the report between DocBegin and DocEnd replaced by block.
func ReplaceDocBlock(doc, block []byte) ([]byte, error) {
	begin, end, err := docMarkers(doc)
	if err != nil {
		return nil, err
	}
	out := append(append(append([]byte{}, doc[:begin]...), block...), doc[end:]...)
	return out, nil
}

// docMarkers returns the offsets of the block: just after DocBegin's line, and the start of
// DocEnd's line.
func docMarkers(doc []byte) (begin, end int, err error) {
	b := bytes.Index(doc, []byte(DocBegin+"\n"))
	e := bytes.Index(doc, []byte("\n"+DocEnd+"\n"))
	switch {
	case b < 0:
		return 0, 0, fmt.Errorf("no line %q", DocBegin)
	case e < 0:
		return 0, 0, fmt.Errorf("no line %q", DocEnd)
	case bytes.Count(doc, []byte(DocBegin)) > 1 || bytes.Count(doc, []byte(DocEnd)) > 1:
		return 0, 0, errors.New("the report's markers appear more than once")
	case e < b:
		return 0, 0, fmt.Errorf("%q comes before %q", DocEnd, DocBegin)
	}
	return b + len(DocBegin) + 1, e + 1, nil
}

// WriteDir writes figs' results into dir (WriteDir), with the run's preset, duration and
// overrides in summary.json, and the fidelity report rendered from those files
// (LoadReport) as ReportFile. An empty dir writes nothing.
func (s *Set) WriteDir(dir string, figs []*Figure) error {
	if dir == "" {
		return nil
	}
	secs := float64(s.Options.Duration) / float64(sim.Second)
	err := writeDir(dir, figs, func(d *Document) {
		d.Preset, d.DurationS, d.Sets = s.Options.Preset, &secs, s.Options.Sets
	})
	if err != nil {
		return err
	}
	r, err := LoadReport(dir)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ReportFile), []byte(r.Markdown()), 0o644)
}
