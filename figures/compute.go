package figures

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

var nan = math.NaN()

// Figure is one reproduced figure: its data table, its claims and how to plot it.
type Figure struct {
	Name  string
	Title string
	Table *report.Table // the text table
	// Numbers is Table's numeric twin (NAME.csv, NAME.json): the same values as numbers
	// with the unit in the column name.
	Numbers *report.Table
	Claims  []Claim
	// Others are the same figure on the other host profiles (Name "NAME-HOST").
	Others []*Figure
	d      *dual
	plot   func(dir, ext string) error
}

// avg is the mean of the values that are not NaN (NaN if none).
func avg(vs []float64) float64 {
	s, n := 0.0, 0
	for _, v := range vs {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	if n == 0 {
		return nan
	}
	return s / float64(n)
}

// reduction is the p99 reduction of b relative to a, in percent.
func reduction(a, b float64) float64 { return 100 * (1 - b/a) }

func f2(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.2f", v)
}

func dur(ps float64) string {
	if math.IsNaN(ps) {
		return "-"
	}
	return report.Duration(sim.Time(int64(ps)))
}

// Figures computes the selected figures (Options.Only; all but the sensitivity study when
// empty), in the paper's order, on the headline host (the first of Options.Hosts). Each
// figure carries the same figure on the other hosts (Figure.Others), and each claim the same
// claim on them (Claim.Hosts), its values on the other seeds and its value at the short
// duration when those were run.
func (s *Set) Figures() []*Figure {
	if len(s.hosts) == 0 {
		return s.hostFigures("")
	}
	var main []*Figure
	for i, h := range s.hosts {
		figs := s.onHost(h).hostFigures(h)
		if len(s.hosts) > 1 {
			for _, f := range figs {
				f.Title += " [" + h + " host]"
				f.Table.Title, f.Numbers.Title = f.Title, f.Title
			}
		}
		if i == 0 {
			main = figs
			continue
		}
		for _, g := range figs {
			for _, f := range main {
				if f.Name != g.Name {
					continue
				}
				g.Name = f.Name + "-" + h
				f.Others = append(f.Others, g)
				for j := range f.Claims {
					if j < len(g.Claims) && g.Claims[j].ID == f.Claims[j].ID {
						f.Claims[j].Hosts = append(f.Claims[j].Hosts, g.Claims[j])
					}
				}
			}
		}
	}
	return main
}

// hostFigures computes the figures of a one-host set (a host's view) and completes each
// claim with its host, its other seeds' values and its value at the short duration.
func (s *Set) hostFigures(host string) []*Figure {
	figs := s.figures()
	var seedClaims []map[string]Claim
	if s.Options.Seeds > 1 {
		for i := 0; i+1 < s.Options.Seeds; i++ {
			seedClaims = append(seedClaims, byID(s.at(seedPoints[i].label).claims()))
		}
	}
	var short map[string]Claim
	if s.Options.Short > 0 {
		short = byID(s.at(shortPoint(s.Options.Short).label).claims())
	}
	for _, f := range figs {
		for i := range f.Claims {
			c := &f.Claims[i]
			c.Host = host
			if seedClaims != nil {
				c.Seeds = []float64{c.measured()}
				if c.inBand() {
					c.SeedsOK++
				}
				for _, m := range seedClaims {
					x, ok := m[c.ID]
					if !ok {
						c.Seeds = append(c.Seeds, nan)
						continue
					}
					c.Seeds = append(c.Seeds, x.measured())
					if x.inBand() {
						c.SeedsOK++
					}
				}
			}
			if x, ok := short[c.ID]; ok {
				c.Short, c.ShortAt, c.fullDuration = &x, s.Options.Short, s.Options.Duration
			}
		}
	}
	return figs
}

// byID indexes claims by ID.
func byID(cs []Claim) map[string]Claim {
	m := map[string]Claim{}
	for _, c := range cs {
		m[c.ID] = c
	}
	return m
}

// figures computes the selected figures of a one-host set, in the paper's order, with the
// engagement table after Fig. 5.
func (s *Set) figures() []*Figure {
	sel := map[string]bool{}
	for _, f := range s.Options.Only {
		sel[f] = true
	}
	var out []*Figure
	for i, f := range []func() *Figure{s.fig1a, s.fig1b, s.fig2b, s.fig3a, s.fig3b, s.fig5, s.fig6a, s.fig6b, s.sensitivity} {
		name := Figures[i]
		if len(sel) > 0 && !sel[name] || len(sel) == 0 && name == "sensitivity" {
			continue
		}
		if fig := f(); fig != nil {
			out = append(out, fig)
			if name == "fig5" {
				out = append(out, s.engagement())
			}
		}
	}
	return out
}

// tag is what every figure's plot title carries so two plots can be told apart: the preset
// and the simulated time per run (the variants are in the figure).
func (s *Set) tag() string { return fmt.Sprintf("%s, %s", s.Options.Preset, s.Options.Duration) }

func (s *Set) has(app, variant string) bool { return s.result(app, variant, "") != nil }

// fig1a: average versus p99 response time under Vanilla (paper: p99 ≈ 9 × mean overall).
func (s *Set) fig1a() *Figure {
	lc := apps.LatencyCritical()
	if !s.has(lc[0], "vanilla") {
		return nil
	}
	d := newDual("Fig. 1a: average vs p99 response time, Vanilla")
	d.textCol("app", "app")
	d.col("mean", "mean_us")
	d.col("p99", "p99_us")
	d.col("p99/mean", "p99_per_mean")
	var ratios []float64
	pooled := &sim.Histogram{}
	inBand := 0
	for _, a := range lc {
		m, p := s.mean(a, "vanilla"), s.p99(a, "vanilla", "")
		ratios = append(ratios, p/m)
		d.append(str(a), durC(m), durC(p), ratioC(p/m))
		if r := s.result(a, "vanilla", ""); r != nil && r.App(a) != nil {
			pooled.Merge(r.App(a).Latency)
		}
		if math.Abs(p/m-9) <= band1a {
			inBand++
		}
	}
	// Pooled: every app's requests in one distribution, the paper's "in overall".
	pm, pp := nan, nan
	if pooled.Count() > 0 {
		pm, pp = pooled.Mean(), float64(pooled.Quantile(0.99))
	}
	d.append(str("pooled"), durC(pm), durC(pp), ratioC(pp/pm))
	c := Claim{ID: "1a", Figure: "1a", Text: "p99 ≈ 9 × mean for the six latency-critical apps under Vanilla",
		Unit: "×", Paper: 9, Tolerance: band1a, Measured: avg(ratios),
		Band: "the text's 9× 'in overall'; ±25 % relative, the ratio of two read-off bars",
		Note: fmt.Sprintf("mean of the six apps' ratios; pooled %s; in band in %d of %d apps", f2(pp/pm)+"×", inBand, len(lc))}
	s.judge(&c, "", "")
	fig := newFigure("fig1a", d, c)
	fig.plot = func(dir, ext string) error {
		ones := make([]float64, len(lc))
		for i := range ones {
			ones[i] = 1
		}
		return report.Bars(dir+"/fig1a"+ext, "Fig. 1a: response time normalized to the mean (Vanilla; "+s.tag()+")", "normalized response time",
			lc, []string{"average", "99th"}, [][]float64{ones, ratios})
	}
	return fig
}

// victimWindows splits an app's requests into those completing during a page victimization
// and the others, returning the mean latency of each and the worst inside.
func victimWindows(r *runner.Result, app string) (inside, outside, worst float64) {
	a := r.App(app)
	if a == nil || a.Series == nil {
		return nan, nan, nan
	}
	var si, so float64
	var ni, no int
	for _, p := range a.Series.Points() {
		in := false
		for _, v := range r.Victims {
			end := max(v.Done, v.End)
			if p.At >= v.Start && p.At <= end {
				in = true
				break
			}
		}
		if in {
			si += float64(p.Latency)
			ni++
			worst = max(worst, float64(p.Latency))
		} else {
			so += float64(p.Latency)
			no++
		}
	}
	if ni == 0 || no == 0 {
		return nan, nan, worst
	}
	return si / float64(ni), so / float64(no), worst
}

// fig1b: Apache-U's response time over time under Vanilla, with the flushed dirty pages.
func (s *Set) fig1b() *Figure {
	r := s.result(apps.ApacheU, "vanilla", "")
	if r == nil {
		return nil
	}
	in, out, worst := victimWindows(r, apps.ApacheU)
	d := newDual("Fig. 1b: Apache-U response time during and outside page victimizations (Vanilla)")
	d.textCol("window", "window")
	d.col("mean response time", "response_time_us")
	d.append(str("during victimization"), durC(in))
	d.append(str("outside"), durC(out))
	d.append(str("worst during victimization"), durC(worst))
	c := Claim{ID: "1b", Figure: "1b", Text: "Apache-U response time jumps when the flusher writes dirty pages (mean during / outside)",
		Unit: "×", Paper: 2, Tolerance: 0, Kind: AtLeast, Measured: in / out,
		Band: "Fig. 1b is a time series with no stated ratio; ≥ 2× is our reading of 'drastically increases', a bound, not a ±25 % band"}
	s.judge(&c, "", "")
	fig := newFigure("fig1b", d, c)
	fig.plot = func(dir, ext string) error {
		return report.TimeSeriesPanels(dir+"/fig1b"+ext, "Fig. 1b: Apache-U under Vanilla (victimizations shaded; "+s.tag()+")",
			[]report.Panel{{YLabel: "response time (ms)", Lines: []report.Line{runner.ResponseLine(*r.App(apps.ApacheU))}},
				{YLabel: "flushed dirty pages", Lines: []report.Line{flushedLine(r)}}}, r.VictimSpans())
	}
	return fig
}

// flushedLine is the paper's Fig. 1b lower axis: the dirty pages each page victimization
// flushed (counted when it started), drawn as a box over the victimization's span.
func flushedLine(r *runner.Result) report.Line {
	l := report.Line{Name: "flushed dirty pages"}
	spans := r.VictimSpans()
	for i, v := range r.Victims {
		sp := spans[i]
		n := float64(v.Pages)
		l.X = append(l.X, sp.From, sp.From, sp.To, sp.To)
		l.Y = append(l.Y, 0, n, n, 0)
	}
	return l
}

// normalized builds a p99 table of variants against a baseline with a bar plot.
func (s *Set) normalized(name, title, base string, variants []string) (*Figure, [][]float64) {
	lc := apps.LatencyCritical()
	d := newDual(title)
	d.textCol("app", "app")
	d.col(base+" p99", base+"_p99_us")
	for _, v := range variants {
		d.col(v+" p99", v+"_p99_us")
		d.col(v+"/"+base, v+"_p99_per_"+base)
	}
	norm := make([][]float64, len(variants)+1)
	for _, a := range lc {
		b := s.p99(a, base, "")
		row := []cell{str(a), durC(b)}
		norm[0] = append(norm[0], 1)
		for i, v := range variants {
			p := s.p99(a, v, "")
			row = append(row, durC(p), ratioC(p/b))
			norm[i+1] = append(norm[i+1], p/b)
		}
		d.append(row...)
	}
	fig := newFigure(name, d)
	fig.plot = func(dir, ext string) error {
		vals := make([][]float64, len(norm))
		for i, row := range norm {
			for _, v := range row {
				if math.IsNaN(v) {
					v = 0
				}
				vals[i] = append(vals[i], v)
			}
		}
		return report.Bars(dir+"/"+name+ext, title+" ("+s.tag()+")", "p99 normalized to "+base, lc, append([]string{base}, variants...), vals)
	}
	return fig, norm
}

func avgReduction(norm []float64) float64 {
	var r []float64
	for _, v := range norm {
		r = append(r, 100*(1-v))
	}
	return avg(r)
}

// fig2b: Oracle (infinite buffer) vs Vanilla (paper: −91 % p99 on average). The claim is
// the never-evicting Oracle's; Oracle-BG (unbounded, drained in the background) is shown
// beside it when it was run, to separate what the buffer's size buys from what keeping
// programs away from reads buys.
func (s *Set) fig2b() *Figure {
	if !s.has(apps.ApacheF, "oracle") {
		return nil
	}
	vs := []string{"oracle"}
	if s.has(apps.ApacheF, "oracle-bg") {
		vs = append(vs, "oracle-bg")
	}
	fig, norm := s.normalized("fig2b", "Fig. 2b: p99 response time, Vanilla vs Oracle", "vanilla", vs)
	if s.result(apps.ApacheF, "oracle", seedPoints[0].label) != nil {
		fig.d.col("oracle p99 spread over 3 seeds", "oracle_p99_spread_3_seeds_us")
		for i, a := range apps.LatencyCritical() {
			fig.d.extend(i, durC(s.oracleSpread(a)))
		}
	}
	if s.result(apps.ApacheF, "oracle-bg", equalWork.label) != nil {
		// With the closed-loop Ungzip the Oracle lets it write more than Oracle-BG does (no
		// input read waits behind a program), and that extra write-back is load on the
		// host; at equal work the two compare on the buffer alone.
		fig.d.col("ungzip MB/s (oracle/oracle-bg)", "oracle_ungzip_mb_per_s", "oracle-bg_ungzip_mb_per_s")
		fig.d.col("equal work: oracle p99", "equal_work_oracle_p99_us")
		fig.d.col("oracle-bg p99", "equal_work_oracle-bg_p99_us")
		for i, a := range apps.LatencyCritical() {
			mbs := cell{"-", []string{"", ""}}
			if ro, rb := s.result(a, "oracle", ""), s.result(a, "oracle-bg", ""); ro != nil && rb != nil {
				mbs = joined(mbsC(ro.Throughput(apps.Ungzip), true), mbsC(rb.Throughput(apps.Ungzip), true))
			}
			fig.d.extend(i, mbs, durC(s.p99(a, "oracle", equalWork.label)), durC(s.p99(a, "oracle-bg", equalWork.label)))
		}
	}
	s.soloColumns(fig.d)
	fig.Claims = []Claim{{ID: "2b", Figure: "2b", Text: "Oracle (infinite buffer) cuts p99 by 91 % on average vs Vanilla",
		Unit: "%", Paper: 91, Tolerance: cutBand(91), Measured: avgReduction(norm[1]), Band: cutBandWhy("the text's 91 %", 91)}}
	s.judge(&fig.Claims[0], "vanilla", "oracle")
	return fig
}

// oracleSpread is the spread (largest − smallest) of the never-draining Oracle's p99 for
// app over the default seed and the two seed points (NaN if they were not run).
func (s *Set) oracleSpread(app string) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range []string{"", seedPoints[0].label, seedPoints[1].label} {
		p := s.p99(app, "oracle", x)
		if math.IsNaN(p) {
			return nan
		}
		lo, hi = min(lo, p), max(hi, p)
	}
	return hi - lo
}

