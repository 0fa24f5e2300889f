package firmware

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// roomySpec is smallSpec with the over-provisioning and spare pool for many grown bad
// blocks: at over-provisioning 0.5 a die's share of the logical space is 64 × 0.5 = 32 of
// its 64 blocks and GC keeps 2 planes × (3 + 1) = 8 free, so 24 can be spare
// (ftl.Config.spareRoom); the pool is set to those 24.
func roomySpec(policy Policy, alloc string) Spec {
	s := smallSpec(policy, alloc)
	s.FTL.OverProvisioning, s.FTL.SpareBlocks = 0.5, 24
	return s
}

// withFaults returns a rig modifier giving every die the fault spec fs.
func withFaults(fs die.FaultSpec) func(*channel.Spec) {
	return func(c *channel.Spec) { c.Die.Faults = fs }
}

// writeAll writes lpns 0 … n−1 once each (version v), one page a command, then flushes, and
// reads every page back into got.
func writeReadAll(t *testing.T, r *rig, n int64, versions int) (got []uint64) {
	got = make([]uint64, n)
	r.eng.Spawn("host", func(p *sim.Proc) {
		for v := 1; v <= versions; v++ {
			for lpn := int64(0); lpn < n; lpn++ {
				st := r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, uint64(v))}).status
				require.Equal(t, nvme.StatusSuccess, st)
			}
		}
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		for lpn := int64(0); lpn < n; lpn++ {
			r.cmd(p, nvme.OpRead, lpn, 1, nvme.Hint{}, got[lpn:lpn+1])
		}
	})
	r.eng.Run()
	return got
}

// TestScriptedProgramFailure: the program of die 0 (ssd.ch[0].die[0]) plane 0 block 3 page
// 5 fails. Worked by hand: the sequential allocator takes die 0's pages round robin over its
// two planes and plane 0's blocks off the free list in order 0, 1, 2, 3, so the 2,000 pages
// written (500 a die) reach plane 0's block 3 page 5 at die 0's page 2·(3·64+5)+1 = 395 < 500.
// The failure must: re-program that page's data (the page's lpn is in the die's stored
// stamp of page 5: Stamp(lpn, 1)) to a block other than 3; retire block 3 (FTL block id 3:
// die 0, plane 0, block 3), so nothing maps into it and it is never erased (its erase count
// stays 0); move its other programmed pages — every one of them still valid, as each lpn
// is written once — so RetireMoves = (block 3's write pointer) − 1 and the FTL's Rewrites
// = RetireMoves + 1; every page reads back version 1; Check passes. No GC runs (500 pages
// a die fill 8 of its 64 blocks, far from the threshold of 3 free blocks a plane).
func TestScriptedProgramFailure(t *testing.T) {
	fs := die.FaultSpec{Scripted: []die.ScriptedFault{{Die: "ssd.ch[0].die[0]", Op: "program", Plane: 0, Block: 3, Page: 5}}}
	r := newRig(t, smallSpec(Vanilla, "sequential"), withFaults(fs))
	const n = 2000
	got := writeReadAll(t, r, n, 1)
	for lpn := int64(0); lpn < n; lpn++ {
		require.Equal(t, Stamp(lpn, 1), got[lpn], "lpn %d", lpn)
	}
	f := r.fw
	fl := f.FTL()
	const b3 = ftl.BlockID(3)
	require.True(t, fl.IsBad(b3))
	require.Equal(t, 1, fl.BadBlocks())
	require.Zero(t, fl.ValidCount(b3), "every valid page of block 3 moved out")
	failedLPN := int64(r.die(0).Stamp(die.Addr{Plane: 0, Block: 3, Page: 5}) >> 32)
	moved := f.geo.BlockOf(fl.PageOf(fl.Lookup(failedLPN)))
	require.NotEqual(t, b3, moved, "the failed page's data is in another block")
	wp := r.die(0).NextPage(0, 3)
	require.Greater(t, wp, 5)
	fsx := f.FaultStats()
	require.Equal(t, FaultStats{ProgramFailures: 1, Reprograms: 1, RetiredBlocks: 1, RetireMoves: int64(wp - 1)}, fsx)
	require.Equal(t, int64(wp), fl.Stats.Rewrites)
	require.Equal(t, int64(1), fl.Stats.Retired)
	require.Zero(t, f.Stats.GCRuns)
	require.Zero(t, r.die(0).EraseCount(0, 3))
	for lpn := int64(0); lpn < n; lpn++ {
		require.NotEqual(t, b3, f.geo.BlockOf(fl.PageOf(fl.Lookup(lpn))), "lpn %d", lpn)
	}
	require.NoError(t, fl.Check())
}

