package uflip

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// values returns a finding's numbers by name, failing on a repeated name.
func values(t *testing.T, f Finding) map[string]float64 {
	t.Helper()
	m := map[string]float64{}
	for _, v := range f.Values {
		_, dup := m[v.Name]
		require.False(t, dup, v.Name)
		m[v.Name] = v.Value
	}
	return m
}

// TestFindingValues: the numbers behind each verdict, on the fixtures of the tests above,
// worked by hand. Locality: focused area 16 MiB = 16777216 B at 180 µs over SW's 100 µs =
// 1.8 (limit 2), large area 128 MiB = 134217728 B at 900 µs over 180 = 5 (limit 2).
// Partitions: P=1 100 µs; worst P≤8 is P=8 at 180 µs, 1.8×; P=256 at 1000 µs, 10×.
// Parallel, SR: D=32, gain 32·100/400 = 8; RW: D=8, gain 8·1000/8000 = 1; the verdict's
// gain is the larger, 8, against 1.25. Pause, RW: reference the granularity run (no pause,
// 0 µs) at 1000 µs, longest pause 12800 µs at 200 µs, 0.2× (limit 0.8). A finding not
// evaluated has no values.
func TestFindingValues(t *testing.T) {
	sw := flat(BenchGranularity, SW, 32*kib, 100)
	loc := func(x, m float64) Point { return flat(BenchLocality, RW, x, m) }
	v := values(t, findLocality([]Point{sw, loc(1<<20, 50), loc(4<<20, 150), loc(16<<20, 180), loc(128<<20, 900)}, 32*kib))
	require.Equal(t, map[string]float64{"focused_area_bytes": 16777216, "focused_rw_mean_us": 180, "sw_mean_us": 100,
		"focused_per_sw": 1.8, "focused_per_sw_max": 2, "large_area_bytes": 134217728, "large_rw_mean_us": 900,
		"large_per_focused": 5, "large_per_focused_min": 2}, v)

	p := func(x, m float64) Point { return flat(BenchPartitioning, SW, x, m) }
	v = values(t, findPartitions([]Point{p(1, 100), p(4, 120), p(8, 180), p(256, 1000)}))
	require.Equal(t, map[string]float64{"one_partition_mean_us": 100, "few_partitions": 8, "few_partitions_mean_us": 180,
		"few_per_one": 1.8, "few_per_one_max": 2, "many_partitions": 256, "many_partitions_mean_us": 1000,
		"many_per_one": 10, "many_per_one_min": 2}, v)

	par := func(b Base, x, m float64) Point { return flat(BenchParallelism, b, x, m) }
	f := findParallel([]Point{par(RW, 1, 1000), par(RW, 8, 8000), par(SR, 1, 100), par(SR, 32, 400)})
	require.Equal(t, NotHeld, f.Verdict)
	require.Equal(t, []Value{{"sr_degree", 32}, {"sr_throughput_gain", 8}, {"rw_degree", 8}, {"rw_throughput_gain", 1},
		{"throughput_gain", 8}, {"throughput_gain_below", 1.25}}, f.Values)

	ref := flat(BenchGranularity, RW, 32*kib, 1000)
	pp := func(x, m float64) Point { return flat(BenchPause, RW, x, m) }
	v = values(t, findPause([]Point{ref, pp(100, 900), pp(12800, 200)}, 32*kib))
	require.Equal(t, map[string]float64{"rw_ref_pause_us": 0, "rw_ref_mean_us": 1000, "rw_longest_pause_us": 12800,
		"rw_paused_mean_us": 200, "rw_paused_per_ref": 0.2, "paused_per_ref": 0.2, "paused_per_ref_max": 0.8}, v)
	// Without the granularity run the shortest pause (100 µs, 900 µs) is the reference:
	// 450/900 = 0.5.
	v = values(t, findPause([]Point{pp(100, 900), pp(12800, 450)}, 32*kib))
	require.Equal(t, 100.0, v["rw_ref_pause_us"])
	require.Equal(t, 0.5, v["rw_paused_per_ref"])

	require.Empty(t, findLocality([]Point{sw}, 32*kib).Values)
}
