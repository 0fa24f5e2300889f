package fio

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// IO is one IO of a job: an operation, the file it goes to (an index into the job copy's
// files; 0 for a single target), a byte offset in that file and a size (zero for a flush).
type IO struct {
	Op     uflip.Op
	File   int
	Offset int64
	Size   int64
}

// span is one file's region: the bytes [start, start+length) of the file the job works in.
type span struct {
	start, length int64
}

// fileState is the generator's position in one file.
type fileState struct {
	span
	blocks  int64    // length / the alignment unit
	seq     [3]int64 // sequential position per direction, bytes from start; −1: not started
	perm    uflip.Perm
	permPos uint64
	// strided zones: the current zone's start (from span.start) and bytes done in it.
	zoneBase, zoneDone int64
	done               bool // a sequential pass with holes or zones reached the end
}

// Generator produces the IO sequence of one copy of a job. It is plain data plus an RNG
// stream; Next never allocates after the first pass.
//
// Termination: Next reports false once runtime has passed since the end of ramp_time (when
// runtime is set), once io_size bytes (default: the regions' size) have been issued after
// ramp_time, after number_ios I/Os, or when a sequential pass with holes or strided zones
// reaches the end. The clock starts at the first call to Next unless Start set it.
type Generator struct {
	job           Job
	files         []fileState
	cur           int // file of the last I/O (file_service_type)
	align         int64
	rng           *sim.RNG
	dist          *sampler
	deck          []bool // rw/randrw: true = read, shuffled per deal
	deckPos       int
	writes        int64 // writes since the last flush
	datasyncs     int64 // writes since the last fdatasync
	flushDue      bool
	trimWrite     *IO // trimwrite: the write that follows the last trim
	runLeft       int64
	runNext       IO // rw=randX:N: the next I/O of the current sequential run
	started       bool
	rampEnd, end  sim.Time // end is sim.MaxTime without runtime
	budget, spent int64    // bytes to issue after the ramp, bytes issued after it
	ios           int64    // I/Os issued (number_ios)
	stopped       bool
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
	return newGenerator(job, []span{{start, length}}, streamName(job, k, 0))
}

// streamName is the name of copy k's random stream in loop l. randrepeat=0 asks fio for a
// different sequence on every run; the simulator is deterministic, so it gets a different
// stream that is the same on every run.
func streamName(job Job, k int, l int64) string {
	n := fmt.Sprintf("fio/%s/%d", job.Name, k)
	if l > 0 {
		n += fmt.Sprintf("/loop%d", l)
	}
	if job.RandRepeatOff {
		n += "/norepeat"
	}
	return n
}