// TestFactoryBadBlocks: 3 factory bad blocks a die on the rig's 4 dies of 2 × 32 blocks,
// within a spare pool of 4 a die (the default, 2 % of 64 blocks rounded up, is 2: too few).
// Worked by hand: the FTL starts with 4 × 64 − 4 × 3 = 244 free blocks instead of 256,
// its table holds 12 bad blocks, and a run that writes 3,000 pages (and GC never needs a
// bad one) never programs or erases one (each die's write pointer and erase count of its
// bad blocks stay 0); everything reads back.
func TestFactoryBadBlocks(t *testing.T) {
	s := smallSpec(Vanilla, "latency-aware")
	s.FTL.SpareBlocks = 4
	r := newRig(t, s, withFaults(die.FaultSpec{FactoryBad: 3, Seed: 7}))
	f := r.fw
	fl := f.FTL()
	free := 0
	for g := 0; g < 4; g++ {
		require.Len(t, r.die(g).FactoryBad(), 3)
		for pl := 0; pl < 2; pl++ {
			free += fl.FreeBlocks(g, pl)
		}
	}
	require.Equal(t, 256-12, free)
	require.Equal(t, 12, fl.BadBlocks())
	require.Equal(t, int64(12), f.FaultStats().FactoryBad)
	require.NoError(t, fl.Check())
	const n = 3000
	got := writeReadAll(t, r, n, 1)
	for lpn := int64(0); lpn < n; lpn++ {
		require.Equal(t, Stamp(lpn, 1), got[lpn], "lpn %d", lpn)
	}
	for g := 0; g < 4; g++ {
		for _, a := range r.die(g).FactoryBad() {
			require.Zero(t, r.die(g).NextPage(a.Plane, a.Block), "die %d %v programmed", g, a)
			require.Zero(t, r.die(g).EraseCount(a.Plane, a.Block), "die %d %v erased", g, a)
		}
	}
	require.NoError(t, fl.Check())
}

// TestScriptedEraseFailure: the first erase of die 0 plane 0 block 0 fails. Worked by hand:
// 300 logical pages rewritten 50 times (15,000 page writes, ≈ 3,750 a die, 29 blocks of a
// plane's 32) push every plane below the GC threshold of 3 free blocks, and the first
// block plane 0 of die 0 opened, block 0, becomes a GC victim (it is the oldest and its
// pages all superseded). Its erase fails, so it is retired (not returned to the free list),
// never erased again (erase count 1: the failed attempt), EraseFailures = RetiredBlocks =
// 1, and every page still reads back its last version (50).
func TestScriptedEraseFailure(t *testing.T) {
	fs := die.FaultSpec{Scripted: []die.ScriptedFault{{Die: "ssd.ch[0].die[0]", Op: "erase", Plane: 0, Block: 0}}}
	r := newRig(t, smallSpec(Vanilla, "sequential"), withFaults(fs))
	const n, versions = 300, 50
	got := writeReadAll(t, r, n, versions)
	for lpn := int64(0); lpn < n; lpn++ {
		require.Equal(t, Stamp(lpn, versions), got[lpn], "lpn %d", lpn)
	}
	f := r.fw
	fl := f.FTL()
	require.Positive(t, f.Stats.GCRuns)
	require.True(t, fl.IsBad(0))
	require.Equal(t, FaultStats{EraseFailures: 1, RetiredBlocks: 1}, f.FaultStats())
	require.Equal(t, 1, r.die(0).EraseCount(0, 0))
	require.NoError(t, fl.Check())
}

// TestProgramFailureRate: with programs failing at a rate of 1 in 400 and erases 1 in 20,
// and reads needing retry steps as blocks wear, a rewrite-heavy workload (400 pages × 40
// versions, GC running) on a rig whose dies can spare 24 blocks each (roomySpec) still
// reads back every page's last version, the FTL invariants hold after every GC (Verify),
// the drive never goes read-only (about 16,000 programs × 1/400 = 40 program failures and
// a few erase failures, some 12 grown bad blocks a die), and the counters agree: each
// failure either re-programmed its page or found it superseded, and retired at most one
// block each.
func TestProgramFailureRate(t *testing.T) {
	for _, c := range []struct {
		policy Policy
		alloc  string
		seed   uint64
	}{{FastDrain, "latency-aware", 3}, {Vanilla, "sequential", 4}, {FastDrain, "skip-to-lsb", 5}} {
		t.Run(string(c.policy)+"/"+c.alloc, func(t *testing.T) {
			faultRateRun(t, c.policy, c.alloc, c.seed)
		})
	}
}

