package flashbench

import (
	"fmt"
	"github.com/fastdrain-sim/fastdrain/report"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Result is what a run measured.
type Result struct {
	Config   Config
	Elapsed  sim.Time // simulated time from the first submission to the last completion
	Events   uint64   // engine events fired
	Ops      [3]int64 // completed operations by channel.Kind
	Pages    [3]int64 // pages touched by kind (a multi-plane operation touches one per plane)
	Bytes    int64    // data bytes moved on the buses (reads out, programs in)
	Latency  [3]*sim.Histogram
	All      *sim.Histogram
	Channels []*channel.Channel
	// Percentiles, when set (flashbench --percentiles), replaces the latency percentiles of
	// Summary, JSON and SummaryCSV; nil keeps each one's default set.
	Percentiles report.Percentiles
}

// cursor is the write position of one plane of one die.
type cursor struct {
	block, page int
}

// bench is the closed-loop driver: it is the Done handler of every transaction.
type bench struct {
	cfg       Config
	eng       *sim.Engine
	rng       *sim.RNG
	chans     []*channel.Channel
	dies      int // dies per channel
	planes    int
	spec      die.Spec
	pages     int      // pages a block: PagesPerBlock, or SLCPages in SLC mode
	cursors   []cursor // per (global die, plane)
	erased    []bool   // per (global die, plane, block): erased and not programmed since
	submitted int64
	stamp     uint64
	res       *Result
	allPlanes []int // 0 … planes−1
}

// Run builds the array, runs the stream to completion and returns the measurements.
func Run(cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	eng := sim.NewEngine()
	b := &bench{cfg: cfg, eng: eng, rng: sim.NewRNG(cfg.Seed, "flashbench"),
		dies: cfg.Channel.Dies, planes: cfg.Channel.Die.Planes, spec: cfg.Channel.Die, pages: cfg.Channel.Die.PagesPerBlock}
	if cfg.SLC {
		b.pages = cfg.Channel.Die.SLCPages()
	}
	b.res = &Result{Config: cfg, All: &sim.Histogram{Name: "all"}}
	for k := range b.res.Latency {
		b.res.Latency[k] = &sim.Histogram{Name: channel.Kind(k).String()}
	}
	for i := 0; i < cfg.Channels; i++ {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), cfg.Channel)
		if err != nil {
			return nil, err
		}
		b.chans = append(b.chans, ch)
	}
	b.res.Channels = b.chans
	if cfg.Observe != nil {
		var rs []*sim.Resource
		for _, ch := range b.chans {
			rs = append(rs, ch.Bus())
			for d := 0; d < ch.NumDies(); d++ {
				rs = append(rs, ch.Die(d).Array())
			}
		}
		cfg.Observe(rs)
	}
	for p := 0; p < b.planes; p++ {
		b.allPlanes = append(b.allPlanes, p)
	}
	total := cfg.Channels * b.dies * b.planes
	b.cursors = make([]cursor, total)
	b.erased = make([]bool, total*b.spec.BlocksPerPlane)
	for i := range b.erased {
		b.erased[i] = true // dies start erased
	}
	n := 1
	if cfg.MultiPlane {
		n = b.planes
	}
	qd := int64(cfg.QueueDepth)
	if qd > cfg.Ops {
		qd = cfg.Ops
	}
	for i := int64(0); i < qd; i++ {
		tx := &channel.Transaction{Addrs: make([]die.Addr, 0, n), Stamps: make([]uint64, 0, n), Done: b}
		b.issue(tx)
	}
	eng.Run()
	b.res.Elapsed = eng.Now()
	b.res.Events = eng.Fired()
	return b.res, nil
}

// HandleEvent receives a completed transaction, records it and issues the next operation.
func (b *bench) HandleEvent(ev *sim.Event) {
	tx := ev.Data.(*channel.Transaction)
	lat := int64(tx.Latency())
	b.res.Latency[tx.Kind].Record(lat)
	b.res.All.Record(lat)
	b.res.Ops[tx.Kind]++
	b.res.Pages[tx.Kind] += int64(len(tx.Addrs))
	if tx.Kind != channel.Erase {
		b.res.Bytes += int64(len(tx.Addrs) * b.spec.PageSize)
	}
	if b.submitted < b.cfg.Ops {
		b.issue(tx)
	}
}