// fig3a: LSB-only foreground eviction vs LSB/CSB/MSB (paper: −65 % p99).
func (s *Set) fig3a() *Figure {
	if !s.has(apps.ApacheF, "lsb-only") || !s.has(apps.ApacheF, "fd-buf") {
		return nil
	}
	fig, norm := s.normalized("fig3a", "Fig. 3a: p99 response time, LSB/CSB/MSB (FD-Buf) vs LSB-only foreground eviction",
		"fd-buf", []string{"lsb-only"})
	fig.Claims = []Claim{{ID: "3a", Figure: "3a", Text: "LSB-only foreground eviction cuts p99 by 65 % vs LSB/CSB/MSB",
		Unit: "%", Paper: 65, Tolerance: cutBand(65), Measured: avgReduction(norm[1]), Band: cutBandWhy("Fig. 3a's bars (LSB/CSB/MSB about 2.9× LSB-only)", 65)}}
	s.judge(&fig.Claims[0], "fd-buf", "lsb-only")
	return fig
}

// wasteTable builds a used/wasted flash page table for variant.
func (s *Set) wasteTable(name, title, variant string) (*Figure, float64) {
	lc := apps.LatencyCritical()
	d := newDual(title)
	d.textCol("app", "app")
	d.col("pages programmed", "pages_programmed")
	d.col("pages wasted", "pages_wasted")
	d.col("wasted share", "wasted_frac")
	d.col("used share", "used_frac")
	var shares []float64
	var used, wasted []float64
	var sumUsed, sumWasted int64
	for _, a := range lc {
		r := s.result(a, variant, "")
		if r == nil {
			continue
		}
		tot := float64(r.FlashUsed + r.FlashWasted)
		w := nan
		if tot > 0 {
			w = float64(r.FlashWasted) / tot
		}
		shares = append(shares, w)
		used = append(used, 1-w)
		wasted = append(wasted, w)
		d.append(str(a), countC(r.FlashUsed), countC(r.FlashWasted), ratioC(w), ratioC(1-w))
		sumUsed += r.FlashUsed
		sumWasted += r.FlashWasted
	}
	// Pooled over the apps (sums of pages), beside the per-app mean the claim uses: an app
	// that programs few pages weighs as much as one that programs many in the mean.
	if tot := float64(sumUsed + sumWasted); tot > 0 {
		pw := float64(sumWasted) / tot
		d.append(str("pooled"), countC(sumUsed), countC(sumWasted), ratioC(pw), ratioC(1-pw))
	}
	if m := avg(shares); !math.IsNaN(m) {
		d.append(str("mean of apps"), blank, blank, ratioC(m), ratioC(1-m))
	}
	fig := newFigure(name, d)
	fig.plot = func(dir, ext string) error {
		return report.Bars(dir+"/"+name+ext, title+" ("+s.tag()+")", "share of flash pages", lc, []string{"used", "wasted"}, [][]float64{zero(used), zero(wasted)})
	}
	return fig, avg(shares)
}

