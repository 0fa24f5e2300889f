package calibrate

import (
	"math"
	"os"
	"testing"
	"time"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// calibrationPlan returns examples/calibrate-plan.yaml's plan with its counts divided by
// div.
func calibrationPlan(t *testing.T, div int64) uflip.PlanSpec {
	t.Helper()
	b, err := os.ReadFile("../examples/calibrate-plan.yaml")
	require.NoError(t, err)
	spec := uflip.DefaultPlanSpec()
	require.NoError(t, uflip.DecodePlanSpec(b, &spec))
	c := spec.IOCount
	spec.IOCount = uflip.BaseCounts{SR: c.SR / div, RR: c.RR / div, SW: c.SW / div, RW: c.RW / div}
	spec.Format = uflip.FormatNone
	return spec
}

// fioPoints appends fio jobs to s, each a group and a session of its own: random reads at
// depth 1 and 32 and sequential writes at depth 4, 4 KiB and 128 KiB.
func fioPoints(s *Set, size int64) {
	for i, spec := range []struct {
		rw        fio.RW
		bs, depth int64
		bytes     int64
	}{{fio.RandRead, 4096, 1, 1 << 20}, {fio.RandRead, 4096, 32, 4 << 20}, {fio.Write, 128 << 10, 4, 16 << 20}} {
		j := fio.DefaultJob()
		j.Name, j.RW, j.BS, j.IODepth, j.Size, j.IOSize, j.Direct, j.IOEngine = "job", spec.rw, spec.bs, spec.depth, size, spec.bytes, true, "libaio"
		dir := uflip.OpRead
		if spec.rw == fio.Write {
			dir = uflip.OpWrite
		}
		s.Points = append(s.Points, Point{Name: "fio " + spec.rw.String(), Source: "fio" + string(rune('a'+i)),
			Pattern: "fio " + spec.rw.String(), Group: len(s.Points), fio: &fioPoint{job: &j, dir: dir}})
	}
}

// TestHiddenParametersLong: all nine parameters hidden. The measured drive is tiny with 4
// channels of 4 dies (tiny has 2 of 2), tR 80 µs and tPROG 400 µs (LSB; 58 and 558 in
// tiny), a 128-page buffer drained in the background (fastdrain policy; tiny: 256 pages,
// vanilla), tBERS 3 ms (2.274), a PCIe Gen2 × 2 link (tiny: the default Gen3 × 4) and
// 200 MHz controller cores (400). It is measured with examples/calibrate-plan.yaml (counts
// ÷ 4; with its read-back points) and three fio jobs, and fitted from tiny.
//
// Not every hidden parameter can be recovered from these measurements on this drive; each
// was checked by replaying the hidden drive with it moved (docs/calibrate.md):
//   - the buffer's size and policy change nothing a write waits on: tiny has no power-loss
//     protection and its host sends O_DIRECT writes with FUA (host.pagecache.direct_fua),
//     so every write is programmed before it completes. They must be reported not
//     identifiable.
//   - tBERS is at the edge of the write points' noise: replayed with other random
//     addresses the hidden drive's write points move by up to 9 %, and doubling or halving
//     tBERS there moves them by at most 6 %, up or down (a change of timing reorders
//     programs, GC and erases). It must be within the weak tolerance below, or reported not
//     identifiable and at tiny's.
//   - the link and the controller's clock are each identified by the read-back points (reads
//     of data just written, served from the buffer: no flash time), whose 4 KiB point is
//     mostly the firmware's steps and 256 KiB point mostly the transfer. Without them (the
//     plan before issue 36's read-back points) the two were identified only together and
//     tR absorbed the clock's share of every read's fixed cost (7 % high). The link's
//     bandwidth must be the hidden one's exactly: Gen1 × 4 moves the same 1 GB/s as Gen2 × 2
//     and differs only in its ACK and flow-control spacing (PCIe r5.0 Tables 3-7 to 3-9),
//     1.6–2.7 % on a read, below what a point shows (Identifiable); the clock is held to the
//     general rule below.
//
// The others, by how strongly the measurements identify them (Margin: the largest change
// of a point beyond its noise when the parameter doubles or halves): discrete ones
// (channels, dies) exactly; continuous ones with a margin of at least 0.3 (tR, tPROG, the
// clock: a doubling moves some point by 35 % or more beyond its noise) within 5 %, a value
// the 2^(1/16) step reaches within 2.2 %; weaker ones within a factor of 2, the step the
// identifiability test itself uses. And the fit's rms log error below 0.05.
func TestHiddenParametersLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "a fit of nine parameters simulates a few hundred machines")
	base, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	hidden := map[string]float64{"channels": 4, "dies_per_channel": 4, "t_read": 80, "t_prog": 400, "buffer_pages": 128,
		"buffer_policy": 1, "t_erase": 3000, "pcie": 202, "core_freq": 200}
	h := base
	for _, p := range Params(base.Flash.Bytes()) {
		h = setParam(t, h, p.Name, hidden[p.Name])
	}
	s := planSet(t, calibrationPlan(t, 4), 16<<20)
	for i := range s.Points {
		s.Points[i].Source = "uflip.json"
	}
	fioPoints(s, 16<<20)
	measure(t, h, s)

	t0 := time.Now()
	fit, err := Fit(s, Options{Base: base, Log: func(l string) { t.Log(l) }})
	require.NoError(t, err)
	t.Logf("%d evaluations in %v; rms log error %.4f (base %.4f)", fit.Evaluations, time.Since(t0), fit.Error, fit.BaseError)
	for _, e := range fit.Estimates {
		t.Logf("%s: hidden %s, fitted %s, identifiable %v (sensitivity %.3f, margin %.3f) by %v", e.Param.Name,
			e.Param.Format(hidden[e.Param.Name]), e.Param.Format(e.Value), e.Identifiable, e.Sensitivity, e.Margin, e.By)
	}
	got := map[string]Estimate{}
	for _, e := range fit.Estimates {
		got[e.Param.Name] = e
		want := hidden[e.Param.Name]
		switch {
		case !e.Identifiable:
			require.Equal(t, e.Base, e.Value, e.Param.Name)
		case e.Param.Name == "pcie":
			// its bandwidth, below
		case e.Param.Discrete():
			require.Equal(t, want, e.Value, e.Param.Name)
		case e.Margin >= 0.3:
			require.InEpsilon(t, want, e.Value, 0.05, e.Param.Name)
		default:
			require.InDelta(t, 0, math.Log2(e.Value/want), 1, e.Param.Name)
		}
	}
	for _, n := range []string{"channels", "dies_per_channel", "t_read", "t_prog", "pcie", "core_freq"} {
		require.True(t, got[n].Identifiable, n)
	}
	for _, n := range []string{"buffer_pages", "buffer_policy"} {
		require.False(t, got[n].Identifiable, n)
	}
	require.Equal(t, h.PCIe.BytesPerSecond(), fit.Config.PCIe.BytesPerSecond(), "the link's bandwidth")
	require.Less(t, fit.Error, 0.05)
}