// issue fills tx with the next operation on a random die and submits it.
func (b *bench) issue(tx *channel.Transaction) {
	b.submitted++
	g := b.rng.IntN(b.cfg.Channels * b.dies)
	ch, d := g/b.dies, g%b.dies
	tx.Die = d
	tx.Addrs = tx.Addrs[:0]
	tx.Stamps = tx.Stamps[:0]
	tx.SLC = b.cfg.SLC
	w := b.rng.IntN(b.cfg.ReadWeight + b.cfg.ProgramWeight + b.cfg.EraseWeight)
	planes := b.allPlanes
	if !b.cfg.MultiPlane {
		planes = b.allPlanes[b.rng.IntN(b.planes):][:1]
	}
	switch {
	case w < b.cfg.ReadWeight:
		b.read(tx, planes)
	case w < b.cfg.ReadWeight+b.cfg.ProgramWeight:
		b.program(tx, g, planes)
	default:
		if !b.erase(tx, g, planes) {
			b.program(tx, g, planes)
		}
	}
	b.chans[ch].Submit(tx)
}

// read targets a uniformly random block and page (erased pages read back as erased; the
// array time is the same).
func (b *bench) read(tx *channel.Transaction, planes []int) {
	tx.Kind = channel.Read
	tx.MaySuspend = true // a host-like read: it suspends a program or erase when the die has suspend
	blk := b.rng.IntN(b.spec.BlocksPerPlane)
	pg := b.rng.IntN(b.pages)
	for _, p := range planes {
		tx.Addrs = append(tx.Addrs, die.Addr{Plane: p, Block: blk, Page: pg})
	}
}

func (b *bench) idx(g, plane int) int { return g*b.planes + plane }

// program writes the next page at the write cursor of each plane. When a cursor moves into
// a block that is not erased, the operation becomes that block's erase.
func (b *bench) program(tx *channel.Transaction, g int, planes []int) {
	c := &b.cursors[b.idx(g, planes[0])]
	if c.page == b.pages {
		next := (c.block + 1) % b.spec.BlocksPerPlane
		for _, p := range planes {
			if !b.erased[b.idx(g, p)*b.spec.BlocksPerPlane+next] {
				b.eraseBlock(tx, g, planes, next)
				return
			}
		}
		for _, p := range planes {
			cp := &b.cursors[b.idx(g, p)]
			cp.block, cp.page = next, 0
		}
	}
	tx.Kind = channel.Program
	for _, p := range planes {
		cp := &b.cursors[b.idx(g, p)]
		b.erased[b.idx(g, p)*b.spec.BlocksPerPlane+cp.block] = false
		tx.Addrs = append(tx.Addrs, die.Addr{Plane: p, Block: cp.block, Page: cp.page})
		b.stamp++
		tx.Stamps = append(tx.Stamps, b.stamp)
		cp.page++
	}
}

// erase erases the first programmed block after the write cursor, if there is one.
func (b *bench) erase(tx *channel.Transaction, g int, planes []int) bool {
	c := b.cursors[b.idx(g, planes[0])]
	for k := 1; k < b.spec.BlocksPerPlane; k++ {
		blk := (c.block + k) % b.spec.BlocksPerPlane
		if !b.erased[b.idx(g, planes[0])*b.spec.BlocksPerPlane+blk] {
			b.eraseBlock(tx, g, planes, blk)
			return true
		}
	}
	return false
}

func (b *bench) eraseBlock(tx *channel.Transaction, g int, planes []int, blk int) {
	tx.Kind = channel.Erase
	for _, p := range planes {
		b.erased[b.idx(g, p)*b.spec.BlocksPerPlane+blk] = true
		tx.Addrs = append(tx.Addrs, die.Addr{Plane: p, Block: blk})
	}
}