func zero(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		if !math.IsNaN(x) {
			out[i] = x
		}
	}
	return out
}

// fig3b: flash pages the prior work (skip-to-LSB) leaves unused (paper: 35 %).
func (s *Set) fig3b() *Figure {
	if !s.has(apps.ApacheF, "lsb-only") {
		return nil
	}
	fig, w := s.wasteTable("fig3b", "Fig. 3b: flash page usage of the prior work (skip-to-LSB)", "lsb-only")
	fig.Claims = []Claim{{ID: "3b", Figure: "3b", Text: "the skip-to-LSB prior work leaves 35 % of flash pages unused",
		Unit: "%", Paper: 35, Tolerance: 0.25 * 35, Measured: 100 * w, Band: "the text's 35 %; ±25 % relative"}}
	s.judge(&fig.Claims[0], "", "")
	return fig
}

// fig5: FD-Buf, FD-FTL and FD against Vanilla (paper: −34 / −76 / −84 % p99; FD −37 % vs FD-FTL).
func (s *Set) fig5() *Figure {
	if !s.has(apps.ApacheF, "fd-ftl") || !s.has(apps.ApacheF, "vanilla") {
		return nil
	}
	fig, norm := s.normalized("fig5", "Fig. 5: p99 response time of the co-located apps, normalized to Vanilla",
		"vanilla", []string{"fd-buf", "fd-ftl", "fd"})
	lc := apps.LatencyCritical()
	// The co-runner's throughput, so that a p99 is read with the load that made it: Ungzip
	// is closed-loop, and a variant that drains faster lets it write more (docs/fidelity.md).
	fig.d.col("ungzip MB/s (vanilla/fd-buf/fd-ftl/fd)", "vanilla_ungzip_mb_per_s", "fd-buf_ungzip_mb_per_s", "fd-ftl_ungzip_mb_per_s", "fd_ungzip_mb_per_s")
	for i, a := range lc {
		var mbs []cell
		for _, v := range []string{"vanilla", "fd-buf", "fd-ftl", "fd"} {
			r := s.result(a, v, "")
			mbs = append(mbs, mbsC(throughput(r), r != nil))
		}
		fig.d.extend(i, joined(mbs...))
	}
	s.equalWorkColumns(fig.d)
	var fdVsFtl []float64
	ordered := 0
	for i, a := range lc {
		fdVsFtl = append(fdVsFtl, reduction(s.p99(a, "fd-ftl", ""), s.p99(a, "fd", "")))
		if norm[3][i] <= norm[2][i] && norm[2][i] <= norm[1][i] && norm[1][i] <= 1 {
			ordered++
		}
	}
	fig.Claims = []Claim{
		{ID: "5-fdbuf", Figure: "5", Text: "FD-Buf cuts p99 by 34 % vs Vanilla", Unit: "%", Paper: 34, Tolerance: cutBand(34), Measured: avgReduction(norm[1]),
			Band: cutBandWhy("the text's 34 %", 34)},
		{ID: "5-fdftl", Figure: "5", Text: "FD-FTL cuts p99 by 76 % vs Vanilla", Unit: "%", Paper: 76, Tolerance: cutBand(76), Measured: avgReduction(norm[2]),
			Band: cutBandWhy("the text's 76 %", 76)},
		{ID: "5-fd", Figure: "5", Text: "FD cuts p99 by 84 % vs Vanilla", Unit: "%", Paper: 84, Tolerance: cutBand(84), Measured: avgReduction(norm[3]),
			Band: cutBandWhy("the text's 84 %", 84)},
		{ID: "5-fd-vs-ftl", Figure: "5", Text: "FD cuts p99 by a further 37 % vs FD-FTL", Unit: "%", Paper: 37, Tolerance: cutBand(37), Measured: avg(fdVsFtl),
			Band: cutBandWhy("the text's 37 %", 37)},
		{ID: "5-order", Figure: "5", Text: "FD ≤ FD-FTL ≤ FD-Buf ≤ Vanilla on p99 for at least 5 of 6 apps", Unit: "apps",
			Paper: 5, Kind: AtLeast, Measured: float64(ordered),
			Band: "Fig. 5's bars show the order in all six apps; one app may miss it where two bars are too close to read apart"},
	}
	s.judge(&fig.Claims[0], "vanilla", "fd-buf")
	s.judge(&fig.Claims[1], "vanilla", "fd-ftl")
	s.judge(&fig.Claims[2], "vanilla", "fd")
	s.judge(&fig.Claims[3], "fd-ftl", "fd")
	s.judge(&fig.Claims[4], "", "")
	return fig
}

