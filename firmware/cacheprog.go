package firmware

import "github.com/fastdrain-sim/fastdrain/sim"

// Cache program (die.Spec.CacheProgram, package channel's cacheprog.go): a die takes the
// next program's data into its cache register while its array programs the page before.
// Under read_first the scheduler hands a die a program only when the die has nothing in
// the channel, so the next program's data would wait for the array; on a die with cache
// program it also hands over the next host program while the die's one transaction in the
// channel is a program (progsOut), so the channel can load its data during that program's
// tPROG. Only one: the die's cache register holds one page set. GC waits for the die as
// before (none is handed over while a GC operation waits, so GC's turns are unchanged), and
// a host read arriving meanwhile goes first in the channel but waits for the programs the
// die holds, unless it suspends them.

// cacheNext reports whether die v.Die may be handed a host program beside the program it
// holds: its dies have cache program, its one transaction in the channel is a program,
// host programs wait and no GC operation does.
func (s *scheduler) cacheNext(v *DieView) bool {
	return s.cacheProg && v.InChannel == 1 && s.dies[v.Die].progsOut == 1 && v.Programs > 0 && v.GC == 0
}

// extraOut notes op, just taken from die queue q by pick pk and handed to the channel, for
// the fold's share (shareOut) and the programs a die holds (progsOut).
func (s *scheduler) extraOut(q *dieQueue, op *flashOp, pk Pick) {
	if s.foldShare > 0 {
		s.shareOut(q, op, pk)
	} else {
		op.share = shareNone
	}
	if s.cacheProg && isProgram(op.kind) {
		q.progsOut++
	}
}

// extraDone is extraOut's other half, at op's completion on die g at now.
func (s *scheduler) extraDone(g int, op *flashOp, now sim.Time) {
	if op.share != shareNone {
		s.charge(g, op, now)
	}
	if s.cacheProg && isProgram(op.kind) {
		s.dies[g].progsOut--
	}
}

// isProgram reports whether operations of kind k program a page.
func isProgram(k opKind) bool { return k == opEvict || k == opGCProgram || k == opPad }
