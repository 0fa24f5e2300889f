package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The buffer eviction policy seam. At each round the evictor shows the policy the buffer
// (BufferView) and the policy decides the round's mode and how many pages it may send
// (Decision). Which pages leave is the buffer's order (firmware.buffer.order: the least
// recently used or the first written), and where they go is the scheduler's open dies
// for the mode (evict.go).

// EvictMode is what an eviction round does.
type EvictMode uint8

// Eviction modes.
const (
	// EvictIdle: nothing to do; the evictor waits until it is notified (a write is stored
	// or waits for room, a flush starts, a program completes, GC frees a block) or until
	// Decision.Retry.
	EvictIdle EvictMode = iota
	// EvictBackground sends one page to each die with no host reads queued or in flight and
	// fewer than firmware.buffer.background_per_die programs queued (the paper's "limited
	// set of pages"), up to the background budget in flight (firmware.buffer.background_set:
	// background_max and background_share under share, the default; none but the per-die
	// bound under idle-dies and per-eviction); with Decision.IdleDies, only to the dies among
	// those that are idle of host work (activity.go), and under per-eviction only as many
	// pages as the latest internal buffer eviction still owes (backgroundset.go).
	EvictBackground
	// EvictForeground fills every die up to firmware.buffer.foreground_per_die programs
	// queued (urgent: the latency-aware allocator gives these the LSB pages).
	EvictForeground
)

// Decision is a policy's decision for one round.
type Decision struct {
	Mode EvictMode
	// Pages, if positive, bounds the pages the round sends (on top of the mode's bounds).
	Pages int
	// Retry, if after now, is when the evictor looks again should the round send nothing
	// and nothing notify it before then (a policy that paces itself by time uses it).
	Retry sim.Time
	// IdleDies restricts a background round to the dies idle of host work: those whose
	// decaying count of host reads (firmware.buffer.idle_half_life) shows no intensive use
	// by the applications (FastDrain's background eviction, activity.go). Without it a
	// background round sends to every die with no host read queued or in flight.
	IdleDies bool
}

// BufferView is what a policy sees of the buffer at a round, in pages. It is valid only
// during the call it is passed to.
type BufferView struct {
	Now        sim.Time
	Capacity   int               // 0 if unbounded
	Occupancy  int               // pages held (dirty, clean and being evicted)
	Dirty      int               // pages not yet written to flash
	Reserved   int               // slots promised to writes whose data is on its way
	Announced  int64             // pages the host's victimization hint says are still to come
	Predicted  int64             // Occupancy + Announced + Reserved
	Watermarks buffer.Watermarks // firmware.buffer.watermarks
	RoomWaits  int               // writes waiting for buffer room
	Flushes    int               // flushes (or FUA writes) waiting for the flash
	Evictions  int64             // pages sent to flash so far (foreground and background)
	ev         *evictor
}

// Urgent reports whether a write waits for room or a flush for the flash: a policy that
// returns EvictIdle then stalls them until it decides otherwise.
func (v *BufferView) Urgent() bool { return v.RoomWaits > 0 || v.Flushes > 0 }

// HintDecisive reports whether the host's victimization hint alone puts the predicted
// occupancy at or over the high watermark: nothing is urgent, the occupancy plus the
// reserved slots stay under it, and with the announced pages the prediction does not.
func (v *BufferView) HintDecisive() bool {
	if v.Capacity == 0 || v.Urgent() {
		return false
	}
	high := v.Watermarks.High * float64(v.Capacity)
	return float64(v.Occupancy+v.Reserved) < high && float64(v.Predicted) >= high
}

// LogSwitch records a switch of the policy's own mode (foreground or not) in the
// firmware's mode log (Firmware.ModeLog), with the occupancy and prediction that caused it.
// A switch to foreground that the hint alone caused (HintDecisive) counts as a foreground
// episode the hint started (Stats.HintEpisodes), and its hinted write as acted on.
func (v *BufferView) LogSwitch(foreground bool) {
	ev := v.ev
	ev.hintEp = foreground && v.HintDecisive()
	if ev.hintEp {
		ev.f.Stats.HintEpisodes++
		ev.f.Stats.HintActedOn++ // the hinted write whose announcement crossed the watermark
	}
	if len(ev.modeLog) < 10000 {
		ev.modeLog = append(ev.modeLog, ModeChange{At: v.Now, Foreground: foreground,
			Occupancy: v.Occupancy, Predicted: v.Predicted})
	}
}

