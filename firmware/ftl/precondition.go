package ftl

import (
	"fmt"
	"math/bits"
	"runtime"

	"github.com/fastdrain-sim/fastdrain/internal/parallel"
)

// Precondition fills the device without simulating any I/O: the first fill·LogicalPages
// logical pages are written once, in order (random false) or in a pseudo-random order
// without replacement (random true), then overwrite·(that many) of them are written again
// in pseudo-random order, which leaves that many invalid pages for GC to find. Pages are
// placed by the configured allocator as background writes, interleaved across dies, exactly
// as the running firmware would place them; statistics are reset afterwards. The caller
// brings the flash dies to the same state (see NextPage / CheckProgrammed, or
// PreconditionOwner for the data of each page).
//
// On a fresh FTL whose allocator implements Preconditioner, the placement is computed in
// closed form from the allocator's Layout (see fastPrecondition): the map,
// reverse map and block states are written in one sequential pass each, with no per-page
// allocation, the two big passes shared among GOMAXPROCS goroutines (build time only), so a
// 400 GB device fills in a fraction of a second. The result is identical, field by field, to
// writing the pages one by one through the allocator, for any number of goroutines (tests
// check both). Any other allocator takes the general path: each write goes through its
// Allocate as a background write, in the same order.
func (f *FTL) Precondition(fill, overwrite float64, random bool, seed uint64) error {
	// With an SLC cache the image is the drive after an idle fold: every write native, the
	// cache empty and sized from the fill (slccache.go).
	slc := f.slc
	f.slc = nil
	err := f.precondition(fill, overwrite, random, seed, true)
	f.slc = slc
	if slc != nil {
		slc.stats = SLCStats{}
	}
	f.RefreshSLC()
	return err
}

