// Package sweep runs a grid of simulations over configuration keys — for example
// flash.channels × flash.ways × flash.dies_per_package — and tabulates one row of metrics
// per grid point.
//
// Place in the data flow: sweep sits beside runner, above platforms. A Spec names a base
// configuration (preset ← variant ← files ← --set overrides, as platforms.Load stacks them),
// a Grid of axes (a configuration key and its values), and the job each point runs: a
// bare flash-array benchmark (KindFlashbench, flashbench.Run on the point's flash section)
// or a whole-machine scenario (KindRun, runner.Run). Each grid point adds one
// "key=value" override per axis on top of the base. Points are independent simulations,
// each with its own engine, so they run in parallel on all cores (runner.RunAll for run
// points, a bounded worker pool for flashbench points) and results are placed by point
// index: the output never depends on the number of workers or on scheduling.
//
// Axes may also sweep the point job's own parameters under the keys "flashbench.qd",
// "flashbench.ops", "flashbench.mix", "flashbench.multi_plane", "flashbench.slc", "flashbench.seed" (flashbench
// points) and "run.duration", "run.warmup", "run.seed" (run points); every other key is a
// configuration key.
//
// Order: the grid is the cartesian product of the axes with the first axis varying
// slowest, like nested loops in axis order; point k is the k-th tuple (0-based).
//
// Sharding: point k belongs to shard i of n (0 ≤ i < n) when k mod n == i. A batch
// scheduler (a Slurm job array, a Kubernetes indexed job) runs shard $INDEX/$COUNT on each
// machine; Merge then checks that the shard files come from one Spec and together cover
// every point exactly once, and produces output byte-identical to an unsharded run.
//
// Output: a Result holds the Spec, the shard, the metric column names and one Row per
// point (axis values and metrics, or the point's error). It is written as CSV (one line
// per point) and as JSON, which ReadJSON reads back to an identical Result.
package sweep
