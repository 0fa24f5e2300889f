package figures

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClaimVerdicts(t *testing.T) {
	c := Claim{Unit: "%", Paper: 34, Tolerance: 15, Measured: 48}
	require.True(t, c.OK(), "|48 − 34| = 14 ≤ 15")
	c.Measured = 50
	require.False(t, c.OK())
	require.Equal(t, "not reproduced", c.Verdict())
	a := Claim{Unit: "apps", Paper: 5, Kind: AtLeast, Measured: 6}
	require.True(t, a.OK())
	require.Equal(t, "≥ 5.0 apps", a.PaperText())
	m := Claim{Missing: true}
	require.Equal(t, "not run", m.Verdict())
	n := Claim{Measured: math.NaN()}
	require.Equal(t, "-", n.MeasuredText())
}

func TestUnknownFigure(t *testing.T) {
	_, err := Run(Options{Preset: "fastdrain-small", Duration: sim.Second, Only: []string{"fig4"}})
	require.ErrorContains(t, err, `unknown figure "fig4"`)
}

// oracleBound checks the Oracle bound on app (issue 20's "Done when"): the never-draining
// Oracle programs nothing, so no read of any app meets a program and no write waits for
// room; its p99 is at most Vanilla's, and no variant beats it by more than the spread of
// its p99 over three seeds (what a different seed alone moves it by) where the SSD delays
// the app's I/O. A variant may beat it by more in two regimes, each with its mechanism
// checked:
//
//   - Closed loop (the default runs): the Oracle never programs, so Ungzip's input reads
//     never wait behind a program and it writes more than under a variant that programs;
//     that extra write-back is host load the app's own I/O queues behind. Such a variant
//     must have let Ungzip write at least 5 % less (on fastdrain-tlc-8x at 2 s Oracle-BG
//     beats the Oracle on ImgServer-U on seed 4, 2.10 vs 2.22 ms, spread 0.10 ms, with
//     Ungzip writing 282 MB against 311 MB).
//   - Equal work (Ungzip open loop, its input cached): the variant must not beat the
//     equal-work Oracle by more than the spread, unless the SSD delayed nothing in either
//     run: no page read from flash and no write stalled for room in both. Then both
//     served every command from DRAM at once, and what differs is the host's: on seed 4
//     ImgServer-U's p99 of 707 requests is 2.17 ms under the Oracle and 1.99 ms under
//     Oracle-BG, the same to the p90, with the applications' CPU time on different host
//     cores in the two runs (one 40 % busy, against two at 25 and 22 %).
//
// It reports whether the bound holds, each failure through t.
func oracleBound(t *testing.T, set *Set, a string, variants []string) bool {
	po := set.p99(a, "oracle", "")
	spread := set.oracleSpread(a)
	ok := assert.False(t, math.IsNaN(spread), "the Oracle's seed runs (%s)", a)
	ok = assert.LessOrEqual(t, po, set.p99(a, "vanilla", ""), "Oracle ≤ Vanilla (%s)", a) && ok
	or, ore := set.result(a, "oracle", ""), set.result(a, "oracle", equalWork.label)
	poe := set.p99(a, "oracle", equalWork.label)
	ssdIdle := func(r *runner.Result) bool { return r.Firmware.FlashReads == 0 && r.Firmware.Stalls == 0 }
	for _, v := range variants {
		if p := set.p99(a, v, ""); p < po-spread {
			r := set.result(a, v, "")
			t.Logf("%s beats the Oracle on %s by %v (spread %v); Ungzip wrote %d B under the Oracle, %d B under %s",
				v, a, dur(po-p), dur(spread), or.App(apps.Ungzip).Bytes, r.App(apps.Ungzip).Bytes, v)
			ok = assert.Less(t, float64(r.App(apps.Ungzip).Bytes), 0.95*float64(or.App(apps.Ungzip).Bytes),
				"%s beats the Oracle on %s by more than its three-seed spread (%v) without the closed loop", v, a, dur(spread)) && ok
		}
		re := set.result(a, v, equalWork.label)
		if re == nil { // lsb-only has no equal-work run
			continue
		}
		if pe := set.p99(a, v, equalWork.label); pe < poe-spread {
			t.Logf("at equal work %s beats the Oracle on %s by %v (spread %v); flash reads %d / %d, stalls %d / %d",
				v, a, dur(poe-pe), dur(spread), ore.Firmware.FlashReads, re.Firmware.FlashReads, ore.Firmware.Stalls, re.Firmware.Stalls)
			ok = assert.True(t, ssdIdle(ore) && ssdIdle(re),
				"at equal work %s beats the Oracle on %s by more than its three-seed spread (%v) with the SSD delaying I/O", v, a, dur(spread)) && ok
		}
	}
	return ok
}

