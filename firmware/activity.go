package firmware

import (
	"github.com/fastdrain-sim/fastdrain/sim"
)

// hostActivity is the buffer manager's estimate of which dies the applications' I/O is
// using, for FastDrain's background eviction: the paper's firmware "estimates the average
// number of flash channels/dies that are intensively accessed by the applications' I/O
// requests. For each internal buffer eviction, we evict a limited set of pages to the
// flash dies in idle", and "schedules the background data eviction of the SSD internal
// buffer only when the flash resources are available" (Zhang et al., IEEE CAL 2020, §3 and
// §4). It keeps, per die, a count of the host flash reads sent to the die that halves every
// half-life (an exponentially decaying count).
//
// Only host reads are counted. With a write-back buffer the applications' writes never
// touch a die: they land in DRAM, and the dies their data is programmed to are the
// evictor's own choice. The reads are what waits behind a background program (a die runs
// one array operation at a time), so they are the applications' I/O the rule protects.
//
// A die is busy (intensively accessed) when its count is at least 1 (busyCount). With the
// half-life equal to the time a background program holds the die, T, that is the rule
// "a host read is expected during a program started now with probability at least one
// half": a count c of reads decaying with half-life T estimates their rate as
// λ = c·ln 2 / T (the mean of an exponential kernel), and a Poisson stream of rate λ has a
// read within T with probability 1 − e^(−λT) = 1 − 2^(−c), which is ≥ 1/2 exactly when c ≥ 1.
// One read alone makes a die busy only at its own instant (its count is 1, then decays);
// reads queued or in flight are the scheduler's own rule (scheduler.readsWaiting).
//
// The count is fixed point (countOne = one read) and decays lazily, when a die is looked at:
// by whole half-lives with a shift, and within a half-life along the chord of 2^(−x) between
// 1 and 1/2 (1 − x/2 for x in [0, 1), at most 0.086 above 2^(−x), at x ≈ 0.53), so integer
// arithmetic and the same result on every machine.
type hostActivity struct {
	halfLife sim.Time
	count    []uint64   // per die, in units of countOne, as of at[die]
	at       []sim.Time // when count was last brought up to date
}

// countOne is one host read in the fixed-point count.
const countOne = 1 << 16

// busyCount is the count at which a die is busy of host work: one read (see hostActivity).
const busyCount = countOne

// maxCount bounds a die's count (65,536 reads' worth), far above busyCount, so the
// fixed-point arithmetic never overflows.
const maxCount = countOne << 16

func newHostActivity(dies int, halfLife sim.Time) hostActivity {
	return hostActivity{halfLife: halfLife, count: make([]uint64, dies), at: make([]sim.Time, dies)}
}

// decayed returns die g's count at now (not before its last update).
func (h *hostActivity) decayed(g int, now sim.Time) uint64 {
	v := h.count[g]
	if v == 0 || now <= h.at[g] {
		return v
	}
	dt := now - h.at[g]
	k := dt / h.halfLife
	if k >= 40 {
		return 0
	}
	v >>= uint(k)
	// Within the half-life: v·(1 − r/(2T)), r/(2T) in units of 2^-16 (r < T, so the
	// fraction is below 1/2 and r·2^16 fits: T is far below 2^47 ps).
	frac := uint64(dt%h.halfLife) << 16 / uint64(2*h.halfLife)
	return v - v*frac>>16
}

// note counts a host read sent to die g at now.
func (h *hostActivity) note(g int, now sim.Time) {
	h.count[g] = min(h.decayed(g, now)+countOne, maxCount)
	h.at[g] = max(h.at[g], now)
}

// busy reports whether die g is intensively accessed by host reads at now.
func (h *hostActivity) busy(g int, now sim.Time) bool { return h.decayed(g, now) >= busyCount }
