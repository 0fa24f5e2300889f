package firmware

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// bastSpec is smallSpec with BAST mapping and 4 log blocks per die. The rig's die has 2 ×
// 32 blocks of 64 pages; 25 % over-provisioning leaves 12,288 logical pages, 48 logical
// blocks a die, so a die holds 48 data + 4 log blocks + a full merge's block + the GC
// reserve (1 a plane) = 55 ≤ 64.
func bastSpec(pol Policy) Spec {
	s := smallSpec(pol, "sequential")
	s.FTL.Mapping, s.FTL.LogBlocks = ftl.BASTMapping, 4
	return s
}

// dieTotals sums the rig's dies' counters.
func dieTotals(r *rig) (reads, programs, erases int64) {
	for g := 0; g < 4; g++ {
		s := r.die(g).Stats()
		for k := range s.Programs {
			reads += s.Reads[k]
			programs += s.Programs[k]
		}
		erases += s.Erases
	}
	return
}

// TestBASTMergesAreFlashWork: the merges are carried out on the dies, with their reads,
// programs and erases. The rig has 4 dies of 64-page blocks; logical page lpn is on die
// InterleavedDie(lpn mod 4) at offset (lpn div 4) mod 64 of logical block
// (lpn div 256)·4 + lpn mod 4.
//
//   - Pass 1 writes lpns 0 … 255 in order and flushes: each die's logical block 0 (64
//     pages) fills its log block in order: 4 switch merges, 256 programs, no copy, no erase
//     (there was no data block).
//   - Pass 2, the same: 4 switch merges, each erasing the old data block: 256 programs, 4
//     erases, no read.
//   - Pass 3 writes the same 256 pages in reverse order: each log block fills out of order:
//     4 full merges, each reading the 64 pages of its log block and programming them into a
//     new block in order, erasing the data and the log block: 256 + 256 programs, 256
//     reads, 8 erases.
func TestBASTMergesAreFlashWork(t *testing.T) {
	r := newRig(t, bastSpec(Vanilla), nil)
	pass := func(p *sim.Proc, reverse bool) {
		for i := int64(0); i < 256; i++ {
			lpn := i
			if reverse {
				lpn = 255 - i
			}
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)}).status)
		}
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	}
	type totals struct{ reads, programs, erases, switches, fulls, copies int64 }
	var got []totals
	snap := func() {
		rd, pr, er := dieTotals(r)
		s := r.fw.FTL().Stats
		got = append(got, totals{rd, pr, er, s.SwitchMerges, s.FullMerges, s.MergeCopies})
	}
	r.eng.Spawn("host", func(p *sim.Proc) {
		for _, rev := range []bool{false, false, true} {
			pass(p, rev)
			p.Sleep(sim.Second) // the merges finish: a full merge programs 64 TLC pages on one die (64 × 2.6 ms mean tPROG)
			snap()
		}
	})
	r.eng.Run()
	require.Equal(t, []totals{
		{0, 256, 0, 4, 0, 0},
		{0, 512, 4, 8, 0, 0},
		{256, 1024, 12, 8, 4, 256},
	}, got)
	require.NoError(t, r.fw.FTL().Check())
	require.Equal(t, int64(256), r.fw.Stats.GCPagesMoved)
}

