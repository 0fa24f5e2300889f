package fio

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// IO is one IO of a job: an operation, a byte offset and a size (zero for a flush).
type IO struct {
	Op     uflip.Op
	Offset int64
	Size   int64
}

// Generator produces the IO sequence of one copy of a job. It is plain data plus an RNG
// stream; Next never allocates after the first pass.
//
// Termination: Next reports false once runtime has passed since the end of ramp_time (when
// runtime is set) or once io_size bytes (default: the region's size) have been issued after
// ramp_time. The clock starts at the first call to Next.
type Generator struct {
	job           Job
	start, blocks int64 // region start (bytes) and its number of bs blocks
	rng           *sim.RNG
	deck          []bool // rw/randrw: true = read, shuffled per deal
	deckPos       int
	seq           [2]int64 // sequential: next block (bytes with variable sizes) per direction
	length        int64    // region length in bytes
	perm          uflip.Perm
	permPos       uint64
	writes        int64 // writes since the last flush
	flushDue      bool
	started       bool
	rampEnd, end  sim.Time // end is sim.MaxTime without runtime
	budget, spent int64    // bytes to issue after the ramp, bytes issued after it
}

// NewGenerator returns the generator of copy k (0 ≤ k < NumJobs) of job on a device of
// capacity bytes. Its random stream is sim.NewRNG(job.RandSeed, "fio/NAME/k").
func NewGenerator(job Job, capacity int64, k int) (*Generator, error) {
	if err := job.Validate(); err != nil {
		return nil, fmt.Errorf("job %s: %w", job.Name, err)
	}
	start, length, err := job.Region(capacity)
	if err != nil {
		return nil, err
	}
	if job.MaxBS() > length {
		return nil, fmt.Errorf("job %s: largest block %d does not fit the %d-byte region", job.Name, job.MaxBS(), length)
	}
	g := &Generator{job: job, start: start, blocks: length / job.BS, length: length,
		rng: sim.NewRNG(job.RandSeed, fmt.Sprintf("fio/%s/%d", job.Name, k))}
	g.budget = job.IOSize
	if g.budget == 0 {
		g.budget = length
	}
	if job.TimeBased {
		g.budget = math.MaxInt64 // runtime alone ends the job (Validate requires one)
	}
	if job.RW.Mixed() {
		g.deck = newDeck(job.RWMixRead)
		g.deckPos = len(g.deck) // deal on first use
	}
	if job.RW.Random() && !job.NoRandomMap {
		g.perm = uflip.NewPerm(uint64(g.blocks), g.rng)
	}
	return g, nil
}

// newDeck returns the smallest deck with exactly pct % reads: 100/gcd(pct, 100) cards.
func newDeck(pct int64) []bool {
	a, b := pct, int64(100)
	for b != 0 {
		a, b = b, a%b
	}
	d := make([]bool, 100/a)
	for i := range pct / a {
		d[i] = true
	}
	return d
}

// RampEnd returns when the ramp ends (valid after the first Next).
func (g *Generator) RampEnd() sim.Time { return g.rampEnd }

// Next returns the next IO to submit at time now, or false when the job is done.
func (g *Generator) Next(now sim.Time) (IO, bool) {
	if !g.started {
		g.started = true
		g.rampEnd = now + g.job.RampTime
		g.end = sim.MaxTime
		if g.job.Runtime > 0 {
			g.end = g.rampEnd + g.job.Runtime
		}
	}
	if now >= g.end {
		return IO{}, false
	}
	if g.flushDue {
		g.flushDue = false
		return IO{Op: uflip.OpFlush}, true
	}
	if now >= g.rampEnd && g.spent >= g.budget {
		return IO{}, false
	}
	op := g.direction()
	if g.job.BSRangeMax > 0 || len(g.job.BSSplit) > 0 {
		return g.nextVariable(now, op), true
	}
	var block int64
	if g.job.RW.Random() && g.job.NoRandomMap {
		block = g.rng.Int64N(g.blocks) // with replacement: fio's norandommap
	} else if g.job.RW.Random() {
		if g.permPos == g.perm.Len() {
			g.perm = uflip.NewPerm(uint64(g.blocks), g.rng) // next pass, new order
			g.permPos = 0
		}
		block = int64(g.perm.At(g.permPos))
		g.permPos++
	} else {
		block = g.seq[op]
		g.seq[op] = (block + 1) % g.blocks
	}
	if now >= g.rampEnd {
		g.spent += g.job.BS
	}
	if op == uflip.OpWrite && g.job.Fsync > 0 {
		g.writes++
		if g.writes == g.job.Fsync {
			g.writes, g.flushDue = 0, true
		}
	}
	return IO{Op: op, Offset: g.start + block*g.job.BS, Size: g.job.BS}, true
}

// nextVariable returns the next IO of a job with bsrange or bssplit: the size is drawn
// first; a random offset is a multiple of bs (the smallest size) moved back, still aligned,
// when the IO would pass the region's end; sequential IOs follow each other byte-exactly
// and restart at the region's start when the next one would not fit.
func (g *Generator) nextVariable(now sim.Time, op uflip.Op) IO {
	size := g.job.BS
	if g.job.BSRangeMax > 0 {
		size = g.job.BS * (1 + g.rng.Int64N(g.job.BSRangeMax/g.job.BS))
	} else {
		r := g.rng.Int64N(100)
		for _, b := range g.job.BSSplit {
			if r < b.Pct {
				size = b.Size
				break
			}
			r -= b.Pct
		}
	}
	var off int64
	switch {
	case g.job.RW.Random() && g.job.NoRandomMap:
		off = g.rng.Int64N(g.blocks) * g.job.BS
	case g.job.RW.Random():
		if g.permPos == g.perm.Len() {
			g.perm = uflip.NewPerm(uint64(g.blocks), g.rng)
			g.permPos = 0
		}
		off = int64(g.perm.At(g.permPos)) * g.job.BS
		g.permPos++
	default:
		if g.seq[op]+size > g.length {
			g.seq[op] = 0
		}
		off = g.seq[op]
		g.seq[op] += size
	}
	if off+size > g.length {
		off = (g.length - size) / g.job.BS * g.job.BS
	}
	if now >= g.rampEnd {
		g.spent += size
	}
	if op == uflip.OpWrite && g.job.Fsync > 0 {
		g.writes++
		if g.writes == g.job.Fsync {
			g.writes, g.flushDue = 0, true
		}
	}
	return IO{Op: op, Offset: g.start + off, Size: size}
}

// direction picks read or write for the next IO.
func (g *Generator) direction() uflip.Op {
	switch g.job.RW {
	case Read, RandRead:
		return uflip.OpRead
	case Write, RandWrite:
		return uflip.OpWrite
	}
	if g.deckPos == len(g.deck) {
		for i := len(g.deck) - 1; i > 0; i-- { // Fisher–Yates
			j := g.rng.IntN(i + 1)
			g.deck[i], g.deck[j] = g.deck[j], g.deck[i]
		}
		g.deckPos = 0
	}
	r := g.deck[g.deckPos]
	g.deckPos++
	if r {
		return uflip.OpRead
	}
	return uflip.OpWrite
}
