package uflip

import (
	"errors"
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Automatic IOIgnore and IOCount: uFLIP's open problem (seed, "Start-up and running phases":
// choosing IOCount by hand either wastes time or underestimates the mean by about 25 %).
//
// The rule, per stream of a run:
//
//  1. Start-up detection by MSER-5 (White, "An effective truncation heuristic for bias
//     reduction in simulation output", Simulation 69(6), 1997; White, Cobb and Spratt,
//     WSC 2000): group the n latencies so far into k = ⌊n/5⌋ batches of 5 and let Z_j be the
//     batch means; for every truncation d in 0 … ⌊k/2⌋ batches,
//     MSER(d) = Σ_{j≥d} (Z_j − Z̄_d)² / (k − d)², with Z̄_d the mean of Z_d … Z_{k−1}.
//     IOIgnore is 5·d* for the smallest d* that minimises MSER. The trailing n mod 5 IOs
//     take no part in the choice.
//  2. Precision by non-overlapping batch means (Law and Kelton, Simulation Modeling and
//     Analysis, 3rd ed., §9.5.3): the L = n − IOIgnore running-phase latencies, less the
//     L mod 10 right after the truncation point, form 10 batches of m = ⌊L/10⌋; the 95 %
//     confidence half-width of the running-phase mean is h = t₉·s/√10, with s the sample
//     standard deviation of the 10 batch means and t₉ = 2.262 the 0.975 quantile of
//     Student's t with 9 degrees of freedom. The achieved precision is h / (grand mean).
//     A periodic running phase (uFLIP's oscillation between cheap writes and erases) is
//     handled by the batches: once a batch spans many periods the batch means agree and h
//     shrinks.
//  3. A check counts only if MSER-5's truncation is below its bound, half the series: a
//     minimiser at the bound says the start-up may reach past it (White 1997: a
//     truncation point in the second half of the run means the run is too short), and the
//     batch means, which leave out the first L mod 10 running-phase IOs, could then miss
//     the start-up's tail that the mean still holds. (Seen on uflip-2008: a repetition whose
//     first merges fell at IOs 130–147 stopped at 288 with IOIgnore 140 and a mean of
//     5.4 ms over a 411 µs running phase.)
//  4. Stopping: the rule checks after Min IOs, then whenever the count has grown by half
//     (n ← n + ⌊n/2⌋), and stops at the first check whose precision is at most RelErr, or
//     at the run's IOCount, which is the cap. In a run that writes, a check is skipped until
//     the stream has also written MinBytes (the minimum run length, below). The chosen IOIgnore and IOCount are
//     those of the last check (at the cap: of all IOs issued).
//
// The minimum run length. A run that starts behind a buffered backlog — the previous run's
// pages still in the drive's write buffer, each write waiting for one of them to be
// evicted (with a log-block FTL, for a merge) — shows a long flat plateau until a buffer's
// worth has been written. Checked inside the plateau, the series has no spread at all, so
// the batch-means interval is 0 and the rule would stop there and report the backlog's
// cost as the run's. No rule can see a change that has not happened yet; what it needs is a
// run long enough that the plateau is at most half of it, the most MSER-5 may truncate:
// MinBytes of twice the write buffer. fastdrain uflip sets it so for its simulated devices
// (--auto-min-bytes for a real one).
//
// Ten batches and 95 % are Law and Kelton's usual choice (10 to 30 batches); the growth by
// half bounds the overshoot of IOCount at 1.5× the first sufficient count while keeping the
// number of checks logarithmic.

// mserBatch is MSER-5's batch size.
const mserBatch = 5

// ciBatches is the number of batch means in the confidence interval, and t9 the 0.975
// quantile of Student's t with ciBatches−1 = 9 degrees of freedom (2.2622, any t table).
const (
	ciBatches = 10
	t9        = 2.2621571627
)

// Converge configures the automatic IOIgnore/IOCount rule. RelErr 0 turns it off (uFLIP's
// fixed IOIgnore and IOCount). When on, each run's IOCount is the cap and its IOIgnore is
// not used.
type Converge struct {
	// RelErr is the target relative half-width of the 95 % confidence interval of the
	// running-phase mean, e.g. 0.05 for ±5 %; 0 is off.
	RelErr float64 `yaml:"rel_err"`
	// Min is the IO count of the first check; it must be at least 2·5·10 = 100 so that
	// MSER-5 may truncate up to half of the IOs and 10 batches remain. Default 128, uFLIP's
	// smallest IOCount (SR).
	Min int64 `yaml:"min"`
	// MinBytes is the minimum run length in bytes: in a run that writes, no check happens
	// before a stream has written this much (twice the drive's write buffer; see above).
	// 0: none.
	MinBytes int64 `yaml:"min_bytes"`
}

// DefaultConverge returns the rule turned off, with Min 128 (uFLIP's SR IOCount).
func DefaultConverge() Converge { return Converge{Min: 128} }

// On reports whether the rule is in use.
func (c Converge) On() bool { return c.RelErr > 0 }

// minCheck is the smallest Min the rule accepts (see Converge.Min).
const minCheck = 2 * mserBatch * ciBatches

// validate appends the problems of c under field prefix (e.g. "uflip.auto.").
func (c Converge) validate(prefix string, errs []error) []error {
	if c.RelErr < 0 || c.RelErr >= 1 || math.IsNaN(c.RelErr) {
		errs = append(errs, fmt.Errorf("%srel_err: %v is not in [0, 1) (0 is off, 0.05 is ±5 %%)", prefix, c.RelErr))
	}
	if c.On() && c.Min < minCheck {
		errs = append(errs, fmt.Errorf("%smin: %d is below %d (2 × 5 × 10: MSER-5 truncates at most half, 10 batches must remain)", prefix, c.Min, minCheck))
	}
	if c.MinBytes < 0 {
		errs = append(errs, fmt.Errorf("%smin_bytes: %d is negative", prefix, c.MinBytes))
	}
	return errs
}

// Validate reports every problem with c, each naming its field.
func (c Converge) Validate() error { return errors.Join(c.validate("", nil)...) }

// next returns the IO count of the check after one at n.
func (c Converge) next(n int64) int64 { return n + n/2 }

// Outcome is what the automatic rule chose for one run: the largest IOIgnore and IOCount
// over its streams, the worst achieved precision, and whether every stream met RelErr
// before the cap.
type Outcome struct {
	IOIgnore  int64   // start-up IOs left out, per stream (largest)
	IOCount   int64   // IOs issued, per stream (largest)
	Precision float64 // relative 95 % half-width of the running-phase mean (worst stream)
	Converged bool    // every stream reached RelErr before its cap
}

// MSER5 returns the start-up length chosen by MSER-5 for the series lats (a multiple of 5,
// at most half the series; 0 for fewer than two batches). See the rule above.
func MSER5(lats []sim.Time) int64 {
	k := len(lats) / mserBatch
	if k < 2 {
		return 0
	}
	z := make([]float64, k)
	for j := range z {
		var s int64
		for _, l := range lats[j*mserBatch : (j+1)*mserBatch] {
			s += int64(l)
		}
		z[j] = float64(s) / mserBatch
	}
	// Walk d from k−1 down to 0 with Welford's update of the mean and the sum of squared
	// deviations of z[d:], so each MSER(d) costs O(1) and equal batch means give exactly 0.
	var mean, ss float64
	best, bestD := math.Inf(1), 0
	for d := k - 1; d >= 0; d-- {
		n := float64(k - d)
		delta := z[d] - mean
		mean += delta / n
		ss += delta * (z[d] - mean)
		if d <= k/2 {
			if v := ss / (n * n); v <= best {
				best, bestD = v, d
			}
		}
	}
	return int64(bestD * mserBatch)
}

// atBound reports whether MSER-5's truncation ignore of a series of n is at its bound, half
// the series' batches: the start-up may reach past it, so the check does not count.
func atBound(ignore, n int64) bool {
	k := n / mserBatch
	return k >= 2 && ignore == mserBatch*(k/2)
}

// BatchMeans returns the grand mean of the running-phase series lats and the 95 %
// confidence half-width of its mean by 10 non-overlapping batch means (the first len mod 10
// values left out). ok is false for fewer than 10 values.
func BatchMeans(lats []sim.Time) (mean, half float64, ok bool) {
	m := len(lats) / ciBatches
	if m == 0 {
		return 0, 0, false
	}
	lats = lats[len(lats)-m*ciBatches:]
	var b [ciBatches]float64
	for j := range b {
		var s int64
		for _, l := range lats[j*m : (j+1)*m] {
			s += int64(l)
		}
		b[j] = float64(s) / float64(m)
		mean += b[j]
	}
	mean /= ciBatches
	var sq float64
	for _, v := range b {
		sq += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(sq / (ciBatches - 1))
	return mean, t9 * sd / math.Sqrt(ciBatches), true
}

// Precision returns the IOIgnore MSER-5 chooses for lats and the achieved relative
// precision of the running-phase mean (half-width / mean; +Inf when it cannot be computed,
// 0 for a zero mean with zero spread).
func Precision(lats []sim.Time) (ignore int64, prec float64) {
	ignore = MSER5(lats)
	mean, half, ok := BatchMeans(lats[ignore:])
	switch {
	case !ok:
		return ignore, math.Inf(1)
	case half == 0:
		return ignore, 0
	case mean <= 0:
		return ignore, math.Inf(1)
	}
	return ignore, half / mean
}