// precondition is Precondition with the closed-form path optional (tests compare the two).
func (f *FTL) precondition(fill, overwrite float64, random bool, seed uint64, fast bool) error {
	if fill < 0 || fill > 1 {
		return fmt.Errorf("precondition.fill: %v must be between 0 and 1", fill)
	}
	if overwrite < 0 {
		return fmt.Errorf("precondition.overwrite: %v must not be negative", overwrite)
	}
	if f.hyb != nil {
		return f.hyb.precondition(fill, random, seed)
	}
	n := int64(fill * float64(len(f.l2p)))
	m := int64(overwrite * float64(n))
	// Per plane: the GC threshold, the LSB-only region's open blocks (spread over the
	// planes) and one more.
	open := (f.cfg.regionBlocks(f.g) + f.g.Planes - 1) / f.g.Planes
	reserve := int64(f.cfg.gcAt()+open+1) * int64(f.g.Dies()*f.g.Planes) * int64(f.g.PagesPerBlock)
	if room := (f.g.Pages() - reserve) * int64(f.k); n+m > room {
		unit := "pages"
		if f.k > 1 {
			unit = "mapping units"
		}
		return fmt.Errorf("precondition: %d writes (fill %v, overwrite %v) need more than the %d %s outside the GC reserve%s",
			n+m, fill, overwrite, room, unit, f.cfg.reserveNote())
	}
	order := newPermutation(n, seed)
	over := newPermutation(n, seed^0x9E3779B97F4A7C15)
	// The closed form places blocks by index: with bad blocks in the table (factory bad), the
	// writes go through the allocator, which skips them. It places one unit a page.
	// With placement (FDP) the writes go through it too, as handle 0's.
	if pc, ok := f.alloc.(Preconditioner); ok && fast && f.bad == 0 && f.k == 1 && f.place == nil {
		if pre, ok := f.planPrecondition(pc.PreconditionLayout(), n, m, random, order, over); ok {
			f.fastPrecondition(pc, pre, preconditionWorkers())
			f.pre = pre
			f.Stats = Stats{}
			return nil
		}
	}
	// Through the allocator: with several units a page, every UnitsPerPage consecutive
	// writes fill one page (as the buffer's eviction packs them), the last one padded if
	// the writes do not fill it.
	die := 0
	var group [MaxUnitsPerPage]int64
	ng := 0
	flush := func() error {
		if ng == 0 {
			return nil
		}
		_, err := f.WriteUnits(group[:ng], f.g.InterleavedDie(die), Background)
		die++
		ng = 0
		return err
	}
	write := func(lpn int64) error {
		for i := 0; i < ng; i++ {
			if group[i] == lpn { // an overwrite of a page in the group: the group goes first
				if err := flush(); err != nil {
					return err
				}
				break
			}
		}
		group[ng] = lpn
		if ng++; ng < f.k {
			return nil
		}
		return flush()
	}
	for i := int64(0); i < n; i++ {
		lpn := i
		if random {
			lpn = order.at(i)
		}
		if err := write(lpn); err != nil {
			return fmt.Errorf("precondition: %w", err)
		}
	}
	for i := int64(0); i < m; i++ {
		if err := write(over.at(i % n)); err != nil {
			return fmt.Errorf("precondition: %w", err)
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("precondition: %w", err)
	}
	f.Stats = Stats{WastedNow: f.Stats.WastedNow, FactoryBad: f.Stats.FactoryBad}
	if f.place != nil {
		for h := range f.place.stats {
			f.place.stats[h] = HandleStats{ReclaimUnits: f.place.stats[h].ReclaimUnits}
		}
	}
	return nil
}

// PreconditionOwner returns the logical page that preconditioning wrote to physical page p,
// whether or not p still holds its current data, and true; or false if preconditioning did
// not write p (or took the general path, which keeps no record). The page's data is version
// 1 of that logical page until its block is erased, so the firmware derives preconditioned
// pages' out-of-band stamps from it instead of storing them.
func (f *FTL) PreconditionOwner(p PPN) (lpn int64, ok bool) {
	pre := f.pre
	if pre == nil {
		return 0, false
	}
	a := f.g.Addr(p)
	k, ok := pre.index(a)
	if !ok {
		return 0, false
	}
	return pre.lpnOf(k), true
}

// preState is the closed form of a precondition on a fresh FTL: write k (0 ≤ k < n+m) goes
// to interleave slot r = k mod D (die InterleavedDie(r)) as that die's j-th write,
// j = k div D, and holds logical page lpnOf(k). Within a die, the PlaneStriped layout puts
// write j on plane j mod P as that plane's (j div P)-th page (round robin over planes, one
// page at a time); BlockFilled fills block after block, block s on plane s mod P.
type preState struct {
	g            Geometry
	n, m         int64
	random       bool
	order, over  permutation
	orderInv     int64 // order's multiplier inverted mod n
	overInv      int64 // over's multiplier inverted mod n
	byBlock      bool  // BlockFilled layout (else PlaneStriped)
	slotOfDie    []int // die → interleave slot
	dieOfSlot    []int
	total        int64 // n + m writes
	divD, divP   divider
	divB         divider
	dieWritesMin int64 // writes per slot: dieWritesMin, plus one for slots below extra
	extra        int64
}

// writes returns the number of writes on interleave slot r.
func (s *preState) writes(r int) int64 {
	if int64(r) < s.extra {
		return s.dieWritesMin + 1
	}
	return s.dieWritesMin
}

// lpnOf returns the logical page of write k.
func (s *preState) lpnOf(k int64) int64 {
	if k < s.n {
		if s.random {
			return s.order.at(k)
		}
		return k
	}
	return s.over.at((k - s.n) % s.n)
}

// index returns the write index k of the page at a, or false if preconditioning did not
// write it.
func (s *preState) index(a Addr) (int64, bool) {
	g := s.g
	r := s.slotOfDie[a.Die]
	var j int64
	if s.byBlock {
		j = (int64(a.Block)*int64(g.Planes)+int64(a.Plane))*int64(g.PagesPerBlock) + int64(a.Page)
	} else {
		j = (int64(a.Block)*int64(g.PagesPerBlock)+int64(a.Page))*int64(g.Planes) + int64(a.Plane)
	}
	if j >= s.writes(r) {
		return 0, false
	}
	return j*int64(len(s.slotOfDie)) + int64(r), true
}

// place returns the physical page of write k.
func (s *preState) place(k uint64) PPN {
	g := s.g
	j := s.divD.div(k)
	r := k - j*s.divD.d
	var plane, block, page uint64
	if s.byBlock {
		blk := s.divB.div(j)
		page = j - blk*s.divB.d
		block = s.divP.div(blk)
		plane = blk - block*s.divP.d
	} else {
		q := s.divP.div(j)
		plane = j - q*s.divP.d
		block = s.divB.div(q)
		page = q - block*s.divB.d
	}
	d := uint64(s.dieOfSlot[r])
	return PPN(((d*uint64(g.Planes)+plane)*uint64(g.BlocksPerPlane)+block)*uint64(g.PagesPerBlock) + page)
}

// planPrecondition returns the closed form of writing n pages then m overwrites, or false
// when it does not apply: the FTL is not fresh, the counts do not fit 32 bits, or some plane
// would need a block from the GC reserve (the general path then reports ErrNoSpace exactly
// where the firmware would hit it).
func (f *FTL) planPrecondition(layout Layout, n, m int64, random bool, order, over permutation) (*preState, bool) {
	g := f.g
	if f.clock != 0 || n >= 1<<32 || n+m >= 1<<32 || f.pre != nil {
		return nil, false
	}
	if m > 0 && n == 0 {
		return nil, false
	}
	D := g.Dies()
	s := &preState{g: g, n: n, m: m, random: random, order: order, over: over,
		byBlock: layout == BlockFilled, total: n + m,
		divD: newDivider(uint64(D)), divP: newDivider(uint64(g.Planes)), divB: newDivider(uint64(g.PagesPerBlock))}
	s.slotOfDie = make([]int, D)
	s.dieOfSlot = make([]int, D)
	for r := 0; r < D; r++ {
		d := g.InterleavedDie(r)
		s.dieOfSlot[r], s.slotOfDie[d] = d, r
	}
	s.dieWritesMin, s.extra = s.total/int64(D), s.total%int64(D)
	if n > 0 {
		s.orderInv = modInverse(order.a, order.n)
		s.overInv = modInverse(over.a, over.n)
	}
	// The busiest plane is slot 0's plane 0: it must not need a block of the GC reserve.
	if b := s.blocksOn(0, 0); b > int64(g.BlocksPerPlane-f.cfg.hostFloor()) {
		return nil, false
	}
	return s, true
}

// blocksOn returns how many blocks slot r opens on plane p.
func (s *preState) blocksOn(r, p int) int64 {
	B, P := int64(s.g.PagesPerBlock), int64(s.g.Planes)
	w := s.writes(r)
	if s.byBlock {
		blocks := (w + B - 1) / B
		return blocks/P + b2i(int64(p) < blocks%P)
	}
	pw := w/P + b2i(int64(p) < w%P)
	return (pw + B - 1) / B
}

// pagesIn returns how many pages slot r writes into block b (index within plane p).
func (s *preState) pagesIn(r, p, b int) int64 {
	B, P := int64(s.g.PagesPerBlock), int64(s.g.Planes)
	w := s.writes(r)
	if s.byBlock {
		first := (int64(b)*P + int64(p)) * B
		return min(max(w-first, 0), B)
	}
	pw := w/P + b2i(int64(p) < w%P)
	return min(max(pw-int64(b)*B, 0), B)
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// fastPrecondition writes the state that s describes into a fresh FTL: the block states,
// free lists and cursors, the reverse map block by block (walking each block's writes with
// modular additions), then the map in logical order; the allocator brings its own cursors
// along (Preconditioner.Preconditioned). The reverse map's blocks and the map's
// ranges are independent (each entry is a function of its index alone, written once), so
// they are filled by the build's workers (preconditionWorkers, through package parallel) in
// parallel; the result does not depend on how many there are. This is build time, before
// the engine runs: no model code runs meanwhile.
func (f *FTL) fastPrecondition(pc Preconditioner, s *preState, workers int) {
	g := f.g
	B := g.PagesPerBlock
	D := g.Dies()
	n := s.n
	// Per page of a block, the write index grows by step; lpn and the overwrite rank of a
	// first-pass write grow by fixed amounts mod n.
	step := int64(D)
	if !s.byBlock {
		step *= int64(g.Planes)
	}
	var lStep, uStep int64 // lpn step and over⁻¹ step for first-pass writes
	if n > 0 {
		lStep = step % n
		if s.random {
			lStep = mulMod(s.order.a, step%n, n)
		}
		uStep = mulMod(s.overInv, lStep, n)
	}
	var fills []blockFill
	lastOpened := make([]BlockID, g.Planes)
	for r := 0; r < D; r++ {
		die := s.dieOfSlot[r]
		for p := 0; p < g.Planes; p++ {
			pi := die*g.Planes + p
			ps := &f.planes[pi]
			nb := s.blocksOn(r, p)
			lastOpened[p] = NoBlock
			for b := 0; b < int(nb); b++ {
				id := ps.free[b]
				cnt := int(s.pagesIn(r, p, b))
				k, _ := s.index(Addr{Die: die, Plane: p, Block: int(id) % g.BlocksPerPlane, Page: 0})
				fills = append(fills, blockFill{id: id, k: k, cnt: cnt})
				mb := &f.blocks[id]
				mb.next, mb.state = uint16(cnt), stOpen
				if cnt == B {
					mb.state = stFull
				}
				last := k + int64(cnt-1)*step
				mb.age = uint32(uint64(last+1) / uint64(B))
				lastOpened[p] = id
			}
			ps.freeHead = int(nb) % len(ps.free)
			ps.freeN = len(ps.free) - int(nb)
		}
		pc.Preconditioned(die, s.writes(r), lastOpened)
	}
	f.clock = uint64(s.total)
	// The work: the reverse map's blocks in runs of about equal pages, and the map in ranges
	// of logical pages, a few of each per worker so that they share it out evenly.
	parts := int64(4 * workers)
	var tasks []func()
	perRun := (s.total + parts - 1) / parts
	for lo := 0; lo < len(fills); {
		hi, pages := lo, int64(0)
		for hi < len(fills) && (pages < perRun || hi == lo) {
			pages += int64(fills[hi].cnt)
			hi++
		}
		run := fills[lo:hi]
		tasks = append(tasks, func() {
			for i := range run {
				b := &run[i]
				b.valid = f.fillBlock(s, g.FirstPage(b.id), b.k, step, b.cnt, lStep, uStep)
			}
		})
		lo = hi
	}
	if n > 0 {
		per := (n + parts - 1) / parts
		for lo := int64(0); lo < n; lo += per {
			lo, hi := lo, min(lo+per, n)
			tasks = append(tasks, func() { f.fillMap(s, lo, hi) })
		}
	}
	parallel.For(len(tasks), workers, func(i int) { tasks[i]() })
	for _, b := range fills {
		f.blocks[b.id].valid = uint16(b.valid)
	}
}

// maxPreconditionWorkers bounds the goroutines that fill a closed-form precondition: the
// work is memory-bound, and more would mostly contend for memory bandwidth.
const maxPreconditionWorkers = 8

// preconditionWorkers returns how many goroutines fill a closed-form precondition: one per
// processor the Go scheduler runs on (GOMAXPROCS), at most maxPreconditionWorkers.
func preconditionWorkers() int {
	return min(runtime.GOMAXPROCS(0), maxPreconditionWorkers)
}

// blockFill is one block the closed form writes: its first write's index k and its page
// count, and (once filled) how many of its pages are still current.
type blockFill struct {
	id    BlockID
	k     int64
	cnt   int
	valid int
}

// fillMap writes the map of logical pages [lo, hi): each one's last write is its last
// overwrite if it has one, else its first write.
func (f *FTL) fillMap(s *preState, lo, hi int64) {
	n, m := s.n, s.m
	var kInv, u int64 // order⁻¹(lpn) and over⁻¹(lpn), advanced by modular addition
	if s.random {
		kInv = mulMod(s.orderInv, (lo-s.order.c+n)%n, n)
	}
	u = mulMod(s.overInv, (lo-s.over.c+n)%n, n)
	l2p := f.l2p[lo:hi]
	for i := range l2p {
		k := lo + int64(i)
		if s.random {
			k = kInv
		}
		if u < m {
			k = n + u + n*((m-1-u)/n)
		}
		l2p[i] = ^Unit(s.place(uint64(k))) // stored complemented (table); one unit a page
		if s.random {
			if kInv += s.orderInv; kInv >= n {
				kInv -= n
			}
		}
		if u += s.overInv; u >= n {
			u -= n
		}
	}
}

// fillBlock writes the reverse map of cnt pages from first, holding writes k, k+step, …,
// and returns how many of them are still current.
func (f *FTL) fillBlock(s *preState, first PPN, k, step int64, cnt int, lStep, uStep int64) int {
	n, m := s.n, s.m
	p2l := f.p2l[first : first+PPN(cnt)]
	valid := 0
	i := 0
	if k < n {
		// First-pass writes: lpn = order(k), current unless overwritten (over⁻¹(lpn) < m).
		lpn := k
		if s.random {
			lpn = s.order.at(k)
		}
		u := mulMod(s.overInv, (lpn-s.over.c+n)%n, n)
		for ; i < cnt && k < n; i++ {
			if u >= m {
				p2l[i] = ^uint32(lpn) // stored complemented (table)
				valid++
			} else {
				p2l[i] = ^pInvalid
			}
			k += step
			if lpn += lStep; lpn >= n {
				lpn -= n
			}
			if u += uStep; u >= n {
				u -= n
			}
		}
	}
	for ; i < cnt; i++ {
		// Overwrites: the i-th is current unless a later one (i+n) rewrites its page.
		o := k - n
		if o+n >= m {
			p2l[i] = ^uint32(s.over.at(o % n))
			valid++
		} else {
			p2l[i] = ^pInvalid
		}
		k += step
	}
	return valid
}

// divider divides numbers below 2³² by d with a multiplication: q = ⌊x·⌈2⁶⁴/d⌉ / 2⁶⁴⌋, exact
// for x, d < 2³² (the error x·(m·d − 2⁶⁴)/(d·2⁶⁴) stays below 1/d).
type divider struct {
	d, m uint64
}

func newDivider(d uint64) divider {
	if d == 1 {
		return divider{d: 1}
	}
	return divider{d: d, m: ^uint64(0)/d + 1}
}

func (v divider) div(x uint64) uint64 {
	if v.d == 1 {
		return x
	}
	hi, _ := bits.Mul64(x, v.m)
	return hi
}

// mulMod returns a·b mod n for 0 ≤ a, b < n.
func mulMod(a, b, n int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int64(bits.Rem64(hi, lo, uint64(n)))
}

// modInverse returns x with a·x ≡ 1 (mod n), for gcd(a, n) = 1 (x = 0 when n = 1).
func modInverse(a, n int64) int64 {
	if n == 1 {
		return 0
	}
	t, newT := int64(0), int64(1)
	r, newR := n, a%n
	for newR != 0 {
		q := r / newR
		t, newT = newT, t-q*newT
		r, newR = newR, r-q*newR
	}
	if t < 0 {
		t += n
	}
	return t
}

// permutation is a cheap bijection of [0, n): i ↦ (a·i + c) mod n with a coprime to n. It
// gives "random order without replacement" with O(1) memory, which matters for a device of
// a hundred million pages.
type permutation struct {
	n, a, c int64
}

func newPermutation(n int64, seed uint64) permutation {
	if n <= 1 {
		return permutation{n: max(n, 1), a: 1}
	}
	a := int64(seed%uint64(n)) | 1
	for gcd(a, n) != 1 {
		a = (a + 2) % n
		if a == 0 {
			a = 1
		}
	}
	return permutation{n: n, a: a, c: int64((seed >> 17) % uint64(n))}
}

func (p permutation) at(i int64) int64 {
	// (a·i + c) mod n in 128-bit arithmetic, so no overflow for any n.
	hi, lo := bits.Mul64(uint64(p.a), uint64(i))
	lo, carry := bits.Add64(lo, uint64(p.c), 0)
	return int64(bits.Rem64(hi+carry, lo, uint64(p.n)))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
