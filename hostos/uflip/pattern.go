package uflip

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Pattern is the location part of one IO pattern: which base, how large each IO is and
// where the IOs fall. All sizes are in bytes and must be multiples of SectorSize; the
// generator works in sectors, exactly as docs/sources.md §12's formulas.
type Pattern struct {
	Base         Base  `yaml:"base"`
	IOSize       int64 `yaml:"io_size"`       // bytes per IO
	TargetOffset int64 `yaml:"target_offset"` // first byte of the target
	TargetSize   int64 `yaml:"target_size"`   // bytes; a multiple of IOSize
	IOShift      int64 `yaml:"io_shift"`      // bytes added to every LBA (0…IOSize)
	Partitions   int64 `yaml:"partitions"`    // P; 0 or 1 is one sequential stream
	Incr         int64 `yaml:"incr"`          // order: 1 sequential, 0 in place, <0 reverse, >1 gaps
}

// validate appends every problem of the pattern to errs, naming fields under prefix.
func (p Pattern) validate(prefix string, errs []error) []error {
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s%s: "+format, append([]any{prefix, field}, args...)...))
	}
	if !p.Base.valid() {
		bad("base", "%d is not one of SR, RR, SW, RW", uint8(p.Base))
	}
	sectors := func(field string, v int64, positive bool) bool {
		switch {
		case v < 0 || (positive && v == 0):
			bad(field, "%d must be positive", v)
		case v%SectorSize != 0:
			bad(field, "%d is not a multiple of %d", v, SectorSize)
		default:
			return true
		}
		return false
	}
	sizeOK := sectors("io_size", p.IOSize, true)
	sectors("target_offset", p.TargetOffset, false)
	targetOK := sectors("target_size", p.TargetSize, true)
	if sectors("io_shift", p.IOShift, false) && sizeOK && p.IOShift > p.IOSize {
		bad("io_shift", "%d exceeds io_size %d", p.IOShift, p.IOSize)
	}
	if sizeOK && targetOK && p.TargetSize%p.IOSize != 0 {
		bad("target_size", "%d is not a multiple of io_size %d", p.TargetSize, p.IOSize)
	}
	switch {
	case p.Partitions < 0:
		bad("partitions", "%d is negative", p.Partitions)
	case p.Partitions > 1 && p.Base.Random():
		bad("partitions", "%d applies only to the sequential bases SR and SW", p.Partitions)
	case p.Partitions > 1 && sizeOK && targetOK && p.TargetSize%(p.Partitions*p.IOSize) != 0:
		bad("partitions", "target_size %d is not a multiple of partitions×io_size = %d",
			p.TargetSize, p.Partitions*p.IOSize)
	}
	return errs
}

// Validate reports every problem with the pattern, each naming its field.
func (p Pattern) Validate() error { return errors.Join(p.validate("", nil)...) }

// IO is one generated IO. LBA and Sectors are in 512-byte sectors.
type IO struct {
	Pattern int // 1 or 2: which pattern of a mix produced it
	Base    Base
	Op      Op
	LBA     int64
	Sectors int64
}

// Offset returns the IO's byte offset.
func (io IO) Offset() int64 { return io.LBA * SectorSize }

// Size returns the IO's size in bytes.
func (io IO) Size() int64 { return io.Sectors * SectorSize }

// Gen generates the LBA sequence of one pattern, IO by IO, per docs/sources.md §12:
//
//	random:             LBA = TargetOffset + rand(0, TargetSize/IOSize − 1)·IOSize + IOShift
//	sequential, P ≤ 1:  rel = Incr·i·IOSize + IOShift
//	sequential, P > 1:  PS = TargetSize/P; rel = PS·(i mod P) + ((i div P)·IOSize mod PS) + IOShift
//	                    LBA = TargetOffset + (rel mod TargetSize)
//
// where i counts this pattern's IOs from 0 and mod is the non-negative remainder. A Gen is
// plain data plus an RNG stream; Next never allocates.
type Gen struct {
	base                   Base
	off, size, iosz, shift int64 // sectors
	parts, incr            int64
	blocks                 int64
	i                      int64
	rng                    *sim.RNG
}

// NewGen returns the generator of pattern p. Random bases draw from rng, which must then be
// non-nil; sequential bases ignore it. p must be valid (Validate); an invalid pattern is a
// programming error and panics.
func NewGen(p Pattern, rng *sim.RNG) *Gen {
	if err := p.Validate(); err != nil {
		panic(fmt.Sprintf("uflip: NewGen with an invalid pattern: %v", err))
	}
	if p.Base.Random() && rng == nil {
		panic("uflip: NewGen for a random base without an RNG")
	}
	return &Gen{
		base: p.Base, off: p.TargetOffset / SectorSize, size: p.TargetSize / SectorSize,
		iosz: p.IOSize / SectorSize, shift: p.IOShift / SectorSize,
		parts: p.Partitions, incr: p.Incr, blocks: p.TargetSize / p.IOSize, rng: rng,
	}
}

// Count returns how many IOs the generator has produced.
func (g *Gen) Count() int64 { return g.i }

// Next returns the pattern's next IO (Pattern field 1).
func (g *Gen) Next() IO {
	i := g.i
	g.i++
	var lba int64
	switch {
	case g.base.Random():
		lba = g.off + g.rng.Int64N(g.blocks)*g.iosz + g.shift
	case g.parts > 1:
		ps := g.size / g.parts
		rel := ps*(i%g.parts) + ((i/g.parts)*g.iosz)%ps + g.shift
		lba = g.off + mod(rel, g.size)
	default:
		rel := g.incr*i*g.iosz + g.shift
		lba = g.off + mod(rel, g.size)
	}
	return IO{Pattern: 1, Base: g.base, Op: g.base.Op(), LBA: lba, Sectors: g.iosz}
}

// mod returns the non-negative remainder of a by m > 0, so reverse order (Incr < 0) wraps
// to the end of the target.
func mod(a, m int64) int64 {
	r := a % m
	if r < 0 {
		r += m
	}
	return r
}

// Stream interleaves two patterns as a uFLIP mix: with ratio r ≥ 0, IO i of the stream
// comes from the second pattern when i mod (r+1) = 0 and from the first otherwise, so r IOs
// of the first pattern follow each IO of the second. Each pattern keeps its own counter and
// target. A Stream without a second pattern yields the first pattern's IOs.
type Stream struct {
	first, second *Gen
	ratio         int64
	i             int64
}

// NewStream returns a stream over first, mixed with second at ratio when second is non-nil.
func NewStream(first, second *Gen, ratio int64) *Stream {
	if ratio < 0 {
		panic(fmt.Sprintf("uflip: NewStream with negative ratio %d", ratio))
	}
	return &Stream{first: first, second: second, ratio: ratio}
}

// Next returns the stream's next IO; its Pattern field says which pattern produced it.
func (s *Stream) Next() IO {
	i := s.i
	s.i++
	if s.second != nil && i%(s.ratio+1) == 0 {
		io := s.second.Next()
		io.Pattern = 2
		return io
	}
	return s.first.Next()
}
