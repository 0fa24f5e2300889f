package sweep

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// slurm returns the variables Slurm sets in task id of --array=lo-hi:step (count tasks).
func slurm(id, count, lo, hi, step string) func(string) string {
	return envOf(envSlurmID, id, envSlurmCount, count, envSlurmMin, lo, envSlurmMax, hi, envSlurmStep, step)
}

func TestShardAutoFromSlurm(t *testing.T) {
	for _, tc := range []struct {
		name string
		flag string
		env  func(string) string
		want Shard
	}{
		// --array=0-7: task 3 is shard 3 of 8.
		{"0-based", "auto", slurm("3", "8", "0", "7", "1"), Shard{3, 8}},
		// --array=1-8: the last task, 8, is shard (8−1)/1 = 7 of 8 (i/n with the raw id
		// would ask for shard 8 of 8 and fail).
		{"1-based last", "auto", slurm("8", "8", "1", "8", "1"), Shard{7, 8}},
		// --array=10-40:10 has tasks 10, 20, 30, 40: task 30 is (30−10)/10 = shard 2 of 4.
		{"stepped", "auto", slurm("30", "4", "10", "40", "10"), Shard{2, 4}},
		// Without SLURM_ARRAY_TASK_STEP the step is 1.
		{"no step", "auto", envOf(envSlurmID, "2", envSlurmCount, "3", envSlurmMin, "1", envSlurmMax, "3"), Shard{1, 3}},
		{"count given and equal", "auto/4", slurm("1", "4", "0", "3", "1"), Shard{1, 4}},
		// Kubernetes: JOB_COMPLETION_INDEX is 0-based; the count comes from the flag.
		{"kubernetes", "auto/5", envOf(envK8sIndex, "4"), Shard{4, 5}},
		{"plain i/n ignores the environment", "1/2", slurm("3", "8", "0", "7", "1"), Shard{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := ParseShardFlag(tc.flag, tc.env)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestShardAutoErrors(t *testing.T) {
	for _, tc := range []struct {
		name, flag string
		env        func(string) string
		err        string
	}{
		{"nothing set", "auto", envOf(), "neither SLURM_ARRAY_TASK_ID"},
		{"kubernetes without count", "auto", envOf(envK8sIndex, "2"), "use --shard auto/N"},
		{"kubernetes index past count", "auto/2", envOf(envK8sIndex, "2"), "shard index 2 is not in 0 … 1"},
		// --array=1,3,4: MIN 1, MAX 4, COUNT 3, no step that makes a range.
		{"slurm list", "auto", envOf(envSlurmID, "3", envSlurmCount, "3", envSlurmMin, "1", envSlurmMax, "4"), "not a range"},
		{"slurm count differs", "auto/3", slurm("1", "4", "0", "3", "1"), "asks for 3 shards but the array has 4"},
		{"slurm missing count", "auto", envOf(envSlurmID, "1"), "SLURM_ARRAY_TASK_COUNT is not"},
		{"slurm junk", "auto", envOf(envSlurmID, "x"), `SLURM_ARRAY_TASK_ID="x" is not`},
		{"slurm id outside", "auto", slurm("9", "8", "0", "7", "1"), "task id is not in the array"},
		{"bad auto count", "auto/0", envOf(), "auto/N with N ≥ 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseShardFlag(tc.flag, tc.env)
			require.ErrorContains(t, err, tc.err)
			require.ErrorContains(t, err, "--shard")
		})
	}
}

// FuzzShardAuto fuzzes --shard auto against arbitrary scheduler variables: it never panics,
// and a shard it accepts is valid and owns the task's position in the array.
func FuzzShardAuto(f *testing.F) {
	f.Add("auto", "8", "8", "1", "8", "1", "")
	f.Add("auto/5", "", "", "", "", "", "4")
	f.Add("auto", "30", "4", "10", "40", "10", "")
	f.Add("auto", "3", "3", "1", "4", "", "")
	f.Add("auto/0", "x", "-1", "9", "2", "0", "7")
	f.Fuzz(func(t *testing.T, flag, id, count, lo, hi, step, k8s string) {
		env := envOf(envSlurmID, id, envSlurmCount, count, envSlurmMin, lo, envSlurmMax, hi, envSlurmStep, step, envK8sIndex, k8s)
		sh, _, err := ParseShardFlag(flag, env)
		if err != nil {
			return
		}
		if sh.Validate() != nil {
			t.Fatalf("ParseShardFlag(%q) with %q gave invalid shard %+v", flag, []string{id, count, lo, hi, step, k8s}, sh)
		}
	})
}
