package ftl

// sequential is the "sequential" allocator — one write point per plane, pages programmed in
// order whatever their kind — and, with skipLSB, "skip-to-lsb", the prior work FastDrain
// compares with: a foreground write skips the CSB/MSB pages at the write point to reach
// the next LSB page, and the skipped pages are wasted until GC erases the block.
type sequential struct {
	Space
	skipLSB bool
	planes  int
	wp      []BlockID // host write point per plane (die·Planes + plane), NoBlock if none
	rr      []int     // per die: the plane the next write tries first
}

func newSequential(s Space, skipLSB bool) *sequential {
	g := s.Geometry()
	a := &sequential{Space: s, skipLSB: skipLSB, planes: g.Planes,
		wp: make([]BlockID, g.Dies()*g.Planes), rr: make([]int, g.Dies())}
	for i := range a.wp {
		a.wp[i] = NoBlock
	}
	return a
}

// Allocate takes the next page of the write point of the die's next plane (round robin
// over planes, so consecutive pages of a die can merge into multi-plane programs). For a
// foreground write, skip-to-lsb first skips CSB/MSB pages to reach an LSB page, wasting
// them.
func (a *sequential) Allocate(_ int64, die int, purpose Purpose) (PPN, error) {
	skip := a.skipLSB && purpose == Foreground
	for try := 0; try < a.planes; try++ {
		plane := (a.rr[die] + try) % a.planes
		pi := die*a.planes + plane
		for {
			if b := a.wp[pi]; b == NoBlock || a.IsFull(b) {
				nb, ok := a.OpenBlock(die, plane)
				if !ok {
					a.wp[pi] = NoBlock
					break
				}
				a.wp[pi] = nb
			}
			b := a.wp[pi]
			if skip {
				for !a.IsFull(b) && a.Kind(a.NextPage(b)) != LSB {
					a.Skip(b)
				}
				if a.IsFull(b) {
					continue // the rest of the block was not LSB: open another
				}
			}
			a.rr[die] = (plane + 1) % a.planes
			return a.Take(b), nil
		}
	}
	return NoPage, ErrNoSpace
}

// Erased drops b if it is its plane's write point.
func (a *sequential) Erased(b BlockID) {
	die, plane, _ := a.f.g.BlockAddr(b)
	if pi := die*a.planes + plane; a.wp[pi] == b {
		a.wp[pi] = NoBlock
	}
}

// PreconditionLayout implements Preconditioner: background writes never skip, so both
// sequential allocators stripe a die's writes over its planes page by page.
func (a *sequential) PreconditionLayout() Layout { return PlaneStriped }

// Preconditioned implements Preconditioner: each plane's write point is the last block it
// opened, and the die's next write goes to plane writes mod P.
func (a *sequential) Preconditioned(die int, writes int64, last []BlockID) {
	for p, b := range last {
		if b != NoBlock {
			a.wp[die*a.planes+p] = b
		}
	}
	a.rr[die] = int(writes % int64(a.planes))
}
