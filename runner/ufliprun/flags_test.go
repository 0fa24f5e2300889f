package ufliprun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// defaultFlags are fastdrain uflip's flag defaults.
func defaultFlags() PlanFlags {
	return PlanFlags{Benches: "all", DeviceFormat: "random", Span: "1GiB", AutoMinBytes: "auto",
		IODivisor: 1, AutoMin: uflip.DefaultConverge().Min, AutoCap: 5116}
}

// TestPlanFromFlags: --bench locality,pause --io-divisor 4 --nbrun 2 --run-pause 1ms over
// 64MiB: uFLIP's IOCount SR 128, RR 256, SW 1024, RW 5116 divided by 4 are 32, 64, 256,
// 1279 and RW's IOIgnore 50 is 12; the span is 64 × 2^20 = 67,108,864 bytes.
func TestPlanFromFlags(t *testing.T) {
	f := defaultFlags()
	f.Benches, f.IODivisor, f.NbRun, f.RunPause, f.Span = "locality, pause", 4, 2, "1ms", "64MiB"
	spec, span, err := PlanFromFlags(f)
	require.NoError(t, err)
	require.Equal(t, int64(67_108_864), span)
	require.Equal(t, []uflip.Bench{uflip.BenchLocality, uflip.BenchPause}, spec.Benches)
	require.Equal(t, uflip.BaseCounts{SR: 32, RR: 64, SW: 256, RW: 1279}, spec.IOCount)
	require.Equal(t, uflip.BaseCounts{RW: 12}, spec.IOIgnore)
	require.Equal(t, int64(2), spec.NbRun)
	require.Equal(t, sim.Millisecond, spec.RunPause)
}

// TestPlanFromFlagsFindings: --findings without --bench runs the six benches the checks read.
func TestPlanFromFlagsFindings(t *testing.T) {
	f := defaultFlags()
	f.Findings = true
	spec, _, err := PlanFromFlags(f)
	require.NoError(t, err)
	require.Equal(t, FindingBenches, spec.Benches)
}

// TestPlanFromFlagsErrors: every bad flag is named, with what is wrong, in one error.
func TestPlanFromFlagsErrors(t *testing.T) {
	f := defaultFlags()
	f.Benches, f.DeviceFormat, f.Settle, f.RunPause, f.IODivisor, f.Span = "granularity,speed", "zeros", "nap", "-1s", 0, "big"
	f.Auto, f.AutoCap = 0.05, 10
	_, _, err := PlanFromFlags(f)
	require.Error(t, err)
	for _, want := range []string{"--bench:", "--format-device:", "--settle:", `--run-pause "-1s": want a duration`,
		"--io-divisor 0 must be at least 1", "--auto-cap 10 is below --auto-min", `--span "big": want a size`} {
		require.ErrorContains(t, err, want)
	}
}

// TestPlanFromFlagsPlanFile: a --plan file's benches stand without --bench; its YAML error
// names the file.
func TestPlanFromFlagsPlanFile(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "plan.yaml"), filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(good, []byte("benches: [order]\n"), 0o644))
	require.NoError(t, os.WriteFile(bad, []byte("io_size: [\n"), 0o644))
	f := defaultFlags()
	f.PlanFile = good
	spec, _, err := PlanFromFlags(f)
	require.NoError(t, err)
	require.Equal(t, []uflip.Bench{uflip.BenchOrder}, spec.Benches)
	f.PlanFile = bad
	_, _, err = PlanFromFlags(f)
	require.ErrorContains(t, err, "--plan "+bad+":")
}

// TestNewPlanSpan: a span larger than a device is refused naming the device and its size
// (64 MiB = 67,108,864 bytes); --auto-min-bytes auto takes twice the largest write buffer.
func TestNewPlanSpan(t *testing.T) {
	f := defaultFlags()
	devs := []*Device{{Name: "small", Capacity: 64 << 20, BufBytes: 1 << 20}}
	spec, span, err := PlanFromFlags(f)
	require.NoError(t, err)
	_, err = f.NewPlan(spec, span, devs)
	require.EqualError(t, err, "--span 1GiB (the default): larger than device small (67108864 bytes = 64MiB); give --span 64MiB or less")
	f.Span, f.Auto, f.Benches = "8MiB", 0.05, "order"
	spec, span, err = PlanFromFlags(f)
	require.NoError(t, err)
	p, err := f.NewPlan(spec, span, devs)
	require.NoError(t, err)
	require.Equal(t, int64(2<<20), p.Spec.Auto.MinBytes)
	f.AutoMinBytes = "lots"
	_, err = f.NewPlan(spec, span, devs)
	require.ErrorContains(t, err, `--auto-min-bytes "lots": want auto or a size`)
}

// FuzzPlanFromFlags: any string flags give a plan spec or an error naming a flag, never a panic.
func FuzzPlanFromFlags(f *testing.F) {
	f.Add("granularity,order", "sequential", "flush", "10ms", "64MiB", int64(2))
	f.Add("", "", "", "", "", int64(0))
	f.Add("all", "none", "pause", "-1ns", "0", int64(-3))
	f.Fuzz(func(t *testing.T, benches, format, settle, pause, span string, div int64) {
		fl := defaultFlags()
		fl.Benches, fl.DeviceFormat, fl.Settle, fl.RunPause, fl.Span, fl.IODivisor = benches, format, settle, pause, span, div
		if _, _, err := PlanFromFlags(fl); err != nil && !strings.Contains(err.Error(), "--") && !strings.Contains(err.Error(), ":") {
			t.Fatalf("error names nothing: %v", err)
		}
	})
}
