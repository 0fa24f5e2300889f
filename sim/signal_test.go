package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// resumer is an event handler that resumes the longest waiter of sig when it fires.
type resumer struct {
	sig     *Signal
	resumed bool
}

func (r *resumer) HandleEvent(*Event) { r.resumed = r.sig.Resume() }

// TestSignalResume: Resume runs the waiter inside the handler's event, at the handler's
// time, before any event scheduled after it; with no waiter it reports false.
func TestSignalResume(t *testing.T) {
	e := NewEngine()
	var sig Signal
	var log []string
	e.Spawn("waiter", func(p *Proc) {
		p.Wait(&sig)
		log = append(log, "waiter@"+p.Now().String())
	})
	r := &resumer{sig: &sig}
	e.Schedule(5*Nanosecond, r, nil, 0)
	// Scheduled after the resumer at the same time: fires after the waiter ran.
	e.At(5*Nanosecond, func() { log = append(log, "after@"+e.Now().String()) })
	e.Run()
	require.True(t, r.resumed)
	require.Equal(t, []string{"waiter@5ns", "after@5ns"}, log)
	require.Zero(t, sig.Waiting())

	r.resumed = true
	e.Schedule(e.Now()+1, r, nil, 0)
	e.Run()
	require.False(t, r.resumed, "nobody waits")
}

// TestSignalResumeFromProcessPanics: a process may not resume another (coroutines do not
// nest).
func TestSignalResumeFromProcessPanics(t *testing.T) {
	e := NewEngine()
	var sig Signal
	e.Spawn("waiter", func(p *Proc) { p.Wait(&sig) })
	e.Spawn("resumer", func(p *Proc) { sig.Resume() })
	require.Panics(t, e.Run)
	e.Close()
}

// batch does its steps in one event, putting itself back in its place with Requeue when an
// event scheduled by a step must come first.
type batch struct {
	e     *Engine
	steps []string
	log   *[]string
}

func (b *batch) HandleEvent(*Event) {
	for first := true; len(b.steps) > 0; first = false {
		if !first && b.e.Requeue() {
			*b.log = append(*b.log, "requeued")
			return
		}
		s := b.steps[0]
		b.steps = b.steps[1:]
		*b.log = append(*b.log, s)
		if s == "b" {
			// A step that schedules an event at now in a lower phase: it comes before the
			// next step, as it would before the next of separate events.
			b.e.SchedulePhase(b.e.Now(), PhaseHardware, logHandler{b.log}, nil, 0)
		}
	}
}

type logHandler struct{ log *[]string }

func (h logHandler) HandleEvent(ev *Event) { *h.log = append(*h.log, "hw@"+ev.Time.String()) }

// TestRequeue: the steps of a batch event interleave with a lower-phase event scheduled by a
// step exactly as separate events scheduled together would, and stay ahead of events of
// their own phase scheduled after them.
func TestRequeue(t *testing.T) {
	e := NewEngine()
	var log []string
	b := &batch{e: e, steps: []string{"a", "b", "c", "d"}, log: &log}
	e.SchedulePhase(10, PhaseProcess, b, nil, 0)
	e.SchedulePhase(10, PhaseProcess, logHandler{&log}, nil, 0) // after the batch
	e.Run()
	require.Equal(t, []string{"a", "b", "requeued", "hw@10ps", "c", "d", "hw@10ps"}, log)
	// With nothing in between, Requeue reports false and leaves the engine alone.
	e.At(20, func() { require.False(t, e.Requeue()) })
	e.Run()
	require.Zero(t, e.Pending())
}
