package firmware

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// readOnlyStatus is the status of a write refused in read-only mode: Attempted Write to
// Read Only Range, SCT 1h SC 82h (NVM Command Set Specification 1.0 Figure 16), with Do
// Not Retry (bit 14): 0x4000 | 0x100 | 0x82 = 0x4182.
const readOnlyStatus = nvme.Status(0x4182)

// faultWorkload writes one page at a time, writes times, to pages drawn from [0, span)
// (seeded), a Flush every 64 writes, then reads every page back. It records the version of
// each page's last acknowledged write (ref) and, for each write, whether the drive was read
// only when it completed and its status. It fails the test if a write fails with another
// status than the read-only one, if one fails before the drive is read-only, or if a page
// does not read back its last acknowledged version. It returns the writes and the flushes
// refused.
func faultWorkload(t *testing.T, r *rig, span int64, writes int, seed uint64) (refused, flushesRefused int) {
	t.Helper()
	ref := make([]uint64, span)
	r.eng.Spawn("host", func(p *sim.Proc) {
		rng := sim.NewRNG(seed, "faults")
		for i := 1; i <= writes; i++ {
			lpn := rng.Int64N(span)
			v := Stamp(lpn, uint64(i))
			st := r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{v}).status
			switch {
			case st == nvme.StatusSuccess:
				ref[lpn] = v
			case st == readOnlyStatus && r.fw.ReadOnly():
				refused++
			default:
				require.Failf(t, "write failed", "write %d of lpn %d: %v, read-only %v", i, lpn, st, r.fw.ReadOnly())
			}
			if i%64 == 0 {
				st := r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status
				require.True(t, st == nvme.StatusSuccess || (st == readOnlyStatus && r.fw.ReadOnly()), "flush: %v", st)
				if st != nvme.StatusSuccess {
					flushesRefused++
				}
			}
		}
	})
	r.eng.Run()
	r.readBack(t, span, ref)
	return refused, flushesRefused
}

// TestSparePoolReadOnlyAfterNPlusOne: die 0 has a spare pool of N = 3 blocks
// (firmware.ftl.spare_blocks) and the first program of page 0 of each of plane 0's blocks 0,
// 1, 2 and 3 fails (scripted). Worked by hand: each of those blocks is opened on plane 0 in
// free-list order (by the host write point or the GC stream, which re-programs a failed
// page there), its page 0 fails and the block is retired: 1, 2, 3 grown bad blocks leave
// 2, 1, 0 spares and the drive writing; the 4th (N + 1) leaves −1, more bad blocks than the
// pool, and the drive is read-only from that instant. So: every write completed while 3 or
// fewer blocks were retired succeeded, and the drive is read-only exactly when the 4th is;
// then writes fail with Attempted Write to Read Only Range and DNR (0x4182), reads are
// served (every page reads back its last acknowledged version), and the SMART / Health log
// reports available spare 0 % (no spare left on die 0, floor(0 × 100 / 3)) below the
// threshold of 10 %, reliability degraded and read-only: critical warning bits 0, 2 and 3,
// 1 + 4 + 8 = 0x0D.
func TestSparePoolReadOnlyAfterNPlusOne(t *testing.T) {
	var fs die.FaultSpec
	for b := 0; b < 4; b++ {
		fs.Scripted = append(fs.Scripted, die.ScriptedFault{Die: "ssd.ch[0].die[0]", Op: "program", Plane: 0, Block: b, Page: 0})
	}
	spec := smallSpec(Vanilla, "sequential")
	spec.FTL.SpareBlocks = 3
	r := newRig(t, spec, withFaults(fs))
	f := r.fw
	type sample struct {
		retired  int64
		readOnly bool
	}
	var samples []sample
	var refusedAt int64 = -1
	r.eng.Spawn("host", func(p *sim.Proc) {
		for lpn := int64(0); lpn < 2000; lpn++ {
			st := r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)}).status
			samples = append(samples, sample{f.FaultStats().RetiredBlocks, f.ReadOnly()})
			if st != nvme.StatusSuccess {
				require.Equal(t, readOnlyStatus, st)
				require.True(t, st.DNR())
				refusedAt = lpn
				break
			}
		}
	})
	r.eng.Run()
	require.Positive(t, refusedAt, "the drive went read-only")
	for i, s := range samples {
		require.Equal(t, s.retired > 3, s.readOnly, "write %d: %d retired", i, s.retired)
	}
	x := f.FaultStats()
	require.Equal(t, int64(4), x.ProgramFailures)
	require.Equal(t, int64(4), x.RetiredBlocks)
	require.Equal(t, int64(1), x.RefusedWrites)
	h := f.Health()
	require.Equal(t, Health{SparePool: 3, SpareLeft: -1, AvailableSpare: 0, Threshold: 10, ReadOnly: true,
		ReadOnlyAt: h.ReadOnlyAt, ReadOnlyDie: 0, ReadOnlyReason: roSpare, GrownBad: 4}, h)
	page := r.ctrl.HealthLog()
	log := nvme.ParseHealthLog(page[:])
	require.Equal(t, uint8(0x0D), log.CriticalWarning)
	require.Equal(t, uint8(0), log.AvailableSpare)
	require.Equal(t, uint8(10), log.AvailableSpareThreshold)
	ref := make([]uint64, 2000)
	for lpn := int64(0); lpn < refusedAt; lpn++ {
		ref[lpn] = Stamp(lpn, 1)
	}
	r.readBack(t, 2000, ref) // reads still served; the refused write and later pages read as never written
	require.NoError(t, f.FTL().Check())
}

