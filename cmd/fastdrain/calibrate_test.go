package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// hiddenTiny are the --set overrides of the drive TestCalibrateCommand measures: tiny with
// tR ×2, tPROG ×½ (every page type) and 4 channels with half the blocks (the same raw
// capacity, as the fit's channel parameter keeps it).
var hiddenTiny = []string{"--set", "flash.die.t_read.lsb=116us", "--set", "flash.die.t_read.csb=156us",
	"--set", "flash.die.t_read.msb=214us", "--set", "flash.die.t_prog.lsb=279us", "--set", "flash.die.t_prog.csb=1100.5us",
	"--set", "flash.die.t_prog.msb=2500.5us", "--set", "flash.channels=4", "--set", "flash.die.blocks_per_plane=16"}

// TestCalibrateCommand: the loop as a user runs it. uFLIP's calibration plan and a fio job
// file run on a "real" drive (here the hidden tiny above), then calibrate fits tiny to
// their uflip.json and fio.json: the fitted configuration file loads, holds the hidden
// channel count and tR and tPROG within 5 % (the library's TestHiddenParametersShort says
// why that tolerance), and the tables and JSON hold one row per measured point.
func TestCalibrateCommand(t *testing.T) {
	dir := t.TempDir()
	u := filepath.Join(dir, "u")
	args := append([]string{"uflip", "--preset", "tiny", "--plan", "../../examples/calibrate-plan.yaml", "--bench", "granularity,parallelism",
		"--io-divisor", "16", "--span", "16MiB", "--format-device", "none", "--out", u}, hiddenTiny...)
	_, err := run(args...)
	require.NoError(t, err)
	f := filepath.Join(dir, "f")
	_, err = run(append([]string{"fio", "--preset", "tiny", "../../calibrate/testdata/jobs.fio", "--out", f}, hiddenTiny...)...)
	require.NoError(t, err)

	c := filepath.Join(dir, "c")
	out, stderr, err := runStdout("calibrate", "--preset", "tiny", "--params", "channels,t_read,t_prog", "--out", c,
		filepath.Join(u, "uflip", "tiny", "uflip.json"), filepath.Join(f, "fio", "jobs-tiny", "fio.json")) // each run's own directory
	require.NoError(t, err, stderr)
	require.Contains(t, stderr, "calibrate: round 1:")
	for _, s := range []string{"calibration: parameters", "calibration: each measured point against the fitted model",
		"fio randread-qd8 read", "granularity/RR/io_size=4096 rep 0", "never fitted", "fitted configuration: "} {
		require.Contains(t, out, s)
	}

	cfg, err := platforms.Load(platforms.Options{Files: []string{filepath.Join(c, "calibrate", "fitted.yaml")}})
	require.NoError(t, err)
	require.Equal(t, "fitted-tiny", cfg.Name)
	require.Equal(t, 4, cfg.Flash.Channels)
	require.InEpsilon(t, float64(116*sim.Microsecond), float64(cfg.Flash.Die.TRead.LSB), 0.05)
	require.InEpsilon(t, float64(279*sim.Microsecond), float64(cfg.Flash.Die.TProg.LSB), 0.05)

	var doc struct {
		Format     string
		Parameters []struct {
			Name       string
			Identified bool
		}
		Points []struct {
			Point                          string
			MeasuredUs, FittedUs, ErrorFrc float64
		}
		FittedRMS float64 `json:"fitted_rms_log_error"`
	}
	b, err := os.ReadFile(filepath.Join(c, "calibrate", "calibrate.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Equal(t, "fastdrain-calibrate/1", doc.Format)
	require.Len(t, doc.Parameters, 3)
	require.Len(t, doc.Points, 24+3, "12 granularity and 12 parallelism runs, 3 fio directions")
	require.Less(t, doc.FittedRMS, 0.05)
	csv, err := os.ReadFile(filepath.Join(c, "calibrate", "points.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(csv), "point,pattern,measured_us,base_us,fitted_us,error_frac\n"))
	require.Equal(t, 1+27, strings.Count(string(csv), "\n"))
}

// TestCalibrateBadInput: every mistake is refused before anything is simulated.
func TestCalibrateBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"calibrate"}, "requires at least 1 arg"},
		{[]string{"calibrate", "missing.json"}, "missing.json"},
		{[]string{"calibrate", "--params", "speed", "../../calibrate/testdata/uflip-small.json"}, `no parameter "speed"`},
		{[]string{"calibrate", "--rounds", "0", "../../calibrate/testdata/uflip-small.json"}, "--rounds 0 must be at least 1"},
		{[]string{"calibrate", "--device", "ssd", "../../calibrate/testdata/uflip-small.json"}, `no device "ssd"`},
		{[]string{"calibrate", "--percentiles", "99", "../../calibrate/testdata/uflip-small.json"}, "calibrate fits mean latencies"},
		{[]string{"calibrate", "--preset", "nope", "../../calibrate/testdata/uflip-small.json"}, "nope"},
	} {
		_, err := run(c.args...)
		require.Error(t, err, c.args)
		require.Contains(t, err.Error(), c.want, c.args)
	}
}
