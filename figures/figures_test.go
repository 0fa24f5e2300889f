package figures

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
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

// TestQualitativeResults runs the Fig. 2b, 3b and 5 experiments at quick scale (2 s on
// fastdrain-tlc-8x, the platform of `figures --quick`) and checks issue 20's assertions about
// the mechanisms, each of which engages there (checked at the end).
func TestQualitativeResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 90 whole-machine experiments")
	}
	set, err := Run(Quick(Options{Duration: 2 * sim.Second, Only: []string{"fig2b", "fig3b", "fig5"}, Apps: apps.DefaultSpec()}))
	require.NoError(t, err)
	lc := apps.LatencyCritical()
	variants := []string{"vanilla", "oracle-bg", "fd-buf", "fd-ftl", "fd", "lsb-only"}
	for _, a := range lc {
		// The never-draining Oracle programs nothing, so no read of any app meets a
		// program: its p99 is at most Vanilla's on every app, and no variant beats it by
		// more than the spread of its p99 over three seeds (what a different seed alone
		// moves it by).
		or := set.result(a, "oracle", "")
		require.Zero(t, or.Firmware.ForegroundEvictions+or.Firmware.BackgroundEvictions, "the Oracle never evicts (%s)", a)
		po := set.p99(a, "oracle", "")
		require.LessOrEqual(t, po, set.p99(a, "vanilla", ""), "Oracle ≤ Vanilla (%s)", a)
		spread := set.oracleSpread(a)
		require.False(t, math.IsNaN(spread), "the Oracle's seed runs (%s)", a)
		// One exception, with its mechanism checked: the closed loop. The Oracle never
		// programs, so Ungzip's input reads never wait behind a program and it writes more
		// than under a variant that programs; that extra write-back is load the app's own
		// I/O queues behind on the host. On fastdrain-tlc-8x Oracle-BG beats the Oracle on
		// ImgServer-U by 9–22 % on each of five seeds while Ungzip writes 150 MB/s under the
		// Oracle against 123–137. Such a variant must have let Ungzip write at least 5 %
		// less, and at equal co-runner work (Ungzip open loop) it must not beat the Oracle
		// by more than the spread.
		ugz := or.App(apps.Ungzip).Bytes
		for _, v := range variants {
			p := set.p99(a, v, "")
			if p >= po-spread {
				continue
			}
			r := set.result(a, v, "")
			t.Logf("%s beats the Oracle on %s by %v (spread %v); Ungzip wrote %d B under the Oracle, %d B under %s",
				v, a, dur(po-p), dur(spread), ugz, r.App(apps.Ungzip).Bytes, v)
			require.Less(t, float64(r.App(apps.Ungzip).Bytes), 0.95*float64(ugz),
				"%s beats the Oracle on %s by more than its three-seed spread (%v) without the closed loop", v, a, dur(spread))
			pe := set.p99(a, v, equalWork.label)
			require.False(t, math.IsNaN(pe), "%s's equal-work run on %s", v, a)
			require.GreaterOrEqual(t, pe, set.p99(a, "oracle", equalWork.label)-spread,
				"at equal work %s beats the Oracle on %s by more than its three-seed spread (%v)", v, a, dur(spread))
		}
		// Vanilla evicts on demand only.
		require.Zero(t, set.result(a, "vanilla", "").Firmware.BackgroundEvictions, "Vanilla is on demand only (%s)", a)
		// Under FD-FTL every foreground eviction lands on an LSB page unless the paper's
		// bound refuses it one: no open block at an LSB page, the LSB-only region full and
		// the skip region full (ftl.Stats.FGBounded).
		ftlSt := set.result(a, "fd-ftl", "").FTL
		require.Positive(t, ftlSt.ForegroundWr, "FD-FTL evicts in the foreground (%s)", a)
		require.Equal(t, ftlSt.ForegroundWr, ftlSt.LSBForFG+ftlSt.FGBounded,
			"FD-FTL: every foreground eviction on an LSB page but those the LSB-only bound refused (%s)", a)
		// The fastdrain-small version of this test also asserted that the bound refuses under
		// 1 %. On fastdrain-tlc-8x it refuses 3–6 % in five apps' runs and 28 % in
		// ImgServer-U's: the skip region (1 block per die, fastdrain-tlc's 4 scaled by 8 and
		// rounded up) fills within the run and no GC empties it (docs/fidelity.md).
		// FD switches dirty ratios in every run whose buffer reached the high watermark
		// (the predictive upcall reports above-high by then at the latest).
		fd := set.result(a, "fd", "")
		if high := fd.Config.Firmware.Buffer.Watermarks.High * float64(fd.BufferPages); float64(fd.Buffer.PeakOccupancy) >= high {
			require.NotEmpty(t, fd.Switches, "FD's buffer reached high but it never switched ratios (%s)", a)
		}
		// The latency-aware allocator wastes fewer pages than skip-to-lsb, which wastes
		// some; the sequential allocator wastes none.
		skip := set.result(a, "lsb-only", "").FlashWasted
		require.Positive(t, skip, "skip-to-lsb wastes pages (%s)", a)
		require.Less(t, set.result(a, "fd-ftl", "").FlashWasted, skip,
			"the latency-aware allocator wastes fewer pages than skip-to-lsb (%s)", a)
		require.Zero(t, set.result(a, "fd-buf", "").FlashWasted, "sequential wastes none (%s)", a)
		// At equal co-runner work (Ungzip open loop at EqualWorkRate, the same output
		// under every variant) the time writes stall on a full SSD buffer is FD-FTL ≤
		// FD-Buf ≤ Vanilla: the hint starts FD-Buf's eviction before the victimization
		// arrives, and FD-FTL's foreground eviction programs LSB pages only. The exception
		// is the LSB-only bound's: once it refuses foreground writes an LSB page
		// (FGBounded > 0), they take the CSB/MSB pages the LSB ones left behind, slower than
		// the sequential mix, and FD-FTL may stall longer than FD-Buf (ImgServer-U,
		// docs/fidelity.md).
		ew := func(v string) *runner.Result { return set.result(a, v, equalWork.label) }
		out := ew("vanilla").App(apps.Ungzip).Bytes
		for _, v := range []string{"fd-buf", "fd-ftl", "fd"} {
			require.InDelta(t, out, ew(v).App(apps.Ungzip).Bytes, float64(out)/100, "equal work: Ungzip's output under %s (%s)", v, a)
		}
		van, buf, ftlR := ew("vanilla").Firmware.StallTime, ew("fd-buf").Firmware.StallTime, ew("fd-ftl")
		require.LessOrEqual(t, buf, van, "equal work: FD-Buf stalls no longer than Vanilla (%s)", a)
		if ftlR.FTL.FGBounded == 0 {
			require.LessOrEqual(t, ftlR.Firmware.StallTime, buf, "equal work: FD-FTL stalls no longer than FD-Buf (%s)", a)
		}
		t.Logf("%s: oracle p99 %v spread %v; fd-ftl fg %d bounded %d; waste fd-ftl %d lsb-only %d; equal-work stall %v / %v / %v (bounded %d); fd switches %d peak %d",
			a, dur(po), dur(spread), ftlSt.ForegroundWr, ftlSt.FGBounded, set.result(a, "fd-ftl", "").FlashWasted, skip,
			van, buf, ftlR.Firmware.StallTime, ftlR.FTL.FGBounded, len(fd.Switches), fd.Buffer.PeakOccupancy)
	}
	// Every mechanism the claims are about engages at this scale (issue 20 item 8): Vanilla's
	// buffer fills, every FastDrain variant evicts in the foreground, FD-FTL programs LSB
	// pages for it, FD switches dirty ratios in some app's run.
	nSwitched := 0
	for _, a := range lc {
		require.True(t, filled.happened(set.result(a, "vanilla", "")), "Vanilla's buffer fills (%s)", a)
		for _, v := range []string{"fd-buf", "fd-ftl", "fd", "lsb-only"} {
			require.True(t, foreground.happened(set.result(a, v, "")), "%s evicts in the foreground (%s)", v, a)
		}
		require.Positive(t, set.result(a, "fd-ftl", "").FTL.LSBForFG, "FD-FTL's foreground writes on LSB pages (%s)", a)
		if switched.happened(set.result(a, "fd", "")) {
			nSwitched++
		}
	}
	require.Positive(t, nSwitched, "FD switches dirty ratios in some app's run")
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
	require.Equal(t, []string{"fig2b", "fig3b", "fig5"}, names)
	dir := t.TempDir()
	require.NoError(t, WriteDir(dir, figs))
	for _, f := range []string{"fig5.csv", "fig5.json", "fig5.png", "fig2b.svg", "summary.csv", "summary.json"} {
		_, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
	}
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, figs))
	require.Contains(t, b.String(), "FastDrain claims: paper vs measured")
}
