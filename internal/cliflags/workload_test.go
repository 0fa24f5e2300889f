package cliflags

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
)

// TestScaleTimes: the run's simulated time by flag, the values the flags' help states —
// 10 s by default (the run command's), 3 s with --quick, the paper's 30 s with --full, and
// --duration over both; --warmup 0 unless given.
func TestScaleTimes(t *testing.T) {
	for _, c := range []struct {
		s            Scale
		dur, warmup  sim.Time
		wantErrSubst string
	}{
		{Scale{Warmup: "0"}, 10 * sim.Second, 0, ""},
		{Scale{Warmup: "0", Quick: true}, 3 * sim.Second, 0, ""},
		{Scale{Warmup: "0", Full: true}, 30 * sim.Second, 0, ""},
		{Scale{Duration: "250ms", Warmup: "50ms", Quick: true}, 250 * sim.Millisecond, 50 * sim.Millisecond, ""},
		{Scale{Warmup: "0", Quick: true, Full: true}, 0, 0, "--quick and --full exclude each other"},
		{Scale{Duration: "0s", Warmup: "0"}, 0, 0, `--duration "0s": must be positive`},
		{Scale{Duration: "1s", Warmup: "-1ms"}, sim.Second, 0, `--warmup "-1ms": must not be negative`},
	} {
		dur, warmup, errs := c.s.Times()
		if c.wantErrSubst != "" {
			require.Len(t, errs, 1, "%+v", c.s)
			require.ErrorContains(t, errs[0], c.wantErrSubst)
			continue
		}
		require.Empty(t, errs, "%+v", c.s)
		require.Equal(t, c.dur, dur, "%+v", c.s)
		require.Equal(t, c.warmup, warmup, "%+v", c.s)
	}
}

// TestWorkloadResolve: the scenario named, with the flags' time and seed over its own; bad
// flags are all reported, each named, before anything runs.
func TestWorkloadResolve(t *testing.T) {
	w := Workload{Scale: Scale{Duration: "2s", Warmup: "500ms"}, Seed: 7}
	got, err := w.Resolve("db-s+ungzip")
	require.NoError(t, err)
	require.Equal(t, "db-s+ungzip", got.Scenario.Name)
	require.Equal(t, []string{"db-s", "ungzip"}, got.Scenario.Apps)
	require.Equal(t, 2*sim.Second, got.Scenario.Duration)
	require.Equal(t, 500*sim.Millisecond, got.Scenario.Warmup)
	require.Equal(t, uint64(7), got.Scenario.Seed)

	w = Workload{Scale: Scale{Duration: "-1s", Warmup: "0"}}
	_, err = w.Resolve("nope")
	require.ErrorContains(t, err, `--scenario: apps: no scenario "nope"`)
	require.ErrorContains(t, err, `--duration "-1s": must not be negative`)

	// A warm-up as long as the run would leave nothing measured: named as --warmup, not
	// as the scenario's field.
	w = Workload{Scale: Scale{Quick: true, Warmup: "3s"}}
	_, err = w.Resolve("db-s+ungzip")
	require.EqualError(t, err, `--warmup "3s": must be below the run's simulated time (3s)`)

	w = Workload{Scale: Scale{Warmup: "0"}, Apps: "testdata/no-such-apps.yaml"}
	_, err = w.Resolve("db-s+ungzip")
	require.ErrorContains(t, err, "--apps: open testdata/no-such-apps.yaml")
}

// TestWorkloadRegister: sweep's prefix words every usage but --jobs's; without a
// --scenario default the command has no --scenario.
func TestWorkloadRegister(t *testing.T) {
	cmd := &cobra.Command{Use: "sweep"}
	var w Workload
	w.Register(cmd, WorkloadUse{Where: "run points: ", Scenario: "db-s+ungzip", Seed: "seed of either kind"})
	for _, n := range []string{"scenario", "duration", "warmup", "apps", "quick", "full"} {
		require.True(t, strings.HasPrefix(cmd.Flags().Lookup(n).Usage, "run points: "), n)
	}
	require.Equal(t, "seed of either kind", cmd.Flags().Lookup("seed").Usage)
	require.Equal(t, "db-s+ungzip", cmd.Flags().Lookup("scenario").DefValue)

	cmd = &cobra.Command{Use: "compare"}
	w.Register(cmd, WorkloadUse{})
	require.Nil(t, cmd.Flags().Lookup("scenario"))
	require.Equal(t, "random seed (0 = the platform's)", cmd.Flags().Lookup("seed").Usage)
}

// FuzzWorkload: any scenario name and flag text resolves to a valid workload — a positive
// duration, a warm-up in [0, duration), the seed given — or to an error every line of which
// names a flag; never a panic.
func FuzzWorkload(f *testing.F) {
	f.Add("db-s+ungzip", "2s", "500ms", false, false, uint64(7))
	f.Add("apache-u+ungzip", "", "0", true, false, uint64(0))
	f.Add("nope", "-1s", "1h", true, true, uint64(1))
	f.Add("", "10", "", false, true, uint64(0))
	f.Fuzz(func(t *testing.T, scenario, duration, warmup string, quick, full bool, seed uint64) {
		w := Workload{Scale: Scale{Duration: duration, Warmup: warmup, Quick: quick, Full: full}, Seed: seed}
		got, err := w.Resolve(scenario)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "--") {
					t.Fatalf("error line %q names no flag (whole error %q)", line, err)
				}
			}
			return
		}
		sc := got.Scenario
		if sc.Name != scenario || sc.Duration <= 0 || sc.Warmup < 0 || sc.Warmup >= sc.Duration {
			t.Fatalf("Resolve(%q) with %+v = %+v", scenario, w, sc)
		}
		if seed != 0 && sc.Seed != seed {
			t.Fatalf("seed %d, scenario's %d", seed, sc.Seed)
		}
	})
}