func faultRateRun(t *testing.T, policy Policy, alloc string, seed uint64) {
	// Reads: 0.004 × 8,192 bits = 32.8 errors a codeword when fresh (ECC 40: no retry),
	// doubling every pe_scale of 2 cycles and growing with the block's reads (exponent 0.2
	// on the retention term), so worn and much-read blocks need retry steps; 8 steps at gain
	// 0.5 correct up to 40 × 256 errors, so no read is uncorrectable.
	rd := die.ReadErrorSpec{RBER: 0.004, PEScale: 2, PEExponent: 1, Retention: 0.001, AgeUnit: sim.Second,
		AgeExponent: 1, ReadExponent: 0.2, ECCBits: 40, Codeword: 1024, RetryGain: 0.5, MaxRetries: 8}
	r := newRig(t, roomySpec(policy, alloc), withFaults(die.FaultSpec{ProgramFail: 0.0025, EraseFail: 0.05, Seed: seed, Read: rd}))
	const n, versions = 400, 40
	got := writeReadAll(t, r, n, versions)
	for lpn := int64(0); lpn < n; lpn++ {
		require.Equal(t, Stamp(lpn, versions), got[lpn], "lpn %d", lpn)
	}
	s := r.fw.FaultStats()
	require.False(t, r.fw.ReadOnly(), "%+v", r.fw.Health())
	require.Positive(t, s.ProgramFailures)
	require.Positive(t, s.EraseFailures)
	require.Positive(t, s.ReadRetries)
	require.Zero(t, s.Uncorrectable)
	require.LessOrEqual(t, s.Reprograms, s.ProgramFailures)
	require.LessOrEqual(t, s.RetiredBlocks, s.ProgramFailures+s.EraseFailures)
	require.Equal(t, int64(r.fw.FTL().BadBlocks()), s.RetiredBlocks)
	require.NoError(t, r.fw.FTL().Check())
	g := r.fw.FTL().Geometry()
	require.NoError(t, r.fw.FTL().CheckProgrammed(func(b ftl.BlockID) int {
		dieIdx, plane, blk := g.BlockAddr(b)
		return r.die(dieIdx).NextPage(plane, blk)
	}), "the FTL's write pointers agree with the dies'")
	t.Logf("%+v", s)
}

// TestFaultsDeterministic: the same fault seed gives the same faults, the same handling and
// the same end time; another seed gives other faults.
func TestFaultsDeterministic(t *testing.T) {
	run := func(seed uint64) (FaultStats, sim.Time) {
		r := newRig(t, roomySpec(FastDrain, "latency-aware"), withFaults(die.FaultSpec{ProgramFail: 0.01, EraseFail: 0.05, FactoryBad: 1, Seed: seed}))
		writeReadAll(t, r, 300, 10)
		return r.fw.FaultStats(), r.eng.Now()
	}
	a, ta := run(1)
	b, tb := run(1)
	c, _ := run(2)
	require.Equal(t, a, b)
	require.Equal(t, ta, tb)
	require.NotEqual(t, a, c)
}

// TestFactoryBadTooMany: 60 factory bad blocks of a die's 64 (2 planes × 32) leave at most
// 4 good blocks on its two planes together, so some plane keeps at most 2, not more than the
// GC threshold of 3: the build fails naming the key, instead of a device that collects
// forever.
func TestFactoryBadTooMany(t *testing.T) {
	chs := channel.DefaultSpec()
	chs.Dies = 2
	chs.Die = smallDie()
	chs.Die.Faults = die.FaultSpec{FactoryBad: 60}
	eng := sim.NewEngine()
	defer eng.Close()
	var chans []*channel.Channel
	for i := 0; i < 2; i++ {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), chs)
		require.NoError(t, err)
		chans = append(chans, ch)
	}
	ctrl := nvmectrl.New("ssd.nvme", nvmectrl.DefaultSpec(), eng, pcie.NewLink("ssd.pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory())
	_, err := New("ssd.fw", smallSpec(Vanilla, "sequential"), eng, hwPorts(t, chans, ctrl))
	require.ErrorContains(t, err, "flash.die.faults.factory_bad: die 0 plane")
	require.ErrorContains(t, err, "not more than firmware.ftl.gc_threshold (3)")
}