// fig6a: Apache-U response time over time under each variant.
func (s *Set) fig6a() *Figure {
	variants := []string{"vanilla", "fd-buf", "fd-ftl", "fd"}
	for _, v := range variants {
		if s.result(apps.ApacheU, v, "") == nil {
			return nil
		}
	}
	d := newDual("Fig. 6a: Apache-U response time with Ungzip, per variant")
	d.textCol("variant", "variant")
	d.col("mean outside victimization", "mean_outside_victimization_us")
	d.col("mean during", "mean_during_victimization_us")
	d.col("worst during", "worst_during_victimization_us")
	d.col("max", "max_us")
	worst := map[string]float64{}
	var lines []report.Line
	for _, v := range variants {
		r := s.result(apps.ApacheU, v, "")
		in, out, w := victimWindows(r, apps.ApacheU)
		worst[v] = float64(r.App(apps.ApacheU).Latency.Max())
		d.append(str(v), durC(out), durC(in), durC(w), durC(worst[v]))
		l := runner.ResponseLine(*r.App(apps.ApacheU))
		l.Name = v
		lines = append(lines, l)
	}
	rv := s.result(apps.ApacheU, "vanilla", "")
	_, outV, _ := victimWindows(rv, apps.ApacheU)
	fig := newFigure("fig6a", d,
		Claim{ID: "6a-normal", Figure: "6a", Text: "Vanilla Apache-U stays under 5 ms outside victimizations (mean)", Unit: "ms",
			Paper: 5, Kind: AtMost, Measured: outV / float64(sim.Millisecond), Band: "the text's 'under 5 ms', a bound"},
		Claim{ID: "6a-peak", Figure: "6a", Text: "Vanilla Apache-U reaches ~35 ms during victimizations (max)", Unit: "ms",
			Paper: 35, Tolerance: 0.25 * 35, Measured: worst["vanilla"] / float64(sim.Millisecond), Band: "the text's 'up to 35 ms'; ±25 % relative"},
		Claim{ID: "6a-ftl", Figure: "6a", Text: "FD-FTL's worst case is 3 × better than FD-Buf's", Unit: "×",
			Paper: 3, Tolerance: 0.25 * 3, Measured: worst["fd-buf"] / worst["fd-ftl"], Band: "the text's 3×; ±25 % relative"})
	s.judge(&fig.Claims[0], "", "")
	s.judge(&fig.Claims[1], "", "")
	s.judge(&fig.Claims[2], "", "")
	fig.Claims[2].Tie = worst["fd-buf"] == worst["fd-ftl"]
	fig.plot = func(dir, ext string) error {
		return report.TimeSeries(dir+"/fig6a"+ext, "Fig. 6a: Apache-U response time per variant (Vanilla's victimizations shaded; "+s.tag()+")",
			"response time (ms)", lines, rv.VictimSpans())
	}
	return fig
}