// newGenerator returns a generator over the given file regions with the named stream.
func newGenerator(job Job, spans []span, stream string) (*Generator, error) {
	g := &Generator{job: job, align: job.Align(), rng: sim.NewRNG(job.RandSeed, stream)}
	var total int64
	for i, s := range spans {
		s.length = s.length / g.align * g.align
		if s.length < job.MaxBS() {
			return nil, fmt.Errorf("job %s: largest block %d does not fit the %d-byte region of file %d", job.Name, job.MaxBS(), s.length, i)
		}
		f := fileState{span: s, blocks: s.length / g.align, seq: [3]int64{-1, -1, -1}}
		g.files = append(g.files, f)
		total += s.length
	}
	g.budget = job.IOSize
	if g.budget == 0 {
		g.budget = total
	}
	if job.TimeBased {
		g.budget = math.MaxInt64 // runtime alone ends the job (Validate requires one)
	}
	if job.RW.Mixed() {
		g.deck = newDeck(job.RWMixRead)
		g.deckPos = len(g.deck) // deal on first use
	}
	if !job.Distribution.Uniform() {
		// fio disables the random map with a non-uniform distribution (fio HOWTO,
		// random_distribution); every file has the same block count here.
		g.dist = newSampler(job.Distribution, g.files[0].blocks, g.align, g.rng)
	}
	if job.RW.Random() && !job.NoRandomMap && g.dist == nil {
		for i := range g.files {
			g.files[i].perm = uflip.NewPerm(uint64(g.files[i].blocks), g.rng)
		}
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

// Start sets the clock: the ramp ends ramp_time after now and the job runtime after that.
func (g *Generator) Start(now sim.Time) { g.startAt(now, g.job.Runtime) }

// startAt starts the clock with runtime left (a later loop has less of it).
func (g *Generator) startAt(now, runtime sim.Time) {
	g.started = true
	g.rampEnd = now + g.job.RampTime
	g.end = sim.MaxTime
	if runtime > 0 {
		g.end = g.rampEnd + runtime
	}
}

// continueFrom starts g where prev left off: the same ramp end and deadline (a later loop).
func (g *Generator) continueFrom(prev *Generator) {
	g.started, g.rampEnd, g.end = true, prev.rampEnd, prev.end
}

// RampEnd returns when the ramp ends (valid after the first Next).
func (g *Generator) RampEnd() sim.Time { return g.rampEnd }

// Stop makes every later Next report false (exitall).
func (g *Generator) Stop() { g.stopped = true }

// Spent returns the bytes issued after the ramp.
func (g *Generator) Spent() int64 { return g.spent }

// Next returns the next IO to submit at time now, or false when the job is done.
func (g *Generator) Next(now sim.Time) (IO, bool) {
	if !g.started {
		g.Start(now)
	}
	if now >= g.end || g.stopped {
		return IO{}, false
	}
	if g.flushDue {
		g.flushDue = false
		return IO{Op: uflip.OpFlush, File: g.cur}, true
	}
	if w := g.trimWrite; w != nil {
		g.trimWrite = nil
		g.countWrite()
		return *w, true
	}
	if (now >= g.rampEnd && g.spent >= g.budget) || (g.job.NumberIOs > 0 && g.ios >= g.job.NumberIOs) {
		return IO{}, false
	}
	dir := g.direction()
	io, ok := g.place(dir)
	if !ok {
		return IO{}, false
	}
	g.ios++
	if now >= g.rampEnd {
		g.spent += io.Size
		if g.job.RWSuffix > 0 && !g.job.RW.Random() {
			g.spent += g.job.RWSuffix // fio counts a sequential job's holes toward its size
		}
	}
	switch dir {
	case DirWrite:
		g.countWrite()
	case DirTrim:
		if g.job.RW == TrimWrite || g.job.RW == RandTrimWrite {
			w := io
			w.Op = uflip.OpWrite
			g.trimWrite = &w // the same blocks are written next
		}
	}
	return io, true
}

// countWrite counts a write toward fsync and fdatasync.
func (g *Generator) countWrite() {
	if g.job.Fsync > 0 {
		g.writes++
		if g.writes == g.job.Fsync {
			g.writes, g.flushDue = 0, true
		}
	}
	if g.job.Fdatasync > 0 {
		g.datasyncs++
		if g.datasyncs == g.job.Fdatasync {
			g.datasyncs, g.flushDue = 0, true
		}
	}
}

// opOf maps a direction to its operation.
var opOf = [3]uflip.Op{uflip.OpRead, uflip.OpWrite, uflip.OpTrim}

// place returns the next I/O of direction dir: a file, an offset and a size.
func (g *Generator) place(dir Dir) (IO, bool) {
	size := g.size(dir)
	if g.runLeft > 0 { // rw=randX:N: the rest of a run from one random offset
		g.runLeft--
		io := g.runNext
		io.Op, io.Size = opOf[dir], size
		f := &g.files[io.File]
		if !g.job.RWIdentical {
			io.Offset = g.runNext.Offset
			if io.Offset+size > f.start+f.length {
				io.Offset = f.start
			}
		}
		g.runNext.Offset = io.Offset + size
		if g.job.RWIdentical {
			g.runNext.Offset = io.Offset
		}
		return io, true
	}
	fi, ok := g.pickFile()
	if !ok {
		return IO{}, false
	}
	f := &g.files[fi]
	var off int64
	var found bool
	if g.job.RW.Random() && g.randomThisTime(dir) {
		off = g.randomOffset(f, dir, size)
		found = true
	} else {
		off, found = g.seqOffset(f, dir, size)
	}
	if !found {
		f.done = true
		return g.place(dir) // this file's pass is over: the next file, if any
	}
	io := IO{Op: opOf[dir], File: fi, Offset: off, Size: size}
	if g.job.RW.Random() && g.job.RWSuffix > 1 {
		g.runLeft = g.job.RWSuffix - 1
		g.runNext = io
		g.runNext.Offset = off + size
		if g.job.RWIdentical {
			g.runNext.Offset = off
		}
	}
	return io, true
}

// pickFile chooses the file of the next I/O (file_service_type): round robin (fio's
// default), sequential (finish one file's pass first) or random. Files whose pass is over
// are skipped; false when every file is done.
func (g *Generator) pickFile() (int, bool) {
	n := len(g.files)
	switch g.job.FileService {
	case "random":
		live := 0
		for i := range g.files {
			if !g.files[i].done {
				live++
			}
		}
		if live == 0 {
			return 0, false
		}
		k := g.rng.IntN(live)
		for i := range g.files {
			if !g.files[i].done {
				if k == 0 {
					g.cur = i
					return i, true
				}
				k--
			}
		}
	case "sequential":
		for i := range n {
			j := (g.cur + i) % n
			if !g.files[j].done {
				g.cur = j
				return j, true
			}
		}
		return 0, false
	}
	for i := 1; i <= n; i++ {
		j := (g.cur + i) % n
		if n == 1 {
			j = 0
		}
		if !g.files[j].done {
			g.cur = j
			return j, true
		}
	}
	return 0, false
}

// randomThisTime applies percentage_random: whether this I/O of a random job is random.
func (g *Generator) randomThisTime(dir Dir) bool {
	if !g.job.PctRandomSet {
		return true
	}
	p := g.job.PctRandom[dir]
	return p >= 100 || (p > 0 && g.rng.Int64N(100) < p)
}

// size draws the next I/O's size of direction dir.
func (g *Generator) size(dir Dir) int64 {
	s := g.job.Sizes(dir)
	switch {
	case s.RangeMax > 0:
		return s.BS * (1 + g.rng.Int64N(s.RangeMax/s.BS))
	case len(s.Split) > 0:
		r := g.rng.Int64N(100)
		for _, b := range s.Split {
			if r < b.Pct {
				return b.Size
			}
			r -= b.Pct
		}
	}
	return s.BS
}

// zone returns the part of f the next I/O may use: the whole region, or with
// zonemode=strided the current zone (fio HOWTO, zonemode: I/O stays in a zone until
// zonesize bytes are transferred, then zoneskip bytes are skipped).
func (g *Generator) zone(f *fileState) (lo, hi int64, ok bool) {
	if g.job.ZoneMode != "strided" {
		return 0, f.length, true
	}
	zr := g.job.ZoneRange
	if zr == 0 {
		zr = g.job.ZoneSize
	}
	if f.zoneDone >= g.job.ZoneSize {
		f.zoneBase += zr + g.job.ZoneSkip
		f.zoneDone = 0
		f.seq = [3]int64{-1, -1, -1}
		if f.zoneBase >= f.length && g.job.TimeBased {
			f.zoneBase = 0
		}
	}
	if f.zoneBase >= f.length {
		return 0, 0, false
	}
	return f.zoneBase, min(f.zoneBase+zr, f.length), true
}

// randomOffset picks a random offset of an I/O of size bytes in f: a block of the random
// map (each once per pass), a draw with replacement (norandommap), or the distribution's.
// Offsets are multiples of the alignment, moved back when the I/O would pass the end.
func (g *Generator) randomOffset(f *fileState, dir Dir, size int64) int64 {
	lo, hi, ok := g.zone(f)
	if !ok {
		lo, hi = 0, f.length
	}
	var block int64
	switch {
	case g.dist != nil:
		block = g.dist.next(dir) % f.blocks
	case g.job.NoRandomMap || g.job.ZoneMode == "strided":
		block = lo/g.align + g.rng.Int64N(max((hi-lo)/g.align, 1))
	default:
		if f.permPos == f.perm.Len() {
			f.perm = uflip.NewPerm(uint64(f.blocks), g.rng) // next pass, new order
			f.permPos = 0
		}
		block = int64(f.perm.At(f.permPos))
		f.permPos++
	}
	off := block * g.align
	if off+size > f.length {
		off = (f.length - size) / g.align * g.align
	}
	if g.job.ZoneMode == "strided" {
		f.zoneDone += size
	}
	return f.start + off
}

// seqOffset returns the next sequential offset of direction dir in f. Sequential I/Os
// follow each other byte-exactly and restart at the region's start when the next would
// not fit. With rw=...:N, N bytes are added after each I/O (fio HOWTO, readwrite): a hole,
// or with N < 0 a step back (the first I/O ends N bytes before the region's end); a pass
// with holes ends at the region's end. With strided zones the pass ends after the last zone.
func (g *Generator) seqOffset(f *fileState, dir Dir, size int64) (int64, bool) {
	lo, hi, ok := g.zone(f)
	if !ok {
		return 0, false
	}
	pos := f.seq[dir]
	add := g.job.RWSuffix
	switch {
	case pos < 0 && add < 0:
		pos = hi + add // backwards from the end
	case pos < 0:
		pos = lo
	case add != 0:
		pos += add
	}
	switch {
	case add < 0 && pos < lo:
		pos = hi + add // wrap to the end again
	case pos < lo:
		pos = lo
	case pos+size > hi && add > 0 && !g.job.TimeBased && g.job.ZoneMode != "strided":
		if g.job.IOSize > 0 {
			pos = lo // io_size asks for more: wrap as fio does
		} else {
			return 0, false
		}
	case pos+size > hi && g.job.ZoneMode == "strided":
		f.zoneDone = g.job.ZoneSize // the zone is used up: move on
		return g.seqOffset(f, dir, size)
	case pos+size > hi:
		pos = lo
	}
	if pos < lo || pos+size > hi {
		return 0, false // the region cannot hold the I/O at all
	}
	f.seq[dir] = pos + size
	if g.job.ZoneMode == "strided" {
		f.zoneDone += size
	}
	return f.start + pos, true
}

// direction picks read, write or trim for the next IO.
func (g *Generator) direction() Dir {
	switch g.job.RW {
	case Read, RandRead:
		return DirRead
	case Write, RandWrite:
		return DirWrite
	case Trim, RandTrim, TrimWrite, RandTrimWrite:
		return DirTrim
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
		return DirRead
	}
	return DirWrite
}
