package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestWriteThenReadBack(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	got := make([]uint64, 4)
	r.eng.Spawn("host", func(p *sim.Proc) {
		rq := r.cmd(p, nvme.OpWrite, 10, 4, nvme.Hint{}, []uint64{101, 102, 103, 104})
		require.Equal(t, nvme.StatusSuccess, rq.status)
		rq = r.cmd(p, nvme.OpRead, 10, 4, nvme.Hint{}, got)
		require.Equal(t, nvme.StatusSuccess, rq.status)
	})
	r.eng.Run()
	require.Equal(t, []uint64{101, 102, 103, 104}, got)
	require.Equal(t, int64(4), r.fw.Stats.ReadHits, "still in the write buffer")
}

func TestOutOfRange(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		rq := r.cmd(p, nvme.OpRead, r.fw.LogicalPages()-1, 2, nvme.Hint{}, make([]uint64, 2))
		require.Equal(t, nvme.StatusLBAOutOfRange, rq.status)
	})
	r.eng.Run()
}

// TestIntegrity drives random writes, reads, trims and flushes from several host
// processes against a reference map, on every buffer policy and allocator, with GC active
// and the FTL invariant checker run after every GC: every read must return the version last
// written (or zero for unwritten or trimmed pages).
func TestIntegrity(t *testing.T) {
	// 25,000 I/Os per configuration, 300,000 in all (issue 3 asks for ≥ 200 k).
	ios := 25_000
	if testing.Short() {
		ios = 3000
	}
	for _, pol := range []Policy{Vanilla, FastDrain, Oracle, OracleBG} {
		for _, alloc := range []string{"sequential", "skip-to-lsb", "latency-aware"} {
			t.Run(pol.String()+"/"+alloc, func(t *testing.T) {
				integrityRun(t, pol, alloc, ios, 1)
			})
		}
	}
}

func integrityRun(t testing.TB, pol Policy, alloc string, ios int, seed uint64) *rig {
	return integrityRunSpec(t, smallSpec(pol, alloc), ios, seed)
}

// integrityRunSpec is integrityRun on the small rig with spec.
func integrityRunSpec(t testing.TB, spec Spec, ios int, seed uint64) *rig {
	r := newRig(t, spec, nil)
	// The host uses only a quarter of the logical space so GC has plenty to do with small
	// valid counts, and overwrites it many times.
	span := r.fw.LogicalPages() / 4
	ref := make([]uint64, span)
	busy := make([]bool, span)
	version := uint64(0)
	checked := 0
	const procs = 8
	left := ios
	for k := 0; k < procs; k++ {
		rng := sim.NewRNG(seed, "host"+string(rune('a'+k)))
		r.eng.Spawn("host", func(p *sim.Proc) {
			buf := make([]uint64, 8)
			for left > 0 {
				left--
				n := 1 + rng.IntN(8)
				lba := rng.Int64N(span - int64(n))
				if !hold(busy, lba, n) {
					p.Sleep(sim.Microsecond)
					continue
				}
				checked += r.mixedOp(t, p, rng, lba, n, buf, ref, &version, 0)
				release(busy, lba, n)
			}
		})
	}
	// The scheduler's sets of dies open to eviction match its queues before every event.
	var openErr error
	r.eng.AddHook(func(*sim.Event) {
		if openErr == nil {
			openErr = r.fw.sched.checkOpen()
		}
	})
	r.eng.Run()
	require.NoError(t, openErr)
	// Every host process has finished (the firmware has none: its steps are events).
	require.Zero(t, r.eng.Processes(), "a host process is still blocked")
	require.NoError(t, r.fw.FTL().Check())
	require.Positive(t, checked)
	if testing.Verbose() {
		t.Logf("%v/%v: %d reads checked, %d GC runs, %d pages moved, WAF %.2f, sim time %v",
			spec.Buffer.Policy, spec.FTL.Allocator, checked, r.fw.Stats.GCRuns, r.fw.Stats.GCPagesMoved, r.fw.FTL().Stats.WAF(), r.eng.Now())
	}
	return r
}

// TestDRAMMoveWraps: a move whose buffer slots run past the end of DRAM wraps around to
// the start instead of addressing beyond it, and every byte is charged.
func TestDRAMMoveWraps(t *testing.T) {
	r := newFake(t, smallSpec(Vanilla, "sequential"), 4096)
	capPages := int64(r.mem.Capacity()) / 4096
	before := r.mem.moved
	// Four pages from the second-to-last slot of the region: two before the wrap, two after.
	done := r.fw.dramMove(0, capPages-3, 4*4096, true)
	require.Positive(t, done)
	require.Equal(t, int64(4*4096), r.mem.moved-before)
}