// TestQualitativeResults runs the Fig. 2b, 3b and 5 experiments at quick scale (2 s on
// fastdrain-tlc-8x, the platform of `figures --quick`) on the paper's host and checks issue
// 20's assertions about the mechanisms, each of which engages there for at least the share of
// the run a claim needs (EngagedShare, checked at the end); then issue 19's bound on both
// hosts (soloBound).
func TestQualitativeResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 108 whole-machine experiments")
	}
	set, err := Run(Quick(Options{Duration: 2 * sim.Second, Only: []string{"fig2b", "fig3b", "fig5"}, Apps: apps.DefaultSpec(),
		Hosts: []string{hostos.ProfilePaper}}))
	require.NoError(t, err)
	set = set.onHost(hostos.ProfilePaper)
	lc := apps.LatencyCritical()
	variants := []string{"vanilla", "oracle-bg", "fd-buf", "fd-ftl", "fd", "lsb-only"}
	for _, a := range lc {
		// The Oracle bound (oracleBound): Oracle ≤ Vanilla, and no variant beats the Oracle
		// by more than its three-seed spread where the SSD delayed any of the run's I/O.
		or := set.result(a, "oracle", "")
		require.Zero(t, or.Firmware.ForegroundEvictions+or.Firmware.BackgroundEvictions, "the Oracle never evicts (%s)", a)
		po, spread := set.p99(a, "oracle", ""), set.oracleSpread(a)
		require.True(t, oracleBound(t, set, a, variants), "the Oracle bound (%s)", a)
		// Vanilla evicts on demand only.
		require.Zero(t, set.result(a, "vanilla", "").Firmware.BackgroundEvictions, "Vanilla is on demand only (%s)", a)
		// Under FD-FTL every foreground eviction lands on an LSB page unless the paper's
		// bound refuses it one: no open block at an LSB page, the LSB-only region full and
		// the skip region full (ftl.Stats.FGBounded).
		ftlSt := set.result(a, "fd-ftl", "").FTL
		require.Equal(t, ftlSt.ForegroundWr, ftlSt.LSBForFG+ftlSt.FGBounded,
			"FD-FTL: every foreground eviction on an LSB page but those the LSB-only bound refused (%s)", a)
		// The fastdrain-small version of this test also asserted that the bound refuses under
		// 1 %. On fastdrain-tlc-8x it refused 3–6 % in five apps' runs and 29 % in
		// ImgServer-U's with a skip region of 1 block per die (fastdrain-tlc's then 4 scaled
		// by 8 and rounded up; 3 now, its 19 scaled): the region fills within the run and no
		// GC empties it (docs/fidelity.md, "The skip region at 30 s").
		// FD switches dirty ratios in every run whose buffer reached the high watermark
		// (the predictive upcall reports above-high by then at the latest). It may evict in
		// the foreground and never switch in a run that does not: the prediction crosses
		// high when a pass's writes arrive, and they complete together once their data is
		// fetched, 0.6–2.3 ms later, when foreground eviction has brought it back under
		// (Apache-U, DB-U and ImgServer-F at 2 s; docs/fidelity.md, quick platform).
		fd := set.result(a, "fd", "")
		if high := fd.Config.Firmware.Buffer.Watermarks.High * float64(fd.BufferPages); float64(fd.Buffer.PeakOccupancy) >= high {
			require.NotEmpty(t, fd.Switches, "FD's buffer reached high but it never switched ratios (%s)", a)
		}
		// Skipping wastes pages only when foreground eviction asks for LSB pages: the
		// skip-to-lsb variant wastes some exactly when it evicted in the foreground, and the
		// latency-aware allocator then wastes fewer; the sequential allocator wastes none.
		skipR := set.result(a, "lsb-only", "")
		skip := skipR.FlashWasted
		if skipR.Firmware.ForegroundEvictions > 0 {
			require.Positive(t, skip, "skip-to-lsb wastes pages (%s)", a)
			require.Less(t, set.result(a, "fd-ftl", "").FlashWasted, skip,
				"the latency-aware allocator wastes fewer pages than skip-to-lsb (%s)", a)
		}
		require.Zero(t, set.result(a, "fd-buf", "").FlashWasted, "sequential wastes none (%s)", a)
		// FastDrain's background eviction goes to dies idle of host work only (the
		// idle-die estimate, firmware/activity.go): no background page to a busy die.
		for _, v := range []string{"fd-buf", "fd-ftl", "fd"} {
			require.Zero(t, set.result(a, v, "").Firmware.BackgroundBusy, "%s: a background page to a busy die (%s)", v, a)
		}
		// A variant differs from the one below it only through its mechanism: where FD-FTL
		// never evicted in the foreground, its LSB placement had nothing to act on and FD-FTL
		// equals FD-Buf to the digit; where FD never went above high (no upcall), its
		// throttling never switched and FD equals FD-FTL.
		if ftlSt.ForegroundWr == 0 {
			require.Equal(t, set.p99(a, "fd-buf", ""), set.p99(a, "fd-ftl", ""), "FD-FTL without foreground eviction = FD-Buf (%s)", a)
		}
		if fd.Firmware.AboveHigh == 0 {
			require.Empty(t, fd.Switches, "FD switched with no above-high completion (%s)", a)
			require.Equal(t, set.p99(a, "fd-ftl", ""), set.p99(a, "fd", ""), "FD without throttling = FD-FTL (%s)", a)
		}
		// At equal co-runner work (Ungzip open loop at EqualWorkRate, the same output
		// under every variant) the time writes stall on a full SSD buffer is FD-FTL ≤
		// FD-Buf ≤ Vanilla. Under the default background set (per-eviction: one page to
		// each idle die per internal buffer eviction) FastDrain's buffer fills (FD's peaks at
		// 14,488–16,020 of its 16,384 pages in the closed-loop runs at 2 s) and the hint's
		// foreground eviction keeps its writes from waiting: at equal work FD-Buf stalls 0
		// in five apps and 0.58 ms in DB-U's run, FD-FTL 0, against Vanilla's 1.0–6.0 s.
		// (With background eviction to every idle die, background_set idle-dies, no
		// FastDrain write stalls and FD-FTL ≤ FD-Buf is 0 ≤ 0; before the host's writeback
		// throttling and interrupt contexts of issue 19, FD-FTL stalled 1.99 ms against
		// FD-Buf's 0.80 ms in ImgServer-U at 3 s.)
		ew := func(v string) *runner.Result { return set.result(a, v, equalWork.label) }
		out := ew("vanilla").App(apps.Ungzip).Bytes
		for _, v := range []string{"fd-buf", "fd-ftl", "fd"} {
			require.InDelta(t, out, ew(v).App(apps.Ungzip).Bytes, float64(out)/100, "equal work: Ungzip's output under %s (%s)", v, a)
		}
		van, buf, ftlR := ew("vanilla").Firmware.StallTime, ew("fd-buf").Firmware.StallTime, ew("fd-ftl")
		require.LessOrEqual(t, buf, van, "equal work: FD-Buf stalls no longer than Vanilla (%s)", a)
		require.LessOrEqual(t, ftlR.Firmware.StallTime, buf, "equal work: FD-FTL stalls no longer than FD-Buf (%s)", a)
		t.Logf("%s: oracle p99 %v spread %v; fd-ftl fg %d bounded %d; waste fd-ftl %d lsb-only %d; equal-work stall %v / %v / %v (bounded %d); fd switches %d peak %d",
			a, dur(po), dur(spread), ftlSt.ForegroundWr, ftlSt.FGBounded, set.result(a, "fd-ftl", "").FlashWasted, skip,
			van, buf, ftlR.Firmware.StallTime, ftlR.FTL.FGBounded, len(fd.Switches), fd.Buffer.PeakOccupancy)
	}
	// Vanilla's mechanism, on-demand eviction of a full buffer, happens in every app's run
	// at this scale and is in force for at least EngagedShare (1 %) of the run in some
	// app's (issue 31 item 5). FastDrain's foreground eviction, LSB placement and
	// throttling need the buffer to fill. Under the default background set (per-eviction)
	// the background sends one set of 480 pages per internal buffer eviction, far below
	// Ungzip's write-back, so the buffer fills in every app's run and each variant's
	// mechanism is in force for at least EngagedShare of it: foreground eviction 11.8–37.4 %
	// of FD-Buf's run, 3.6–21.6 % of FD-FTL's and FD's, 3.6–10.0 % of LSB-only's, and FD's
	// high ratio set 2.5–18.8 % (at 2 s on the default seed). (With background eviction to
	// every idle die, background_set idle-dies, the 480 dies drain Ungzip's write-back as it
	// comes and none of them engages; the assertions above then hold each variant equal to
	// the one below it; CHANGELOG.md, docs/fidelity.md's targeted runs of issue 31.)
	engagedVanilla := 0
	for _, a := range lc {
		van := set.result(a, "vanilla", "")
		require.Positive(t, filled.share(van), "Vanilla's buffer is full at some sample (%s)", a)
		if filled.happened(van) {
			engagedVanilla++
		}
		for _, v := range []string{"fd-buf", "fd-ftl", "fd", "lsb-only"} {
			r := set.result(a, v, "")
			t.Logf("%s %s: foreground eviction in force %.2f %% of the run (%d pages); p99 %v", a, v, 100*foreground.share(r), r.Firmware.ForegroundEvictions, dur(set.p99(a, v, "")))
			require.True(t, foreground.happened(r), "%s: foreground eviction in force ≥ 1 %% of the run (%s)", v, a)
		}
		fd := set.result(a, "fd", "")
		t.Logf("%s vanilla: buffer full %.2f %% of the run, p99 %v; fd high set %.2f %%", a, 100*filled.share(van), dur(set.p99(a, "vanilla", "")), 100*switched.share(fd))
		require.True(t, switched.happened(fd), "FD's high ratio set in force ≥ 1 %% of the run (%s)", a)
	}
	require.Positive(t, engagedVanilla, "Vanilla's buffer full ≥ 1 %% of the run in some app's run")
	// Apache-U, the paper's Fig. 1b/6a app: every FastDrain variant beats Vanilla on p99, and
	// the hint starts FD-Buf's eviction before the victimization arrives, so fewer writes
	// find the buffer full than under Vanilla's on-demand eviction.
	u := apps.ApacheU
	for _, v := range []string{"fd-buf", "fd-ftl", "fd"} {
		require.Less(t, set.p99(u, v, ""), set.p99(u, "vanilla", ""), "%s < Vanilla", v)
	}
	require.Less(t, set.result(u, "fd-buf", "").Firmware.Stalls, set.result(u, "vanilla", "").Firmware.Stalls)
	figs := set.Figures()
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"fig2b", "fig3b", "fig5", "engagement"}, names)
	// The verdicts follow the rules (docs/fidelity.md, "How a claim is judged"): a claim is
	// "not engaged" exactly when a mechanism it needs (claimNeeds) was in force for less than
	// EngagedShare of some run it is computed from, and "reproduced" only in its band, with
	// every mechanism engaged and the variants compared not tied.
	for _, f := range figs {
		for _, c := range f.Claims {
			require.NotEmpty(t, claimNeeds[c.ID], c.ID)
			short := false
			for _, n := range claimNeeds[c.ID] {
				for _, a := range lc {
					if r := set.result(a, n.variant, ""); r != nil && (n.app == "" || n.app == a) && !n.m.happened(r) {
						short = true
					}
				}
			}
			require.Equal(t, short, c.NotEngaged != "", "%s: not engaged is %q", c.ID, c.NotEngaged)
			if c.Outcome() == "reproduced" {
				require.True(t, c.OK() && !short && !c.Tie, c.ID)
			}
		}
	}
	dir := t.TempDir()
	require.NoError(t, WriteDir(dir, figs))
	for _, f := range []string{"fig5.csv", "fig5.json", "fig5.png", "fig2b.svg", "summary.csv", "summary.json"} {
		_, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
	}
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, figs))
	require.Contains(t, b.String(), "FastDrain claims: paper vs measured")
	for _, h := range hostos.Profiles() {
		soloBound(t, h)
	}
}