// fig6b: flash page usage of FD (paper: ~90 % used).
func (s *Set) fig6b() *Figure {
	if !s.has(apps.ApacheF, "fd") {
		return nil
	}
	fig, w := s.wasteTable("fig6b", "Fig. 6b: flash page usage of FD", "fd")
	fig.Claims = []Claim{{ID: "6b", Figure: "6b", Text: "FD uses ~90 % of flash pages", Unit: "%", Paper: 90, Tolerance: 0.25 * 10, Measured: 100 * (1 - w),
		Band: "the text's 90 % used; ±25 % of the 10 % wasted"}}
	s.judge(&fig.Claims[0], "", "")
	return fig
}

// equalWorkColumns adds Fig. 5's equal-work control to its table (issue 20 item 11): the same
// p99s with Ungzip open loop at EqualWorkRate, its input in memory, so that it does the same
// work under every variant; with its output and the time writes stalled on a full SSD buffer.
func (s *Set) equalWorkColumns(d *dual) {
	x := equalWork.label
	if s.result(apps.ApacheF, "vanilla", x) == nil {
		return
	}
	vs := []string{"vanilla", "fd-buf", "fd-ftl", "fd"}
	d.col("equal work: vanilla p99", "equal_work_vanilla_p99_us")
	for _, v := range vs[1:] {
		d.col(v+"/vanilla", "equal_work_"+v+"_p99_per_vanilla")
	}
	var mbsCols, stallCols []string
	for _, v := range vs {
		mbsCols = append(mbsCols, "equal_work_"+v+"_ungzip_mb_per_s")
		stallCols = append(stallCols, "equal_work_"+v+"_write_stall_us")
	}
	d.col("ungzip MB/s (equal work)", mbsCols...)
	d.col("write-stall time (vanilla/fd-buf/fd-ftl/fd)", stallCols...)
	for i, a := range apps.LatencyCritical() {
		b := s.p99(a, "vanilla", x)
		row := []cell{durC(b)}
		for _, v := range vs[1:] {
			row = append(row, ratioC(s.p99(a, v, x)/b))
		}
		var mbs, stalls []cell
		for _, v := range vs {
			r := s.result(a, v, x)
			mbs = append(mbs, mbsC(throughput(r), r != nil))
			if r != nil {
				stalls = append(stalls, durC(float64(r.Firmware.StallTime)))
			} else {
				stalls = append(stalls, cell{"-", []string{""}})
			}
		}
		d.extend(i, append(row, joined(mbs...), joined(stalls...))...)
	}
}