// TestBASTMergeDelaysTheWritesThatWaitForIt: a write whose logical block has no log block
// with every log block of its die bound waits for a merge, which the die does with its own
// timing. One die's pool is 4 log blocks; logical blocks 0, 4, 8, 12 of die 0 (lpns 0,
// 1024, 2048, 3072: on die InterleavedDie(0) at offset 0) take them; the write of lpn 4096
// (logical block 16, die 0) must wait for the merge of logical block 0's log block (the
// least recently written), a partial merge of a log block holding offset 0 with no data
// block: nothing to copy or erase, so the write waits only for its turn in the buffer. With
// data blocks (a second round of the same writes) the partial merge of logical block 0
// copies offsets 1 … 63 of its data block (63 reads, 63 programs) and erases it.
func TestBASTMergeDelaysTheWritesThatWaitForIt(t *testing.T) {
	r := newRig(t, bastSpec(Vanilla), nil)
	f := r.fw
	lpns := []int64{0, 1024, 2048, 3072, 4096}
	var partial []int64
	r.eng.Spawn("host", func(p *sim.Proc) {
		// Data blocks for logical blocks 0, 4, 8, 12, 16: write them whole (switch merges).
		for _, base := range lpns {
			for off := int64(0); off < 64; off++ {
				lpn := base + 4*off
				r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 1)})
			}
		}
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		p.Sleep(100 * sim.Millisecond)
		s0 := f.FTL().Stats
		_, _, e0 := dieTotals(r)
		for _, lpn := range lpns {
			r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, 2)})
			r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		}
		p.Sleep(100 * sim.Millisecond)
		s1 := f.FTL().Stats
		_, _, e1 := dieTotals(r)
		partial = []int64{s1.PartialMerges - s0.PartialMerges, s1.MergeCopies - s0.MergeCopies, e1 - e0}
	})
	r.eng.Run()
	// One partial merge of logical block 0 (63 copies, 1 erase).
	require.Equal(t, []int64{1, 63, 1}, partial)
	require.NoError(t, f.FTL().Check())
	// Every page reads back its last version.
	r.eng.Spawn("read", func(p *sim.Proc) {
		got := []uint64{0}
		for _, lpn := range lpns {
			r.cmd(p, nvme.OpRead, lpn, 1, nvme.Hint{}, got)
			require.Equal(t, Stamp(lpn, 2), got[0], "lpn %d", lpn)
		}
	})
	r.eng.Run()
}

// TestBASTIntegrity: the integrity workload (spanRun: the device preconditioned 90 % full,
// 8 processes of random writes, checked reads, trims and flushes over the whole span, forced
// collisions of host rewrites with the evictor's programs and with merge copies) on BAST,
// with the FTL's invariants (BAST's included) checked after every merge (Spec.Verify).
func TestBASTIntegrity(t *testing.T) {
	ios := 1000
	if testing.Short() {
		ios = 300
	}
	for _, pol := range []Policy{Vanilla, FastDrain} {
		t.Run(pol.String(), func(t *testing.T) {
			r, ev, gc := spanRun(t, bastSpec(pol), ios, 5, 10)
			s := r.fw.FTL().Stats
			require.Positive(t, s.FullMerges)
			require.Equal(t, s.MergeCopies, r.fw.Stats.GCPagesMoved)
			require.Equal(t, 10, ev, "rewrites during the evictor's programs")
			require.Equal(t, 10, gc, "rewrites during merge copies")
			t.Logf("merges: %d switch, %d partial, %d full; %d copies; WAF %.2f", s.SwitchMerges, s.PartialMerges, s.FullMerges, s.MergeCopies, s.WAF())
		})
	}
}

// TestBASTRefusesFaults: BAST's merges assume every program and erase succeeds. Power-loss
// records work under it: recovery rebuilds the newest copy of each logical page from the
// records, whatever the mapping scheme (the campaign in package powercut cuts BAST).
func TestBASTRefusesFaults(t *testing.T) {
	build := func(spec Spec, fs die.FaultSpec) error {
		eng := sim.NewEngine()
		ctrl := nvmectrl.New("ssd.nvme", nvmectrl.DefaultSpec(), eng, pcie.NewLink("ssd.pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory())
		chs := channel.DefaultSpec()
		chs.Dies, chs.Die = 2, smallDie()
		chs.Die.Faults = fs
		var chans []*channel.Channel
		for i := 0; i < 2; i++ {
			ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), chs)
			require.NoError(t, err)
			chans = append(chans, ch)
		}
		_, err := New("ssd.fw", spec, eng, hwPorts(t, chans, ctrl))
		return err
	}
	s := bastSpec(Vanilla)
	s.PowerLoss.Enabled = true
	require.NoError(t, build(s, die.FaultSpec{}), "power-loss records work under bast (issue 38)")
	require.ErrorContains(t, build(bastSpec(Vanilla), die.FaultSpec{FactoryBad: 1, Seed: 1}), "firmware.ftl.mapping: bast does not handle flash faults")
	require.NoError(t, build(bastSpec(Vanilla), die.FaultSpec{}))
}

