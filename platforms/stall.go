package platforms

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The stall detector: a firmware or host bug that stops the I/O path (a command the
// firmware never completes, GC that never frees a block) must end the run with a report,
// not let the host's and the device's periodic timers carry simulated time on forever.
//
// The rule: host commands are outstanding (the NVMe driver submitted them and has not
// handled their completions) and none has completed for limits.stall_timeout — counted
// from the last completion, or from the oldest outstanding command's submission if that
// is later (the I/O path was idle before it). The run then stops at that instant with a
// StallError. Linux's NVMe driver has the same kind of watchdog per command
// (nvme_core.io_timeout, 30 s by default, drivers/nvme/host/core.c: the timed-out command
// is aborted and the controller reset); here the simulation stops instead, as a firmware
// engineer wants the state at the stall, not a recovery from it.
//
// Cost: nothing per event and one store per completion (the driver's LastCompletion). The
// detector is a late boundary watch (sim.Engine.ObserveLate), which adds no event and
// refuses no Jump, so a run's events and results are those of a run without it; its
// boundary is kept at the earliest instant a stall could be declared (the last
// completion, or the oldest submission, plus the timeout), re-armed there lazily: while
// commands complete it is told of one boundary per timeout.
//
// A scripted power cut stops the I/O path on purpose (the host's commands in flight never
// complete): from the cut on the detector declares nothing.

// DefaultStallTimeout is limits.stall_timeout's default: 30 s, the time after which
// Linux's NVMe driver declares an I/O command timed out (nvme_core.io_timeout,
// NVME_IO_TIMEOUT = 30 * HZ, drivers/nvme/host/nvme.h), so a firmware that stalls longer
// would fail on a real host too. The longest legitimate wait measured (the longest time
// with host commands outstanding and none completing, over the test suite, the golden
// runs, the power-cut campaigns and a run of every preset; docs/reliability.md, "Stalls")
// is 1.53 s, a write behind SLC folds on tiny's four dies: the default is twenty times
// that. The uflip-2008 preset, whose BAST merges held completions back for 16.9 s, sets
// 120 s.
const DefaultStallTimeout = 30 * sim.Second

// StallTimeout returns the stall detector's timeout: limits.stall_timeout, or
// DefaultStallTimeout if it is 0.
func (c Config) StallTimeout() sim.Time {
	if c.Limits.StallTimeout > 0 {
		return c.Limits.StallTimeout
	}
	return DefaultStallTimeout
}

// stallWatch is the stall detector of one machine.
type stallWatch struct {
	m       *Machine
	w       *sim.Watch
	timeout sim.Time
	err     *StallError
}

// watchStalls attaches the stall detector to m.
func watchStalls(m *Machine) *stallWatch {
	s := &stallWatch{m: m, timeout: m.Config.StallTimeout()}
	s.w = m.Eng.ObserveLate(m.Eng.Now()+s.timeout, s.timeout, s)
	return s
}

// since returns how many commands are outstanding and the instant the wait for a
// completion is counted from.
func (s *stallWatch) since() (int, sim.Time, nvmedrv.InFlight) {
	d := s.m.Host.Driver
	old, ok := d.Oldest()
	if !ok {
		return 0, 0, old
	}
	return d.Inflight(), max(d.LastCompletion(), old.Submitted), old
}

// AtBoundary implements sim.BoundaryObserver: stop the run if it has stalled, else
// re-arm at the earliest instant it could have.
func (s *stallWatch) AtBoundary(b sim.Time) {
	if s.err != nil || s.m.SSD.FW.PowerLossReport().At > 0 {
		return // stopped already, or a power cut stopped the I/O path on purpose
	}
	n, since, _ := s.since()
	switch {
	case n == 0:
		// Nothing outstanding: no stall before a command submitted from now on has
		// waited the whole timeout. The period's next boundary stands.
		return
	case b-since >= s.timeout:
		s.err = s.m.stallError(b, false)
		s.m.Eng.Stop()
		return
	}
	s.w.SetNext(max(since+s.timeout, s.m.Eng.Now()))
}

// StallError is the error of a run whose host I/O stalled: commands outstanding and none
// completed for the timeout (or the simulation went idle with commands outstanding, which
// nothing could complete), with the state of the host queues, the controller and the
// firmware at that instant.
type StallError struct {
	At      sim.Time // when the run stopped
	Since   sim.Time // the last completion, or the oldest command's submission if later
	Timeout sim.Time // limits.stall_timeout
	// Idle is set when the simulation went idle (no event left that could complete a
	// command) rather than the timeout passing.
	Idle        bool
	Outstanding int
	Oldest      nvmedrv.InFlight
	Loads       []nvmedrv.QueueLoad   // the host's queue pairs with commands in flight
	Queues      []nvmectrl.QueueState // the controller's queues holding any
	Level       string                // the buffer level the firmware reports
	Dirty       int                   // the write buffer's dirty pages,
	Evicting    int                   // its pages being evicted,
	Capacity    int                   // and its capacity
	Work        firmware.FlashWork    // the flash work on the dies
	// Dies are the dies with work queued or on the channel, or GC busy, and DieIndex their
	// global indexes; Totals sums every die's queued and in-channel operations and free
	// blocks, and GCBusy counts the dies whose GC task has a victim, of AllDies.
	Dies     []firmware.DieState
	DieIndex []int
	Totals   firmware.DieState
	GCBusy   int
	AllDies  int
}

// stallError takes the state of m's I/O path at t.
func (m *Machine) stallError(t sim.Time, idle bool) *StallError {
	n, since, old := m.stall.since()
	fw := m.SSD.FW
	buf := fw.Buffer()
	e := &StallError{At: t, Since: since, Timeout: m.stall.timeout, Idle: idle, Outstanding: n, Oldest: old,
		Loads: m.Host.Driver.Loads(), Level: fw.Level().String(),
		Dirty: buf.Dirty(), Evicting: buf.Evicting(), Capacity: buf.Capacity(), Work: fw.FlashWork()}
	dies := fw.DieStates()
	e.AllDies = len(dies)
	for _, q := range m.SSD.Ctrl.QueueStates() {
		if q.Unfetched+q.Busy+q.Posted+q.Waiting > 0 {
			e.Queues = append(e.Queues, q)
		}
	}
	for g, d := range dies {
		tot := &e.Totals
		tot.Reads, tot.Programs, tot.GC, tot.InChannel, tot.Arriving = tot.Reads+d.Reads, tot.Programs+d.Programs,
			tot.GC+d.GC, tot.InChannel+d.InChannel, tot.Arriving+d.Arriving
		tot.FreeBlocks += d.FreeBlocks
		if d.GCBusy {
			e.GCBusy++
		}
		if d.Reads+d.Programs+d.GC+d.InChannel+d.Arriving > 0 || d.GCBusy {
			e.Dies = append(e.Dies, d)
			e.DieIndex = append(e.DieIndex, g)
		}
	}
	return e
}

// stallDies is how many dies with work a StallError's message lists.
const stallDies = 8

// Error returns the report: what stalled, the oldest command, the host's and the
// controller's queues, the write buffer, the flash work and the dies with work.
func (e *StallError) Error() string {
	var b strings.Builder
	o := e.Oldest
	if e.Idle {
		fmt.Fprintf(&b, "stalled: the simulation went idle at %s with %s outstanding, which nothing left could complete; the last completed or the oldest was submitted at %s",
			report.Duration(e.At), plural(e.Outstanding, "host command"), report.Duration(e.Since))
	} else {
		fmt.Fprintf(&b, "stalled: %s outstanding and none completed for %s of simulated time (limits.stall_timeout), since %s; the run stopped at %s",
			plural(e.Outstanding, "host command"), report.Duration(e.At-e.Since), report.Duration(e.Since), report.Duration(e.At))
	}
	fmt.Fprintf(&b, ". The oldest: %s (%02Xh) on namespace %d, LBA %d, %s, queue %d, command %d, submitted at %s, waiting %s",
		o.Opcode, uint8(o.Opcode), o.NSID, o.LBA, plural(int(o.Blocks), "block"), o.Queue, o.CID, report.Duration(o.Submitted), report.Duration(e.At-o.Submitted))
	var qs []string
	for _, l := range e.Loads {
		qs = append(qs, fmt.Sprintf("%d on queue %d", l.Commands, l.SQID))
	}
	fmt.Fprintf(&b, ". Host driver: %s", strings.Join(qs, ", "))
	qs = qs[:0]
	for _, q := range e.Queues {
		qs = append(qs, fmt.Sprintf("SQ %d %d unfetched, %d fetched and not completed, CQ %d %d posted and not consumed, %d waiting for room",
			q.SQID, q.Unfetched, q.Busy, q.CQID, q.Posted, q.Waiting))
	}
	if len(qs) == 0 {
		qs = append(qs, "no command in any queue")
	}
	fmt.Fprintf(&b, ". Controller: %s", strings.Join(qs, "; "))
	w, t := e.Work, e.Totals
	fmt.Fprintf(&b, ". Firmware: buffer level %s, %d dirty and %d evicting pages of %d; %d flushes waiting; queued on the dies %d host reads, %d eviction programs, %d GC operations, %d programs arriving; on the channels %d operations (%d foreground and %d background programs, %d relocations of which %d folds, %d erases, %d pads); %d free blocks; GC busy on %d of %d dies",
		e.Level, e.Dirty, e.Evicting, e.Capacity, w.Flushes, t.Reads, t.Programs, t.GC, t.Arriving, t.InChannel,
		w.Foreground, w.Background, w.Relocations, w.Folds, w.Erases, w.Pads, t.FreeBlocks, e.GCBusy, e.AllDies)
	for i, d := range e.Dies {
		if i == stallDies {
			fmt.Fprintf(&b, "; %d more dies with work", len(e.Dies)-stallDies)
			break
		}
		fmt.Fprintf(&b, "; die %d: %d reads, %d programs, %d GC queued, %d on the channel, %d free blocks", e.DieIndex[i],
			d.Reads, d.Programs, d.GC, d.InChannel, d.FreeBlocks)
		if d.GCBusy {
			what := "moving"
			if d.GCErasing {
				what = "erasing"
			}
			fold := ""
			if d.GCFold {
				fold = ", a fold"
			}
			fmt.Fprintf(&b, ", GC %s victim block %d (%d pages to move%s)", what, d.GCVictim, d.GCToMove, fold)
		}
	}
	return b.String()
}

// Stall returns, once the engine has stopped, the error of a stalled run: the stall
// detector's, or, if the simulation went idle (no event left that keeps it going, so none
// that could complete a command) with host commands outstanding and no power cut, a
// StallError marked Idle. It returns nil otherwise, and for a run a command stopped with
// commands outstanding (a scenario's end with writeback in flight is not a stall).
// Every command that runs a machine checks it first after its run (runner.CutOutcome).
func (m *Machine) Stall() error {
	if m.stall.err != nil {
		return m.stall.err
	}
	if m.Eng.Live() > 0 || m.Host.Driver.Inflight() == 0 || m.SSD.FW.PowerLossReport().At > 0 {
		return nil
	}
	m.stall.err = m.stallError(m.Eng.Now(), true)
	return m.stall.err
}

// plural returns "1 thing" or "n things".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
