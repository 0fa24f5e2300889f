package apps

import (
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// popularity draws an index in [0, n) with Zipf-like probability: item of rank k (k = 1…n)
// is drawn with probability ∝ 1/k^alpha; alpha = 0 is uniform. math/rand/v2's Zipf needs
// an exponent above 1, and web popularity is measured near 1 (SPECweb99 uses exactly 1),
// so the CDF is tabulated. Ranks are mapped to items through a fixed random permutation so
// that the most popular items are not the first ones created (which the host lays out
// next to each other on the device).
type popularity struct {
	n    int
	cdf  []float64 // cdf[k] = P(rank ≤ k+1); nil when uniform
	item []int32   // item[rank-1]
}

// newPopularity tabulates the distribution over n items; perm shuffles ranks onto items.
func newPopularity(n int, alpha float64, perm *sim.RNG) *popularity {
	z := &popularity{n: n, item: make([]int32, n)}
	for i := range z.item {
		z.item[i] = int32(i)
	}
	perm.Shuffle(n, func(i, j int) { z.item[i], z.item[j] = z.item[j], z.item[i] })
	if alpha == 0 {
		return z
	}
	z.cdf = make([]float64, n)
	sum := 0.0
	for k := range n {
		sum += math.Pow(float64(k+1), -alpha)
		z.cdf[k] = sum
	}
	for k := range z.cdf {
		z.cdf[k] /= sum
	}
	z.cdf[n-1] = 1
	return z
}

// draw returns one item.
func (z *popularity) draw(r *sim.RNG) int {
	if z.cdf == nil {
		return int(z.item[r.IntN(z.n)])
	}
	u := r.Float64()
	lo, hi := 0, z.n-1 // smallest k with cdf[k] > u
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if z.cdf[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return int(z.item[lo])
}
