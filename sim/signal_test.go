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