// soloBound checks issue 19's target on host profile h at quick scale: with a buffer that
// never drains (the Oracle programs nothing during the run), every app that does not fsync
// has a co-located p99 within 2× of its p99 alone; the three fsync apps (Apache-U, DB-U,
// ImgServer-U) are exempt (issue 31, the decision on issue 19): their excess is the host's
// writeback throttling admitting fsync writes behind the flusher's on a saturated link,
// Linux's behaviour (docs/fidelity.md).
func soloBound(t *testing.T, h string) {
	var opts []runner.Options
	nonFsync := []string{apps.ApacheF, apps.DBS, apps.ImgServerF}
	for _, a := range nonFsync {
		for _, sc := range []string{a + "+" + apps.Ungzip, a} {
			c, err := platforms.Load(platforms.Options{Preset: QuickPreset, Variant: "oracle", Sets: []string{"host.profile=" + h}})
			require.NoError(t, err)
			w, err := apps.LookupScenario(sc)
			require.NoError(t, err)
			w.Duration = 2 * sim.Second
			opts = append(opts, runner.Options{Label: sc, Config: c, Workload: runner.Workload{Scenario: w, Apps: apps.DefaultSpec().Scaled(QuickScale)}})
		}
	}
	res, errs := runner.RunAll(opts, 0, nil)
	require.NoError(t, errors.Join(errs...))
	for i, a := range nonFsync {
		co, solo := res[2*i].App(a).Latency.Quantile(0.99), res[2*i+1].App(a).Latency.Quantile(0.99)
		t.Logf("%s host, %s under the Oracle: co-located p99 %v, solo %v", h, a, dur(float64(co)), dur(float64(solo)))
		require.LessOrEqual(t, co, 2*solo, "%s host: %s's co-located p99 within 2× of solo under the Oracle", h, a)
	}
}