// band1a is 1a's tolerance: ±25 % of the paper's 9×.
const band1a = 0.25 * 9

// cutBand is the tolerance of a claimed p99 cut of paper % (a ratio variant / baseline of
// 1 − paper/100): ±25 % of that ratio, in points, and at most 10 points.
func cutBand(paper float64) float64 { return min(10, 0.25*(100-paper)) }

// cutBandWhy is the band's reason for a cut of paper % read from where.
func cutBandWhy(where string, paper float64) string {
	if 0.25*(100-paper) > 10 {
		return where + "; ±25 % of the remaining p99 ratio, capped at 10 points"
	}
	return fmt.Sprintf("%s; ±25 %% of the remaining p99 ratio %.2f", where, 1-paper/100)
}

// soloColumns adds each app's p99 alone under the never-draining Oracle, and its co-located
// p99 over it (issue 19's target: within 2× but for the fsync apps), when the solo runs
// were made.
func (s *Set) soloColumns(d *dual) {
	if s.solo(apps.ApacheF, "oracle") == nil {
		return
	}
	d.col("oracle solo p99", "oracle_solo_p99_us")
	d.col("co-located/solo", "oracle_colocated_per_solo")
	for i, a := range apps.LatencyCritical() {
		sp := nan
		if r := s.solo(a, "oracle"); r != nil && r.App(a) != nil && r.App(a).Latency.Count() > 0 {
			sp = float64(r.App(a).Latency.Quantile(0.99))
		}
		d.extend(i, durC(sp), ratioC(s.p99(a, "oracle", "")/sp))
	}
}