// TestEraseFailuresEndReadOnly: every erase fails (flash.die.faults.erase_fail 1). 20,000
// writes over 2,000 logical pages (more than the 256-page buffer holds, so they reach the
// flash: about 5,000 programs a die, 78 blocks' worth of its 64) push every plane to the GC
// threshold; each GC
// victim's erase then fails and the victim is retired. The rig's default pool is 2 % of a
// die's 64 blocks, rounded up: 2; so the third failed erase of a die makes it read-only
// (before this, the host's writes waited for room GC could never make: the run stopped
// with the engine idle). The workload completes: writes after it are refused with 0x4182,
// and every page reads back its last acknowledged version.
func TestEraseFailuresEndReadOnly(t *testing.T) {
	r := newRig(t, smallSpec(Vanilla, "sequential"), withFaults(die.FaultSpec{EraseFail: 1, Seed: 1}))
	refused, flushes := faultWorkload(t, r, 2000, 20000, 1)
	f := r.fw
	require.True(t, f.ReadOnly())
	require.Positive(t, refused)
	h := f.Health()
	require.Equal(t, 2, h.SparePool)
	require.Equal(t, roSpare, h.ReadOnlyReason)
	require.Equal(t, 3, h.GrownBad, "the die that went read-only has its pool + 1 grown bad blocks")
	x := f.FaultStats()
	require.Zero(t, x.ProgramFailures)
	require.GreaterOrEqual(t, x.EraseFailures, int64(3))
	require.Equal(t, x.EraseFailures, x.RetiredBlocks)
	require.Equal(t, int64(refused+flushes), x.RefusedWrites)
	require.NoError(t, f.FTL().Check())
}

