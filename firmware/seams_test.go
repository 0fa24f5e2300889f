package firmware

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// Test implementations of the seams, registered as a program linking its own would.
func init() {
	RegisterEvictionPolicy("test-two-per-round", EvictionPolicyDef{New: func(Spec) EvictionPolicy { return &twoPerRound{} }})
	RegisterEvictionPolicy("test-after-1ms", EvictionPolicyDef{New: func(Spec) EvictionPolicy { return afterOneMs{} }})
	RegisterSchedOrder("test-programs-first", SchedOrderDef{New: func(Spec) SchedOrder { return programsFirst{} }})
}

// twoPerRound evicts in the foreground, at most two pages a round, and records the
// evictions it sees at each call.
type twoPerRound struct{ seen []int64 }

func (p *twoPerRound) Decide(v *BufferView) Decision {
	p.seen = append(p.seen, v.Evictions)
	return Decision{Mode: EvictForeground, Pages: 2}
}

// afterOneMs does nothing before 1 ms (asking to be looked at again then) and drains in the
// background after.
type afterOneMs struct{}

func (afterOneMs) Decide(v *BufferView) Decision {
	if v.Now < sim.Millisecond {
		return Decision{Retry: sim.Millisecond}
	}
	return Decision{Mode: EvictBackground}
}

// programsFirst hands a die its programs before anything else.
type programsFirst struct{}

func (programsFirst) Next(v *DieView) Pick {
	switch {
	case v.InChannel > 0:
		return PickNone
	case v.Programs > 0:
		return PickProgram
	case v.Reads > 0:
		return PickRead
	case v.GC > 0:
		return PickGC
	}
	return PickNone
}

// TestUnknownNamesListKnownOnes: a policy or ordering name that is not registered is an
// error naming the field and listing the registered names, sorted.
func TestUnknownNamesListKnownOnes(t *testing.T) {
	s := DefaultSpec()
	s.Buffer.Policy = "lifo"
	s.Scheduler.Order = "random"
	err := s.Validate()
	require.ErrorContains(t, err, `firmware.buffer.policy: unknown buffer policy "lifo" (known: `+
		strings.Join(EvictionPolicies(), ", ")+")")
	require.ErrorContains(t, err, `firmware.scheduler.order: unknown scheduler order "random" (known: `+
		strings.Join(SchedOrders(), ", ")+")")
	require.Contains(t, EvictionPolicies(), "fastdrain")
	require.Subset(t, EvictionPolicies(), []string{"vanilla", "fastdrain", "oracle", "oracle-bg"})
	var p Policy
	require.ErrorContains(t, p.UnmarshalText([]byte("lifo")), "known: ")
	require.NoError(t, p.UnmarshalText([]byte("oracle-bg")))
	require.True(t, p.Unbounded())
	require.False(t, Policy("lifo").Unbounded())
	require.Panics(t, func() {
		RegisterEvictionPolicy("vanilla", EvictionPolicyDef{New: func(Spec) EvictionPolicy { return vanilla{} }})
	})
	require.Panics(t, func() { RegisterSchedOrder("", SchedOrderDef{New: func(Spec) SchedOrder { return programsFirst{} }}) })
}

// TestPolicyPagesBoundsRounds: a registered policy that evicts in the foreground with
// Decision.Pages 2 sends at most two pages a round. Worked out: 10 single-page writes into
// a 256-page buffer on 4 dies with foreground_per_die 2 would go 8 in the first round
// unbounded; bounded, every round (seen between one call's evictions count and the next's)
// sends 0, 1 or 2, and all 10 leave in the foreground.
func TestPolicyPagesBoundsRounds(t *testing.T) {
	s := smallSpec("test-two-per-round", "sequential")
	r := newFake(t, s, 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 10; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
		}
	})
	r.eng.Run()
	require.Equal(t, int64(10), r.fw.Stats.ForegroundEvictions)
	require.Zero(t, r.fw.Stats.BackgroundEvictions)
	seen := r.fw.evict.policy.(*twoPerRound).seen
	for i := 1; i < len(seen); i++ {
		require.LessOrEqual(t, seen[i]-seen[i-1], int64(2), "call %d", i)
	}
	require.GreaterOrEqual(t, len(seen), 5)
}

// TestPolicyRetry: a policy that waits until 1 ms is looked at again then although nothing
// notifies the evictor. Worked out: 4 single-page writes end by ~20 µs; at 1 ms the
// background round sends one page to each of the 4 idle dies (background_per_die 1); the
// decision (400 cycles at 400 MHz, 1 µs), the DRAM read-out (fake 1 µs) and one program
// (fake 558 µs) end the run at ≈ 1,560 µs: at least 1,558 µs, under 1,600 µs.
func TestPolicyRetry(t *testing.T) {
	r := newFake(t, smallSpec("test-after-1ms", "sequential"), 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 4; i++ {
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
		}
		p.SleepUntil(sim.Millisecond - sim.Microsecond)
		require.Zero(t, r.fw.Stats.BackgroundEvictions+r.fw.Stats.ForegroundEvictions)
	})
	r.eng.Run()
	t.Logf("end %v", r.eng.Now())
	require.Equal(t, int64(4), r.fw.Stats.BackgroundEvictions)
	require.GreaterOrEqual(t, r.eng.Now(), sim.Millisecond+fakeTPROG)
	require.Less(t, r.eng.Now(), 1600*sim.Microsecond)
}

// TestSchedOrderSeam: the same read behind three queued programs on its die (die_depth 1,
// no multi-plane merging), under the built-in priority ordering (read_first) and under a
// registered programs-first ordering. Page 0 is on flash; three programs are queued on its
// die, the first running, and the read arrives 20 µs later. Worked out on the fake flash
// (tPROG 558 µs, tR 58 µs): with priority the read goes next, after the running program:
// about 558 − 20 + 58 = 596 µs (< 716 µs with the host steps); programs first, it waits
// for all three: about 3 × 558 − 20 + 58 = 1,712 µs (> 1,650 µs).
func TestSchedOrderSeam(t *testing.T) {
	lat := map[string]sim.Time{}
	for _, order := range []string{PriorityOrder, "test-programs-first"} {
		s := smallSpec(Vanilla, "sequential")
		s.Scheduler.MultiPlane, s.Scheduler.DieDepth, s.Scheduler.Order = false, 1, order
		r := newFake(t, s, 4096)
		f := r.fw
		r.eng.Spawn("host", func(p *sim.Proc) {
			r.cmd(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)})
			r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
			p.Sleep(sim.Millisecond)
			f.buf.Invalidate(0) // its clean copy leaves DRAM
			g := f.geo.Addr(f.FTL().PageOf(f.FTL().Lookup(0))).Die
			r.cmd(p, nvme.OpWrite, 1, 3, nvme.Hint{}, []uint64{Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)})
			for range 3 {
				require.True(t, f.evictOne(g, ftl.Foreground))
			}
			p.Sleep(20 * sim.Microsecond)
			got := []uint64{0}
			lat[order] = r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got).latency
			require.Equal(t, Stamp(0, 1), got[0])
		})
		r.eng.Run()
	}
	t.Logf("read latency: priority %v, programs first %v", lat[PriorityOrder], lat["test-programs-first"])
	require.Less(t, lat[PriorityOrder], 716*sim.Microsecond)
	require.Greater(t, lat["test-programs-first"], 1650*sim.Microsecond)
}