// TestBASTIntegrityPatterns: BAST over a preconditioned half-full device under three
// patterns that take each kind of merge. First one process writes 4,096 pages sequentially
// in IOs of 8 (switch merges: 4,096 pages are 16 whole logical blocks a die), then four
// processes run the integrity mix (writes of fresh stamps, reads each page checked,
// deallocates, flushes: mixedOp) with random IOs of 1–4 pages inside a focused 2 MiB area
// (512 pages, two logical blocks a die: full merges as log blocks fill), then anywhere
// (more logical blocks than log blocks: merges to free the pool). Every page is read back
// at the end; the FTL is checked after every merge (Spec.Verify) and at the end.
func TestBASTIntegrityPatterns(t *testing.T) {
	r := newRig(t, bastSpec(FastDrain), nil)
	f := r.fw
	require.NoError(t, f.Precondition(0.5, 0, false, 1))
	span := f.LogicalPages()
	ref := make([]uint64, span)
	for lpn := int64(0); lpn < span/2; lpn++ {
		ref[lpn] = Stamp(lpn, 1)
	}
	version := uint64(1)
	r.eng.Spawn("seq", func(p *sim.Proc) {
		buf := make([]uint64, 8)
		for lba := int64(0); lba < 4096; lba += 8 {
			for i := range buf {
				version++
				buf[i] = Stamp(lba+int64(i), version)
			}
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 8, nvme.Hint{}, buf).status)
			copy(ref[lba:], buf)
		}
	})
	r.eng.Run()
	require.Equal(t, int64(4096/64), f.FTL().Stats.SwitchMerges, "16 logical blocks on each of 4 dies")
	busy := make([]bool, span)
	checked := 0
	const procs, perPhase = 4, 300
	for k := 0; k < procs; k++ {
		rng := sim.NewRNG(9, "bast"+string(rune('a'+k)))
		r.eng.Spawn("host", func(p *sim.Proc) {
			buf := make([]uint64, 8)
			for i := 0; i < 2*perPhase; {
				n := 1 + rng.IntN(4)
				lba := 4096 + rng.Int64N(512-int64(n)) // focused
				if i >= perPhase {
					lba = rng.Int64N(span - int64(n))
				}
				if !hold(busy, lba, n) {
					p.Sleep(sim.Microsecond)
					continue
				}
				checked += r.mixedOp(t, p, rng, lba, n, buf, ref, &version, 0)
				release(busy, lba, n)
				i++
			}
		})
	}
	r.eng.Run()
	require.NoError(t, f.FTL().Check())
	s := f.FTL().Stats
	require.Positive(t, s.FullMerges)
	require.Positive(t, s.Trims)
	require.Positive(t, checked)
	r.readBack(t, span, ref)
	t.Logf("%d reads checked; merges: %d switch, %d partial, %d full; %d copies; %d trims; WAF %.2f",
		checked, s.SwitchMerges, s.PartialMerges, s.FullMerges, s.MergeCopies, s.Trims, s.WAF())
}

// TestBASTIntegrityLong is TestBASTIntegrity at 20,000 I/Os with 50 forced collisions of
// each kind, for both evicting policies (long tier, FASTDRAIN_LONG=1).
func TestBASTIntegrityLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "BAST whole-span integrity runs")
	for _, pol := range []Policy{Vanilla, FastDrain} {
		t.Run(pol.String(), func(t *testing.T) {
			r, ev, gc := spanRun(t, bastSpec(pol), 20_000, 13, 50)
			require.Positive(t, r.fw.FTL().Stats.FullMerges)
			require.Equal(t, 100, ev+gc)
		})
	}
}
