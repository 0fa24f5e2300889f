package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// Batch schedulers' array variables that "--shard auto" reads.
//
// Slurm (sbatch(1), "OUTPUT ENVIRONMENT VARIABLES"; slurm.schedmd.com/job_array.html) sets,
// in each task of a job array, SLURM_ARRAY_TASK_ID (this task's array index),
// SLURM_ARRAY_TASK_COUNT (tasks in the array), SLURM_ARRAY_TASK_MIN / _MAX (the lowest and
// highest index) and SLURM_ARRAY_TASK_STEP (the index step). Indices need not start at 0
// (--array=1-8) and may step (--array=0-30:10); a list (--array=1,3,4) has no single step.
//
// Kubernetes (an indexed Job, completionMode: Indexed; kubernetes.io/docs/tasks/job/
// indexed-parallel-processing-static) sets JOB_COMPLETION_INDEX, 0 … spec.completions−1,
// in each pod; the number of completions is not in the pod's environment.
const (
	envSlurmID    = "SLURM_ARRAY_TASK_ID"
	envSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	envSlurmMin   = "SLURM_ARRAY_TASK_MIN"
	envSlurmMax   = "SLURM_ARRAY_TASK_MAX"
	envSlurmStep  = "SLURM_ARRAY_TASK_STEP"
	envK8sIndex   = "JOB_COMPLETION_INDEX"
)

// ParseShardFlag parses a --shard value: "i/n" (ParseShard), "auto" (the shard from a Slurm
// job array's variables) or "auto/n" (the index from Slurm's or Kubernetes' variables, n
// shards; Kubernetes needs the n because it does not pass spec.completions to the pod).
// getenv reads the environment (os.Getenv in the CLI). It also returns where the shard came
// from, for the output ("" for i/n).
func ParseShardFlag(s string, getenv func(string) string) (Shard, string, error) {
	s = strings.TrimSpace(s)
	if s != "auto" && !strings.HasPrefix(s, "auto/") {
		sh, err := ParseShard(s)
		return sh, "", err
	}
	want := 0
	if rest, ok := strings.CutPrefix(s, "auto/"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 {
			return Shard{}, "", fmt.Errorf("--shard %q: want auto or auto/N with N ≥ 1 shards", s)
		}
		want = n
	}
	sh, from, err := shardFromEnv(getenv, want)
	if err != nil {
		return Shard{}, "", fmt.Errorf("--shard %s: %w", s, err)
	}
	if err := sh.Validate(); err != nil {
		return Shard{}, "", fmt.Errorf("--shard %s (%s): %w", s, from, err)
	}
	return sh, from, nil
}

// shardFromEnv derives the shard from the scheduler's variables; want is the shard count
// the user gave (0: take it from the environment).
func shardFromEnv(getenv func(string) string, want int) (Shard, string, error) {
	num := func(name string) (int, bool, error) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, true, fmt.Errorf("%s=%q is not a non-negative integer", name, v)
		}
		return n, true, nil
	}
	id, slurm, err := num(envSlurmID)
	if err != nil {
		return Shard{}, "", err
	}
	if slurm {
		return slurmShard(id, num, want)
	}
	idx, k8s, err := num(envK8sIndex)
	if err != nil {
		return Shard{}, "", err
	}
	if k8s {
		if want == 0 {
			return Shard{}, "", fmt.Errorf("%s=%d is set, but Kubernetes does not pass the number of completions: use --shard auto/N with N = the Job's spec.completions", envK8sIndex, idx)
		}
		return Shard{Index: idx, Count: want}, fmt.Sprintf("%s=%d of %d", envK8sIndex, idx, want), nil
	}
	return Shard{}, "", fmt.Errorf("neither %s (a Slurm job array) nor %s (a Kubernetes indexed Job) is set; give --shard i/n", envSlurmID, envK8sIndex)
}

// slurmShard maps a Slurm array task to its 0-based shard: index (ID − MIN) / STEP of
// COUNT. The array must be an arithmetic range (MIN + k·STEP for k < COUNT).
func slurmShard(id int, num func(string) (int, bool, error), want int) (Shard, string, error) {
	vals := map[string]int{}
	for _, name := range []string{envSlurmCount, envSlurmMin, envSlurmMax} {
		v, ok, err := num(name)
		if err != nil {
			return Shard{}, "", err
		}
		if !ok {
			return Shard{}, "", fmt.Errorf("%s is set but %s is not: not a Slurm array task?", envSlurmID, name)
		}
		vals[name] = v
	}
	count, lo, hi := vals[envSlurmCount], vals[envSlurmMin], vals[envSlurmMax]
	step, ok, err := num(envSlurmStep)
	if err != nil {
		return Shard{}, "", err
	}
	if !ok {
		step = 1
	}
	from := fmt.Sprintf("%s=%d of %d (%d-%d:%d)", envSlurmID, id, count, lo, hi, step)
	if step < 1 || count < 1 || hi < lo || (hi-lo)%step != 0 || (hi-lo)/step+1 != count {
		return Shard{}, "", fmt.Errorf("%s: the array is not a range MIN-MAX:STEP of COUNT tasks (a list such as --array=1,3,4?); give --shard i/n", from)
	}
	if id < lo || id > hi || (id-lo)%step != 0 {
		return Shard{}, "", fmt.Errorf("%s: the task id is not in the array", from)
	}
	if want != 0 && want != count {
		return Shard{}, "", fmt.Errorf("%s: --shard auto/%d asks for %d shards but the array has %d tasks", from, want, want, count)
	}
	return Shard{Index: (id - lo) / step, Count: count}, from, nil
}
