package uflip

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// FormatKind selects how device state is enforced before measuring (docs/sources.md §12,
// Methodology 1).
type FormatKind uint8

// The device state enforcement methods.
const (
	FormatNone       FormatKind = iota // measure the device as it is
	FormatRandom                       // whole device once, random order, nine phases
	FormatSequential                   // whole device once, in order, 128 KiB IOs
)

var formatNames = [...]string{"none", "random", "sequential"}

// String returns "none", "random" or "sequential".
func (k FormatKind) String() string {
	if int(k) < len(formatNames) {
		return formatNames[k]
	}
	return fmt.Sprintf("format(%d)", uint8(k))
}

// MarshalText implements encoding.TextMarshaler.
func (k FormatKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *FormatKind) UnmarshalText(t []byte) error {
	for i, n := range formatNames {
		if string(t) == n {
			*k = FormatKind(i)
			return nil
		}
	}
	return fmt.Errorf("format %q is not one of none, random, sequential", t)
}

// FormatChunk is the largest format IO and the unit in which the device is shuffled:
// 128 KiB (docs/sources.md §12: IO sizes halve from 128 KiB to 0.5 KiB).
const FormatChunk = 128 << 10

// FormatPhases is the number of phases of the random format, one per IO size from 128 KiB
// down to 0.5 KiB.
const FormatPhases = 9

// Format generates the IOs (all writes) that put a device into uFLIP's well-defined state.
//
// Random: the device is cut into N 128 KiB chunks, the chunks are put in a random order
// (without replacement) and dealt into nine phases of about N/9 chunks each; phase k writes
// its chunks with IOs of 128 KiB >> k (128, 64, …, 0.5 KiB), in a random order of those IOs,
// so every sector is written exactly once. Sequential: every chunk in address order with
// 128 KiB IOs. Capacity below the last whole chunk is not written.
type Format struct {
	kind       FormatKind
	chunks     int64
	rng        *sim.RNG
	chunkPerm  Perm
	phase      int64
	phaseStart int64 // first chunk position of the phase in chunkPerm order
	unitPerm   Perm  // order of the phase's IOs
	u          int64 // next IO of the phase (or next chunk when sequential)
}

// NewFormat returns the format generator for a device of capacity bytes; random orders come
// from sim.NewRNG(seed, "uflip/format").
func NewFormat(kind FormatKind, capacity int64, seed uint64) *Format {
	f := &Format{kind: kind, chunks: capacity / FormatChunk}
	if kind == FormatRandom && f.chunks > 0 {
		f.rng = sim.NewRNG(seed, "uflip/format")
		f.chunkPerm = NewPerm(uint64(f.chunks), f.rng)
		f.startPhase(0)
	}
	return f
}

// phaseBounds returns the chunk positions [lo, hi) of phase k.
func (f *Format) phaseBounds(k int64) (lo, hi int64) {
	return k * f.chunks / FormatPhases, (k + 1) * f.chunks / FormatPhases
}

func (f *Format) startPhase(k int64) {
	lo, hi := f.phaseBounds(k)
	f.phase, f.phaseStart, f.u = k, lo, 0
	f.unitPerm = NewPerm(uint64((hi-lo)<<k), f.rng)
}

// Len returns the total number of IOs the format issues.
func (f *Format) Len() int64 {
	switch f.kind {
	case FormatSequential:
		return f.chunks
	case FormatRandom:
		var n int64
		for k := range int64(FormatPhases) {
			lo, hi := f.phaseBounds(k)
			n += (hi - lo) << k
		}
		return n
	}
	return 0
}

// Next returns the next format IO, or false when the device has been written.
func (f *Format) Next() (IO, bool) {
	const chunkSectors = FormatChunk / SectorSize
	switch f.kind {
	case FormatSequential:
		if f.u >= f.chunks {
			return IO{}, false
		}
		c := f.u
		f.u++
		return IO{Pattern: 1, Base: SW, Op: OpWrite, LBA: c * chunkSectors, Sectors: chunkSectors}, true
	case FormatRandom:
		for f.chunks > 0 && f.u >= int64(f.unitPerm.Len()) {
			if f.phase+1 >= FormatPhases {
				return IO{}, false
			}
			f.startPhase(f.phase + 1)
		}
		if f.chunks == 0 {
			return IO{}, false
		}
		v := int64(f.unitPerm.At(uint64(f.u)))
		f.u++
		k := f.phase
		chunk := int64(f.chunkPerm.At(uint64(f.phaseStart + v>>k)))
		sectors := int64(chunkSectors >> k)
		sub := v & (1<<k - 1)
		return IO{Pattern: 1, Base: RW, Op: OpWrite, LBA: chunk*chunkSectors + sub*sectors, Sectors: sectors}, true
	}
	return IO{}, false
}

// Settle is what the executor does between runs (and repetitions) so that one run's
// after-effects — a write buffer still draining, deferred reclamation — do not leak into the
// next (docs/sources.md §12, Methodology 3).
type Settle uint8

// The ways to settle between runs.
const (
	// SettlePause idles the plan's RunPause, uFLIP's rule (100 ms by default; the paper
	// sizes the pause per device by how many sequential reads a batch of random writes
	// still slows down).
	SettlePause Settle = iota
	// SettleFlush flushes the device's write cache after a run that wrote (the Flush
	// completes once the buffered pages are on flash, with whatever reclamation that needs;
	// immediately on a drive whose buffer is durable), then idles RunPause.
	SettleFlush
)

var settleNames = [...]string{"pause", "flush"}

// String returns "pause" or "flush".
func (s Settle) String() string {
	if int(s) < len(settleNames) {
		return settleNames[s]
	}
	return fmt.Sprintf("settle(%d)", uint8(s))
}

// MarshalText implements encoding.TextMarshaler.
func (s Settle) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Settle) UnmarshalText(t []byte) error {
	for i, n := range settleNames {
		if string(t) == n {
			*s = Settle(i)
			return nil
		}
	}
	return fmt.Errorf("settle %q is not one of pause, flush", t)
}