// EvictionPolicy decides each eviction round. Decide is called at the start of a round and
// again once the round's decision cycles (firmware.cycles.evict) have been charged, when
// the pages are sent: the second call's decision is the one carried out.
type EvictionPolicy interface {
	Decide(v *BufferView) Decision
}

// EvictionPolicyDef is a registered eviction policy.
type EvictionPolicyDef struct {
	// Unbounded means the policy's buffer has no capacity limit (firmware.buffer.pages is
	// ignored).
	Unbounded bool
	// Params, if set, returns the policy's parameters at their defaults: a pointer to a
	// struct whose fields have yaml tags and, if it has a Validate method, whose errors
	// start with the field's key ("drain_rate: …"). firmware.policies.NAME is decoded over
	// them, strictly, and New reads the result with spec.Params(NAME) (params.go). nil: the
	// policy takes no parameters, and a block for it is an error.
	Params func() any
	// New returns the policy for one firmware (its own state) with spec.
	New func(spec Spec) EvictionPolicy
}

var evictionPolicies = newRegistry[EvictionPolicyDef]("buffer policy", "firmware.buffer.policy")

// RegisterEvictionPolicy makes an eviction policy available under name to
// firmware.buffer.policy. Call it from an init function; a duplicate name panics.
func RegisterEvictionPolicy(name string, def EvictionPolicyDef) {
	if def.New == nil {
		panic(fmt.Sprintf("firmware: eviction policy %q registered without New", name))
	}
	evictionPolicies.register(name, def)
}

// EvictionPolicies returns the registered eviction policies' names, sorted.
func EvictionPolicies() []string { return evictionPolicies.names() }

// Policy is the name of the write buffer's eviction policy (firmware.buffer.policy): one of
// the registered policies (EvictionPolicies).
type Policy string

// The built-in policies (policies.go; docs/design.md "Write buffer").
const (
	// Vanilla evicts on demand: a write that finds the buffer full waits while dirty pages
	// are written to flash.
	Vanilla Policy = "vanilla"
	// FastDrain (FD-Buf) predicts occupancy from the host's victimization hint: below the
	// high watermark it evicts a bounded number of pages in the background to the dies idle
	// of host work (Decision.IdleDies); at or above it, it evicts to all dies in the
	// foreground until occupancy falls below the low watermark.
	FastDrain Policy = "fastdrain"
	// Oracle is the paper's Fig. 2b bound: "an infinite SSD internal buffer" that
	// "completely buffers dirty data", so no write reaches the flash during the run and
	// host reads never meet a program. It evicts only for a Flush or FUA write that must
	// wait for flash (never, with power-loss protection).
	Oracle Policy = "oracle"
	// OracleBG is an unbounded buffer drained in the background whenever anything is dirty,
	// within the same background budget as FD-Buf (background_set), to every die with no
	// host read queued or in flight (not only to the dies idle of host work, as FD-Buf's
	// background eviction): writes never wait, but the flash is programmed and reads meet
	// those programs. It was the Oracle before issue 20, and it is the
	// control that shows what FD-Buf's idle-die rule and foreground eviction add (issue 31).
	OracleBG Policy = "oracle-bg"
)

// String returns the configuration name.
func (p Policy) String() string { return string(p) }

// Unbounded reports whether the policy's buffer has no capacity limit (the oracles). An
// unknown policy is bounded.
func (p Policy) Unbounded() bool {
	d, err := evictionPolicies.r.Lookup(string(p))
	return err == nil && d.Unbounded
}

// MarshalText implements encoding.TextMarshaler.
func (p Policy) MarshalText() ([]byte, error) { return []byte(p), nil }

// UnmarshalText implements encoding.TextUnmarshaler: the name must be registered.
func (p *Policy) UnmarshalText(b []byte) error {
	if _, err := evictionPolicies.lookup(string(b)); err != nil {
		return err
	}
	*p = Policy(b)
	return nil
}
