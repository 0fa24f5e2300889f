package powercut

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/parallel"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Target is one configuration a campaign cuts: a label for its table rows and the machine.
type Target struct {
	Label  string
	Config platforms.Config
}

// Options is a campaign: every target, every schedule, Cuts cuts each, the cut of index i
// seeded Seed + i (the same seeds for every target and schedule: the same workload and
// armed instant, compared).
type Options struct {
	Targets   []Target
	Schedules []Schedule
	Cuts      int
	Seed      uint64
	Workload  Workload
	// From, Window and Patience are each cut's Plan's (see Plan).
	From, Window, Patience sim.Time
	SimulateRecovery       bool
	// Notes say what the matrix left out and why (Matrix.Targets), for the campaign's
	// output (its text, powercut.json's notes, powercut.csv's note column).
	Notes []Note
	// Jobs runs that many cuts at once (each its own simulation; results are the same
	// whatever the number).
	Jobs int
	// Cycles is each cut's power cycles (Plan.Cycles; 0: each schedule's own). A target
	// that cannot be powered on again (platforms.Mountable) is not cut at a schedule of
	// several cycles: it has no row there, and a note (MountNotes) says why.
	Cycles int
}

// Note is what a matrix left out of one variant and why (Matrix.Targets): Text, the line
// the campaign prints.
type Note struct {
	Variant, Text string
}

// Row sums up the cuts of one target and schedule.
type Row struct {
	Target, Schedule string
	PLP              bool
	Cuts             int
	// Met counts the cuts at which the schedule's condition held.
	Met int
	// DurableLoss counts the pages recovered older than their last durable version, over
	// every cut, and LossCuts the cuts with at least one; Volatile the pages older than
	// their last acknowledged version only (legal without protection); Stale the stale
	// reads (during the run, or of data never written after recovery); Stuck the cuts whose
	// hold-up drain stopped without room.
	DurableLoss, Volatile, Stale int64
	LossCuts, Stuck              int
	// FailedCuts counts the cuts that lost durable data, read stale data or left the drain
	// stuck (Cut.Lost).
	FailedCuts int
	Writes     int64 // acknowledged write commands, over every cut
	GCMoved    int64 // pages GC moved before the cuts, over every cut
	// RecoveryMean and RecoveryMax are the recovery scan's length.
	RecoveryMean, RecoveryMax sim.Time
	// First describes the first cut (lowest seed) that lost or read stale data, or whose
	// drain was stuck, "" if none.
	First string
}

// Failed reports whether any cut of the row lost durable data, read stale data or left
// the drain stuck.
func (r Row) Failed() bool { return r.FailedCuts > 0 }

// Campaign runs every cut of o and returns one row per target and schedule (targets in
// order, schedules in the order given), and the cuts themselves in the same order.
func Campaign(o Options) ([]Row, []*Cut, error) {
	if len(o.Targets) == 0 || len(o.Schedules) == 0 || o.Cuts < 1 {
		return nil, nil, fmt.Errorf("powercut: a campaign needs a target, a schedule and at least one cut (have %d, %d, %d)",
			len(o.Targets), len(o.Schedules), o.Cuts)
	}
	if err := o.Workload.validate(); err != nil {
		return nil, nil, err
	}
	type pair struct{ t, s int }
	var pairs []pair // the targets and schedules cut, in row order
	for ti, t := range o.Targets {
		for si, s := range o.Schedules {
			if o.applies(t, s) == nil {
				pairs = append(pairs, pair{ti, si})
			}
		}
	}
	if len(pairs) == 0 {
		return nil, nil, errors.New("powercut: no target can be cut at any schedule asked for (see the notes: " + noteText(o.MountNotes()) + ")")
	}
	n := len(pairs) * o.Cuts
	cuts := make([]*Cut, n)
	errs := make([]error, n)
	parallel.For(n, o.Jobs, func(i int) {
		pr := pairs[i/o.Cuts]
		t, s := o.Targets[pr.t], o.Schedules[pr.s]
		seed := o.Seed + uint64(i%o.Cuts)
		c, err := RunCut(t.Config, o.Workload, Plan{Schedule: s, Seed: seed, From: o.From, Window: o.Window,
			Patience: o.Patience, SimulateRecovery: o.SimulateRecovery, Cycles: o.Cycles})
		if err != nil {
			err = fmt.Errorf("%s: %w", t.Label, err)
		} else {
			c.Target = t.Label
		}
		cuts[i], errs[i] = c, err
	})
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	var rows []Row
	for i := 0; i < n; i += o.Cuts {
		t := o.Targets[pairs[i/o.Cuts].t]
		rows = append(rows, summarize(t, cuts[i:i+o.Cuts]))
	}
	return rows, cuts, nil
}

// applies returns why target t is not cut at schedule s, nil if it is: a cut of several
// power cycles needs a machine that can be powered on again (platforms.Mountable).
func (o Options) applies(t Target, s Schedule) error {
	if (Plan{Schedule: s, Cycles: o.Cycles}).cycles() == 1 {
		return nil
	}
	return platforms.Mountable(t.Config)
}

// MountNotes returns a note for each target a schedule of several power cycles leaves
// out (applies), once a target. Its Variant is the target's whole label, so no row's note
// column carries it (rowNote matches a variant's rows; the target has its other rows).
func (o Options) MountNotes() []Note {
	var ns []Note
	for _, t := range o.Targets {
		for _, s := range o.Schedules {
			if err := o.applies(t, s); err != nil {
				ns = append(ns, Note{Variant: t.Label, Text: fmt.Sprintf("%s: not cut at %s (%d power cycles): %v", t.Label, s.Name, (Plan{Schedule: s, Cycles: o.Cycles}).cycles(), err)})
				break
			}
		}
	}
	return ns
}

// noteText joins notes' texts.
func noteText(ns []Note) string {
	var ts []string
	for _, n := range ns {
		ts = append(ts, n.Text)
	}
	return strings.Join(ts, "; ")
}

// summarize sums up one target's cuts of one schedule.
func summarize(t Target, cs []*Cut) Row {
	r := Row{Target: t.Label, Schedule: cs[0].Schedule, PLP: t.Config.Firmware.PowerLossProtection, Cuts: len(cs)}
	var sum sim.Time
	for _, c := range cs {
		if c.Met {
			r.Met++
		}
		r.DurableLoss += c.DurableLoss
		r.Volatile += c.Volatile
		r.Stale += c.Stale
		r.Writes += c.Writes
		r.GCMoved += c.GCMoved
		if c.DurableLoss > 0 {
			r.LossCuts++
		}
		if c.Report.Stuck {
			r.Stuck++
		}
		if c.Lost() {
			r.FailedCuts++
			if r.First == "" {
				r.First = describe(c)
			}
		}
		sum += c.RecoveryTime
		r.RecoveryMax = max(r.RecoveryMax, c.RecoveryTime)
	}
	r.RecoveryMean = sum / sim.Time(len(cs))
	return r
}

// describe says what went wrong at cut c, and how to make it again.
func describe(c *Cut) string {
	what := c.First
	if c.Report.Stuck {
		what = fmt.Sprintf("the hold-up drain was stuck (%s) with %d pages not on flash", c.Report.Outcome(), c.Report.Lost)
		if c.First != "" {
			what += "; " + c.First
		}
	}
	return fmt.Sprintf("seed %d, cut at %v: %s", c.Seed, c.At, what)
}
