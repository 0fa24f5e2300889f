package figures

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Modern is the section that runs the paper's comparison on a current drive (issue 34 item
// 7; docs/fidelity.md "FastDrain on a modern drive"): `fastdrain figures --only modern`.
const Modern = "modern"

// ModernPreset is the modern section's platform by default: the one-shot 3D TLC drive with
// an SLC cache.
const ModernPreset = "gen4-tlc"

// ModernVariants are the variants the modern section compares, in order: the paper's
// Vanilla, FD-Buf, FD-FTL and FD, and Oracle-BG (the oracle buffer draining in background).
var ModernVariants = []string{"vanilla", "fd-buf", "fd-ftl", "fd", "oracle-bg"}

// modernSets returns the overrides that make variant the modern drive's version of itself.
// On one-shot 3D NAND a word line's pages are programmed together, so FD-FTL's fast pages
// are the SLC cache (ftl.SLCForeground: foreground evictions to pSLC, background ones
// direct to TLC) instead of the latency-aware allocator's LSB pages, which one-shot NAND
// does not program apart. The other variants keep their own: every host write tries the
// cache first, as on a conventional drive.
func modernSets(variant string) []string {
	switch variant {
	case "fd-ftl", "fd":
		return []string{"firmware.ftl.allocator=" + ftl.SLCForeground}
	}
	return nil
}

// ModernRun is one run of the modern section: the co-location scenario of App with Ungzip
// under Variant.
type ModernRun struct {
	App, Variant string
	Result       *runner.Result
}

// RunModern runs every latency-critical app co-located with Ungzip under each of
// ModernVariants on o.Preset (ModernPreset if empty), with o.Sets on every run, for
// o.Duration each. It refuses a preset without an SLC cache: FD-FTL's fast pages there are
// the cache.
func RunModern(o Options) ([]ModernRun, error) {
	preset := o.Preset
	if preset == "" {
		preset = ModernPreset
	}
	base, err := platforms.Load(platforms.Options{Preset: preset, Sets: o.Sets})
	if err != nil {
		return nil, err
	}
	if !base.Firmware.FTL.SLCCache.Enabled() {
		return nil, fmt.Errorf("figures --only %s: preset %q has no SLC cache (firmware.ftl.slc_cache), the modern drive's fast pages", Modern, preset)
	}
	var runs []ModernRun
	var opts []runner.Options
	for _, a := range apps.LatencyCritical() {
		for _, v := range ModernVariants {
			c, err := platforms.Load(platforms.Options{Preset: preset, Variant: v, Sets: append(append([]string{}, o.Sets...), modernSets(v)...)})
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", a, v, err)
			}
			sc, err := apps.LookupScenario(a + "+" + apps.Ungzip)
			if err != nil {
				return nil, err
			}
			sc.Duration = o.Duration
			if o.Seed != 0 {
				sc.Seed = o.Seed
			}
			runs = append(runs, ModernRun{App: a, Variant: v})
			opts = append(opts, runner.Options{Label: v, Config: c, Workload: runner.Workload{Scenario: sc, Apps: o.Apps}})
		}
	}
	var progress func(int)
	if o.Progress != nil {
		progress = func(d int) { o.Progress(d, len(opts)) }
	}
	res, errs := runner.RunAll(opts, o.Jobs, progress)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i := range runs {
		runs[i].Result = res[i]
	}
	return runs, nil
}

// ModernTable is the modern section's table: per app and variant, the app's p99 and mean
// response time and both against Vanilla's, and the mechanisms' counters: the host pages
// written to the SLC cache, routed past it (FD-FTL's background evictions) and written
// direct to TLC with the cache full, the pages folded, the foreground share of the run, and the host reads
// that met a program on their die and a background one.
func ModernTable(runs []ModernRun) *report.Table {
	t := &report.Table{Title: "FastDrain on a modern drive: latency-critical apps co-located with Ungzip",
		Header: []string{"app", "variant", "p99 (ms)", "p99 / Vanilla", "mean (ms)", "mean / Vanilla",
			"pages to SLC", "routed past SLC", "direct (cache full)", "folded", "foreground share", "reads behind flash work", "behind a background program"}}
	vanilla := map[string]*runner.Result{}
	for _, r := range runs {
		if r.Variant == "vanilla" {
			vanilla[r.App] = r.Result
		}
	}
	ms := func(ps float64) string { return strconv.FormatFloat(ps/float64(sim.Millisecond), 'f', 3, 64) }
	ratio := func(a, b float64) string {
		if b == 0 {
			return "—"
		}
		return strconv.FormatFloat(a/b, 'f', 2, 64)
	}
	count := func(r *runner.Result, s *sim.Stat) string {
		v, _ := r.Stats.Value(s)
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	for _, r := range runs {
		a := r.Result.App(r.App)
		if a == nil || a.Latency.Count() == 0 {
			continue
		}
		p99, mean := float64(a.Latency.Quantile(0.99)), a.Latency.Mean()
		vp99, vmean := 0.0, 0.0
		if v := vanilla[r.App]; v != nil && v.App(r.App) != nil && v.App(r.App).Latency.Count() > 0 {
			vp99, vmean = float64(v.App(r.App).Latency.Quantile(0.99)), v.App(r.App).Latency.Mean()
		}
		fg, _ := r.Result.Stats.Value(firmware.StatForegroundTime)
		share := fg / float64(max(r.Result.Ended-r.Result.Began, 1))
		t.Append(r.App, r.Variant, ms(p99), ratio(p99, vp99), ms(mean), ratio(mean, vmean),
			count(r.Result, firmware.StatSLCWrites), count(r.Result, firmware.StatSLCBypass), count(r.Result, firmware.StatSLCDirect),
			count(r.Result, firmware.StatSLCFolded), strconv.FormatFloat(share, 'f', 3, 64),
			count(r.Result, firmware.StatReadsBehindArray), count(r.Result, firmware.StatReadsBehindBackground))
	}
	return t
}