// engagement is the table of how long each mechanism the claims need was in force in each
// app's run, as a share of the run (engaged.go): a claim counts its mechanism engaged only
// where the share is at least EngagedShare.
func (s *Set) engagement() *Figure {
	d := newDual(fmt.Sprintf("Engagement: share of the run each mechanism was in force (a claim needs ≥ %s)", pct(EngagedShare)))
	d.textCol("app", "app")
	cols := []struct {
		variant string
		m       mechanism
	}{{"vanilla", filled}, {"fd-buf", foreground}, {"fd-ftl", foreground}, {"fd", foreground}, {"fd", switched}, {"lsb-only", foreground}}
	for _, c := range cols {
		d.col(c.variant+": "+c.m.String(), engagementColumn(c.variant, c.m))
	}
	for _, a := range apps.LatencyCritical() {
		row := []cell{str(a)}
		for _, c := range cols {
			v := nan
			if r := s.result(a, c.variant, ""); r != nil {
				v = c.m.share(r)
			}
			row = append(row, cell{pctC(v), []string{num(v)}})
		}
		d.append(row...)
	}
	return newFigure("engagement", d)
}

// pctC is a share as text: "12.3 %" ("-" when NaN).
func pctC(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return pct(v)
}

// throughput is Ungzip's write throughput in r (10⁶ B/s; 0 when r is nil).
func throughput(r *runner.Result) float64 {
	if r == nil {
		return 0
	}
	return r.Throughput(apps.Ungzip)
}

// newFigure is a figure of d's two tables and its claims.
func newFigure(name string, d *dual, claims ...Claim) *Figure {
	return &Figure{Name: name, Title: d.text.Title, Table: d.text, Numbers: d.num, Claims: claims, d: d}
}