// TestFaultRateSweep: program and erase failure rates from none to every operation, alone
// and mixed, on the small rig with a spare pool of 24 blocks a die (roomySpec) and the
// integrity workload (faultWorkload: 20,000 one-page writes over 2,000 pages, reads
// checked; about 5,000 programs a die, so GC runs). Below the pool's limit the run
// completes with every write acknowledged and every page reading back: at rate 0 and
// 0.001 (about 5,000 × 0.001 = 5 program failures a die, far from 24) nothing is refused.
// Past it (1 in 20 programs: some 250 failures a die; every program; half the erases and
// 1 in 20 programs) the drive goes read-only, refuses the writes after, and every
// acknowledged page still reads back. Whatever the rate: a drive still writable has
// refused nothing and no die past its pool; a read-only one has a die past it. No rate
// panics or hangs (the run ends). The long tier runs a grid of 45 rates and 60,000
// writes.
func TestFaultRateSweep(t *testing.T) {
	type rate struct {
		program, erase float64
		within         bool // expected to stay writable
		past           bool // expected to go read-only
	}
	rates := []rate{{0, 0, true, false}, {0.001, 0, true, false}, {0.05, 0, false, true}, {1, 0, false, true},
		{0, 0.5, false, false}, {0.05, 0.5, false, true}}
	writes := 20000
	if testtier.Long() {
		rates = nil
		for _, p := range []float64{0, 0.0002, 0.001, 0.002, 0.005, 0.012, 0.05, 0.2, 1} {
			for _, e := range []float64{0, 0.01, 0.05, 0.5, 1} {
				rates = append(rates, rate{p, e, p <= 0.001 && e == 0, p >= 0.05})
			}
		}
		writes = 60000
	}
	for _, c := range rates {
		t.Run(fmt.Sprintf("program=%v/erase=%v", c.program, c.erase), func(t *testing.T) {
			r := newRig(t, roomySpec(FastDrain, "sequential"), withFaults(die.FaultSpec{ProgramFail: c.program, EraseFail: c.erase, Seed: 7}))
			refused, _ := faultWorkload(t, r, 2000, writes, 7)
			f := r.fw
			h := f.Health()
			if c.within {
				require.False(t, f.ReadOnly(), "%+v", h)
			}
			if c.past {
				require.True(t, f.ReadOnly())
			}
			if f.ReadOnly() {
				require.Greater(t, h.GrownBad, h.SparePool, "read-only only past the pool")
			} else {
				require.Zero(t, refused, "a writable drive refuses nothing")
				require.GreaterOrEqual(t, h.SpareLeft, 0)
			}
			require.NoError(t, f.FTL().Check())
			t.Logf("read-only %v, refused %d, %+v", f.ReadOnly(), refused, f.FaultStats())
		})
	}
}

// TestFailedProgramAfterReadOnlyGoesBack: a spare pool of 1 block and the first programs of
// page 0 of plane 0's blocks 0 and 1 on die 0 failing (scripted). Worked by hand: the first
// host eviction to die 0 plane 0 lands on block 0 page 0 and fails: block 0 is retired (1
// grown bad block, within the pool) and the page is programmed again in the die's GC
// stream, which opens plane 0's next free block, 1, at page 0: that fails too, 2 grown bad
// blocks, past the pool: the drive is read-only, so the page is not programmed a third
// time. Its data goes back to the buffer, dirty, and its logical page maps to no flash page
// (Unplaced = 1): it still reads back its version, served from the buffer, and a Flush
// fails (the buffer holds data the drive will not write). The first page evicted is lpn 0
// (Vanilla evicts oldest first, when the buffer is full), to die 0 plane 0 block 0 page 0.
func TestFailedProgramAfterReadOnlyGoesBack(t *testing.T) {
	fs := die.FaultSpec{Scripted: []die.ScriptedFault{{Die: "ssd.ch[0].die[0]", Op: "program", Plane: 0, Block: 0, Page: 0},
		{Die: "ssd.ch[0].die[0]", Op: "program", Plane: 0, Block: 1, Page: 0}}}
	spec := smallSpec(Vanilla, "sequential")
	spec.FTL.SpareBlocks = 1
	r := newRig(t, spec, withFaults(fs))
	f := r.fw
	const n = 400 // past the 256-page buffer: evictions reach every die
	got := make([]uint64, n)
	var flush nvme.Status
	r.eng.Spawn("host", func(p *sim.Proc) {
		for lpn := int64(0); lpn < n; lpn++ {
			st := r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)}).status
			if st != nvme.StatusSuccess {
				require.Equal(t, readOnlyStatus, st)
				break
			}
		}
		flush = r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status
	})
	r.eng.Run()
	require.True(t, f.ReadOnly())
	require.Equal(t, readOnlyStatus, flush)
	x := f.FaultStats()
	require.Equal(t, int64(2), x.ProgramFailures)
	require.Equal(t, int64(1), x.Reprograms, "the first failure was programmed again, the second not")
	require.Equal(t, int64(1), x.Unplaced)
	// Vanilla evicts only when the buffer is full, oldest first: lpn 0 is the first page
	// evicted, to the sequential allocator's first die (0), plane 0, block 0, page 0.
	st, ok := f.Buffer().Contains(0)
	require.True(t, ok && st == buffer.Dirty, "lpn 0 is dirty in the buffer again")
	require.Equal(t, ftl.NoUnit, f.FTL().Lookup(0), "lpn 0 is on no flash page")
	r.eng.Spawn("read", func(p *sim.Proc) {
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, got[:1]).status)
	})
	r.eng.Run()
	require.Equal(t, Stamp(0, 1), got[0])
	require.NoError(t, f.FTL().Check())
}
