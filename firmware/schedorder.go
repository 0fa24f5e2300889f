package firmware

import "fmt"

// The flash scheduler's ordering seam. Each die has three queues: host reads, eviction
// programs (in allocation order) and GC operations (reads, programs and erases, in order).
// Whenever the die can take another transaction (fewer than firmware.scheduler.die_depth
// in its channel), the scheduler asks the ordering which queue's head goes next (Next),
// until it answers PickNone. Programs picked are merged into multi-plane transactions
// (firmware.scheduler.multi_plane) by the scheduler, not the ordering.

// Pick is an ordering's choice of queue.
type Pick uint8

// Picks.
const (
	PickNone    Pick = iota // hand the die nothing more now
	PickRead                // the oldest host read
	PickProgram             // the oldest eviction program
	PickGC                  // the next GC operation
)

// DieView is one die's queues as an ordering sees them. It is valid only during the call
// it is passed to.
type DieView struct {
	Die                 int // global die index
	Reads, Programs, GC int // operations queued (not yet handed to the channel)
	InChannel           int // transactions handed to the channel and not completed
	HostRun             int // programs handed over since the last GC operation
	s                   *scheduler
}

// GCUrgent reports whether a plane of the die is down to its GC reserve
// (firmware.ftl.gc_reserve free blocks), when GC must not wait.
func (v *DieView) GCUrgent() bool { return v.s.gcUrgent(v.Die) }

// SchedOrder decides the order in which a die's queued operations go to the flash.
type SchedOrder interface {
	Next(v *DieView) Pick
}

// SchedOrderDef is a registered scheduler ordering.
type SchedOrderDef struct {
	// New returns the ordering for one firmware with spec.
	New func(spec Spec) SchedOrder
}

var schedOrders = newRegistry[SchedOrderDef]("scheduler order", "firmware.scheduler.order")

// RegisterSchedOrder makes a scheduler ordering available under name to
// firmware.scheduler.order. Call it from an init function; a duplicate name panics.
func RegisterSchedOrder(name string, def SchedOrderDef) {
	if def.New == nil {
		panic(fmt.Sprintf("firmware: scheduler order %q registered without New", name))
	}
	schedOrders.register(name, def)
}

// SchedOrders returns the registered scheduler orderings' names, sorted.
func SchedOrders() []string { return schedOrders.names() }

// PriorityOrder is the built-in ordering's name (the default).
const PriorityOrder = "priority"

func init() {
	RegisterSchedOrder(PriorityOrder, SchedOrderDef{New: func(s Spec) SchedOrder {
		return priority{readFirst: s.Scheduler.ReadFirst, gcWeight: s.Scheduler.GCWeight, foldShare: s.Scheduler.FoldShare}
	}})
}

// priority is the built-in ordering. With read_first, a host read goes before every
// program and erase that has not started, whatever the channel's arbitration: a program,
// erase or GC read is handed to the channel only when the die has nothing else there, so
// none waits in the channel's queue (where a fifo channel would start it before a read
// submitted later) while the die is busy. The die gains nothing from a second program
// queued in the channel (it takes a program's data only when it is free), so the programs'
// throughput is the same: the next one is handed over from the completion of the one
// before, in the same instant. Between host programs and GC, GC goes first when no program
// waits, after gc_weight host programs in a row, or when a plane is down to its GC reserve.
// On dies with cache program, a host program also goes while the die's one transaction
// in the channel is a program and no GC operation waits (cacheprog.go).
// With fold_share, a fold's operation (of an SLC cache) instead goes when its share of the
// die's time is due (foldshare.go) or a plane is down to its GC reserve.
type priority struct {
	readFirst bool
	gcWeight  int
	foldShare float64
}

func (p priority) Next(v *DieView) Pick {
	switch {
	case p.readFirst && v.Reads > 0:
		return PickRead
	case p.readFirst && v.InChannel > 0:
		if v.s.cacheNext(v) {
			return PickProgram // into the die's cache register (cacheprog.go)
		}
		return PickNone // programs, erases and GC reads wait for the die's turn in the firmware
	case p.foldShare > 0 && v.GC > 0 && v.Programs > 0 && v.s.dies[v.Die].foldQueued():
		if v.GCUrgent() || v.s.foldTurn(v.Die, p.foldShare) {
			return PickGC
		}
		return PickProgram
	case v.GC > 0 && (v.Programs == 0 || v.HostRun >= p.gcWeight || v.GCUrgent()):
		return PickGC
	case v.Programs > 0:
		return PickProgram
	case v.Reads > 0:
		return PickRead
	}
	return PickNone
}
