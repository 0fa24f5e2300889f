package firmware

import "github.com/fastdrain-sim/fastdrain/firmware/ftl"

// What each die has to do, as the firmware holds it: for diagnosis (a stalled run's
// report, platforms' stall detector), read when asked; nothing here changes the firmware.

// DieState is one die's flash work and its GC task's state.
type DieState struct {
	// Reads, Programs and GC count the operations queued in the firmware for the die and
	// not yet handed to its channel: host page reads, eviction programs (and pads), and
	// GC reads, programs and erases. InChannel counts those handed to the channel and not
	// complete; Arriving the eviction programs whose data is still leaving DRAM.
	Reads, Programs, GC, InChannel, Arriving int
	// FreeBlocks is the die's free blocks, over its planes.
	FreeBlocks int
	// GCBusy is set while the die's GC task works on a victim (GCVictim, its valid pages
	// GCToMove still to move, GCErasing once they are moved and its erase is next or on
	// the die; GCFold if the victim is an SLC block being folded); clear while it waits
	// for a plane to need GC.
	GCBusy, GCErasing, GCFold bool
	GCVictim                  ftl.BlockID
	GCToMove                  int
}

// DieStates returns every die's state, by global die index.
func (f *Firmware) DieStates() []DieState {
	out := make([]DieState, len(f.sched.dies))
	for g := range out {
		q := &f.sched.dies[g]
		s := DieState{Reads: q.reads.n, Programs: q.progs.n, GC: q.gc.n, InChannel: q.inChannel, Arriving: q.arriving,
			GCVictim: ftl.NoBlock}
		for pl := 0; pl < f.geo.Planes; pl++ {
			s.FreeBlocks += f.ftl.FreeBlocks(g, pl)
		}
		if g < len(f.gc.tasks) {
			if t := f.gc.tasks[g]; !t.idle {
				s.GCBusy, s.GCErasing, s.GCFold, s.GCVictim = true, t.erase, t.fold, t.v
				s.GCToMove = max(len(t.valid)-t.start, 0)
			}
		}
		out[g] = s
	}
	return out
}
