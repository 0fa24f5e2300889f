package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects part of a grid: point k belongs to shard Index of Count when
// k mod Count == Index. Index is 0-based; Shard{0, 1} is the whole grid.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Whole returns the shard that holds every point, 0/1.
func Whole() Shard { return Shard{Index: 0, Count: 1} }

// ParseShard parses "i/n" with 0 ≤ i < n, e.g. "3/8" (a Slurm job array passes
// "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT", a Kubernetes indexed job
// "$JOB_COMPLETION_INDEX/<completions>").
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("--shard %q: want i/n, e.g. 0/4", s)
	}
	sh := Shard{Index: i, Count: n}
	if err := sh.Validate(); err != nil {
		return Shard{}, fmt.Errorf("--shard %q: %w", s, err)
	}
	return sh, nil
}

// Validate reports whether the shard is well formed.
func (s Shard) Validate() error {
	if s.Count < 1 || s.Count > MaxPoints {
		return fmt.Errorf("shard count %d is not in 1 … %d", s.Count, MaxPoints)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard index %d is not in 0 … %d", s.Index, s.Count-1)
	}
	return nil
}

// String returns "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Owns reports whether point k belongs to the shard.
func (s Shard) Owns(k int) bool { return k%s.Count == s.Index }

// Points returns the indices of the shard's points in a grid of size points, ascending.
func (s Shard) Points(size int) []int {
	var out []int
	for k := s.Index; k < size; k += s.Count {
		out = append(out, k)
	}
	return out
}
