package figures

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
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

// TestQualitativeResults runs the Fig. 2b, 3b and 5 experiments at a short scale on the
// small platform and checks the qualitative results that hold in this model (see
// docs/fidelity.md for the ones that do not): an unbounded buffer beats Vanilla; every
// FastDrain variant beats Vanilla on Apache-U's p99; FD-Buf's early eviction stalls fewer
// writes than Vanilla's; FD-FTL's faster drain raises the co-runner's throughput; the
// skip-to-LSB prior work wastes flash pages, the latency-aware allocator fewer, the
// sequential allocator none.
func TestQualitativeResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 36 whole-machine experiments")
	}
	set, err := Run(Options{Preset: "fastdrain-small", Duration: 2 * sim.Second,
		Only: []string{"fig2b", "fig3b", "fig5"}, Apps: apps.DefaultSpec()})
	require.NoError(t, err)
	u := apps.ApacheU
	van := set.p99(u, "vanilla", "")
	require.Less(t, set.p99(u, "oracle", ""), van, "Oracle < Vanilla")
	// Issue 20's mechanism assertions. The never-draining Oracle programs nothing, so no
	// read of any app meets a program: its p99 is at most Vanilla's on every app. Vanilla
	// evicts on demand only. Under FD-FTL every foreground eviction lands on an LSB page
	// unless the paper's bound refuses it one: no open block at an LSB page, the LSB-only
	// region full and the skip region full (ftl.Stats.FGBounded); with fastdrain-small's
	// region that is rare (98 of 47,571 pages on ImgServer-U after the host-interface
	// change of issue 19, none before it; 576 of 48,274, 1.2 %, once the block layer
	// throttles write-back with blk-wbt, which changes when evictions arrive, and 472 of
	// 47,977, 0.98 %, with preemptive interrupts and wake-up placement too; 0 on the
	// other five apps. The count follows host timing, not a fixed rule).
	// FD switches dirty ratios in every run whose buffer reached the high watermark (the
	// predictive upcall reports above-high by then at the latest).
	for _, a := range apps.LatencyCritical() {
		require.LessOrEqual(t, set.p99(a, "oracle", ""), set.p99(a, "vanilla", ""), "Oracle ≤ Vanilla (%s)", a)
		or := set.result(a, "oracle", "")
		require.Zero(t, or.Firmware.ForegroundEvictions+or.Firmware.BackgroundEvictions, "the Oracle never evicts (%s)", a)
		require.Zero(t, set.result(a, "vanilla", "").Firmware.BackgroundEvictions, "Vanilla is on demand only (%s)", a)
		fd := set.result(a, "fd", "")
		high := fd.Config.Firmware.Buffer.Watermarks.High * float64(fd.BufferPages)
		ftlSt := set.result(a, "fd-ftl", "").FTL
		require.Equal(t, ftlSt.ForegroundWr, ftlSt.LSBForFG+ftlSt.FGBounded,
			"FD-FTL: every foreground eviction on an LSB page but those the LSB-only bound refused (%s)", a)
		require.Less(t, ftlSt.FGBounded*100, ftlSt.ForegroundWr, "FD-FTL: the bound refuses under 1 %% (%s)", a)
		if float64(fd.Buffer.PeakOccupancy) >= high {
			require.NotEmpty(t, fd.Switches, "FD's buffer reached high but it never switched ratios (%s)", a)
		}
	}
	for _, v := range []string{"fd-buf", "fd-ftl", "fd"} {
		require.Less(t, set.p99(u, v, ""), van, "%s < Vanilla", v)
	}
	// The hint starts FD-Buf's eviction before the victimization arrives, so fewer writes
	// find the buffer full than under Vanilla's on-demand eviction.
	require.Less(t, set.result(u, "fd-buf", "").Firmware.Stalls, set.result(u, "vanilla", "").Firmware.Stalls)
	// The closed loop that keeps FD-FTL from beating FD-Buf here (docs/fidelity.md): its
	// faster drain lets Ungzip, whose input reads wait behind programs, write more.
	require.Greater(t, set.result(u, "fd-ftl", "").Throughput(apps.Ungzip),
		set.result(u, "fd-buf", "").Throughput(apps.Ungzip))
	for _, a := range apps.LatencyCritical() {
		skip := set.result(a, "lsb-only", "").FlashWasted
		require.Positive(t, skip, "skip-to-lsb wastes pages (%s)", a)
		require.Less(t, set.result(a, "fd-ftl", "").FlashWasted, skip,
			"the latency-aware allocator wastes fewer pages than skip-to-lsb (%s)", a)
		require.Zero(t, set.result(a, "fd-buf", "").FlashWasted, "sequential wastes none (%s)", a)
	}
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
