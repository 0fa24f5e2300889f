package calibrate

import (
	"testing"
	"time"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// TestHiddenParametersShort: measurements made on a machine whose parameters the fit does
// not see — tiny with tR ×2 (LSB 116 µs), tPROG ×½ (LSB 279 µs), 4 channels instead of 2
// and a 512-page buffer instead of 256 — are fitted from tiny itself, with a small uFLIP
// plan (granularity at 4 and 32 KiB, parallelism at 1 and 8 streams; 1 run a point, a flush
// between runs). Tolerances: the channel count exactly, tR and tPROG within 5 % (the
// search's finest step is 2^⅛ ≈ 9 %, so a value within half a step). The buffer is not
// identifiable from this plan and must be left at the base: tiny's 8 dies × 2 planes at
// tPROG 279 µs program about 235 MB/s, faster than one synchronous stream writes over the
// host link (a 4 KiB write costs ≥ 20 µs there, ≤ 200 MB/s), so no write ever waits for
// buffer room and the buffer's size changes nothing.
func TestHiddenParametersShort(t *testing.T) {
	base, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	hidden := setParam(t, base, "t_read", 116)
	hidden = setParam(t, hidden, "t_prog", 279)
	hidden = setParam(t, hidden, "channels", 4)
	hidden = setParam(t, hidden, "buffer_pages", 512)

	spec := uflip.DefaultPlanSpec()
	spec.Benches = []uflip.Bench{uflip.BenchGranularity, uflip.BenchParallelism}
	spec.IOSizes = []int64{4096, 32768}
	spec.Degrees = []int64{1, 8}
	spec.IOCount = uflip.BaseCounts{SR: 32, RR: 32, SW: 256, RW: 128}
	spec.IOIgnore = uflip.BaseCounts{}
	spec.NbRun = 1
	spec.Format = uflip.FormatNone
	spec.Settle = uflip.SettleFlush
	spec.RunPause = 0
	s := planSet(t, spec, 16<<20)
	measure(t, hidden, s)

	t0 := time.Now()
	fit, err := Fit(s, Options{Base: base, Params: []string{"channels", "t_read", "t_prog", "buffer_pages"},
		Log: func(l string) { t.Log(l) }})
	require.NoError(t, err)
	t.Logf("%d evaluations in %v; rms log error %.4f (base %.4f)", fit.Evaluations, time.Since(t0), fit.Error, fit.BaseError)
	got := map[string]Estimate{}
	for _, e := range fit.Estimates {
		t.Logf("%s: base %s fitted %s identifiable %v (%.3f) by %v", e.Param.Name, e.Param.Format(e.Base), e.Param.Format(e.Value),
			e.Identifiable, e.Sensitivity, e.By)
		got[e.Param.Name] = e
	}
	require.Equal(t, 4.0, got["channels"].Value)
	require.InEpsilon(t, 116, got["t_read"].Value, 0.05)
	require.InEpsilon(t, 279, got["t_prog"].Value, 0.05)
	for _, n := range []string{"channels", "t_read", "t_prog"} {
		require.True(t, got[n].Identifiable, n)
	}
	require.False(t, got["buffer_pages"].Identifiable)
	require.Equal(t, 256.0, got["buffer_pages"].Value, "left at the base")
	require.Less(t, fit.Error, 0.02)
	require.Greater(t, fit.BaseError, 0.3)
}

// TestHiddenOverheadsFromReadbacks: the read-back points alone (256 KiB written, then read
// over and over, at 4, 32 and 256 KiB; TestReadbackHasNoFlashTime) identify the link and
// the controller's clock each, and not tR. The hidden drive is tiny with a PCIe Gen2 × 2
// link (1 GB/s; tiny: Gen3 × 4) and 200 MHz cores (400). On a read served from the buffer
// the clock is a cost per command and per page (the firmware's steps) and the link a cost
// per byte, so the three sizes weigh them differently: a 4 KiB read-back is mostly the
// steps, a 256 KiB one mostly the transfer. Tolerances: the clock within 5 % (half the
// 2^⅛ step, as tR in the test above); the link's bandwidth exactly 1 GB/s — Gen1 × 4 moves
// the same bytes and differs only in its ACK and flow-control spacing (PCIe r5.0 Tables
// 3-7 to 3-9), 1.6–2.7 % on a read, below what a point can show (Identifiable), so either
// is a right answer; tR reported not identifiable and left at tiny's 58 µs: no read-back
// waits for a die.
func TestHiddenOverheadsFromReadbacks(t *testing.T) {
	base, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	hidden := setParam(t, base, "pcie", 202)
	hidden = setParam(t, hidden, "core_freq", 200)
	spec := uflip.DefaultPlanSpec()
	spec.Benches = []uflip.Bench{uflip.BenchReadback}
	spec.IOSizes = []int64{4096, 32768, 262144}
	spec.IOCount = uflip.BaseCounts{SR: 32, RR: 32, SW: 32, RW: 32}
	spec.IOIgnore = uflip.BaseCounts{}
	spec.NbRun, spec.Format, spec.Settle, spec.RunPause = 1, uflip.FormatNone, uflip.SettleFlush, 0
	s := planSet(t, spec, 16<<20)
	measure(t, hidden, s)
	t0 := time.Now()
	fit, err := Fit(s, Options{Base: base, Params: []string{"t_read", "pcie", "core_freq"}, Log: func(l string) { t.Log(l) }})
	require.NoError(t, err)
	t.Logf("%d evaluations in %v", fit.Evaluations, time.Since(t0))
	got := map[string]Estimate{}
	for _, e := range fit.Estimates {
		t.Logf("%s: fitted %s identifiable %v (margin %.3f) by %v", e.Param.Name, e.Param.Format(e.Value), e.Identifiable, e.Margin, e.By)
		got[e.Param.Name] = e
	}
	require.InEpsilon(t, 200, got["core_freq"].Value, 0.05)
	require.True(t, got["core_freq"].Identifiable)
	require.True(t, got["pcie"].Identifiable)
	require.Equal(t, hidden.PCIe.BytesPerSecond(), fit.Config.PCIe.BytesPerSecond())
	require.False(t, got["t_read"].Identifiable)
	require.Equal(t, 58.0, got["t_read"].Value)
	require.Less(t, fit.Error, 0.02)
}
