package firmware

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// plSpec is smallSpec with the out-of-band records kept (power loss can be cut).
func plSpec(policy Policy, plp bool, holdup sim.Time) Spec {
	s := smallSpec(policy, "sequential")
	s.PowerLossProtection = plp
	s.PowerLoss = PowerLoss{Enabled: true, Holdup: holdup}
	return s
}

// readFlash returns what the flash holds at mapping unit u of the rig, 0 for NoUnit.
func (r *rig) readFlash(u ftl.Unit) uint64 {
	if u == ftl.NoUnit {
		return 0
	}
	g, a := r.fw.addr(r.fw.geo.PageOf(u))
	return r.die(g).SlotStamp(a, r.fw.geo.SlotOf(u))
}

// writeThenCut writes pages 0 … n−1 (one command each, the stamp of version 1) into the
// buffer of a vanilla firmware, which evicts nothing while it has room, then cuts the power
// and runs the simulation until the firmware stops.
func writeThenCut(t *testing.T, plp bool, holdup sim.Time, n int) *rig {
	r := newRig(t, plSpec(Vanilla, plp, holdup), nil)
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < int64(n); i++ {
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)}).status)
		}
		require.Equal(t, n, r.fw.Buffer().Dirty(), "nothing evicted before the cut")
		require.NoError(t, r.fw.PowerCut())
	})
	r.eng.Run()
	require.True(t, r.fw.PoweredOff())
	return r
}

// TestPowerCutDrainsWithProtection: 200 dirty pages (vanilla evicts nothing while the
// 256-page buffer has room), a cut with power-loss protection and no hold-up bound. The
// drain programs all 200: 50 a die on 4 dies, 25 multi-plane programs of 2 planes. The
// sequential allocator fills pages 0 … 24 of one block a plane; in the TLC order (die
// package: pages 0–5 LSB, 6–7 CSB, then ((p−8)>>1) % 3) those are 12 LSB (0–5, 8, 9,
// 14, 15, 20, 21), 8 CSB (6, 7, 10, 11, 16, 17, 22, 23) and 5 MSB (12, 13, 18, 19, 24). A
// die programs one after the other, so the drain takes at least
// 12 × 558 + 8 × 2,201 + 5 × 5,001 µs = 6,696 + 17,608 + 25,005 = 49,309 µs;
// the data-in of 2 × 4 KiB a program on a channel shared by 2 dies adds little (at most
// 5 % asserted). Recovery then maps every page to its version 1, and scans 200 pages
// (the records of the 200 programs), a die's 50 pages serially:
// 2 × (12 × 58 + 8 × 78 + 5 × 107) µs = 2 × (696 + 624 + 535) = 3,710 µs.
func TestPowerCutDrainsWithProtection(t *testing.T) {
	r := writeThenCut(t, true, 0, 200)
	rep := r.fw.PowerLossReport()
	require.True(t, rep.Protected)
	require.True(t, rep.Drained)
	require.Equal(t, 200, rep.Dirty)
	require.Equal(t, int64(200), rep.Flushed)
	require.Zero(t, rep.Lost)
	require.GreaterOrEqual(t, rep.DrainTime(), 49309*sim.Microsecond)
	require.LessOrEqual(t, rep.DrainTime(), 49309*sim.Microsecond*105/100)
	rec, err := r.fw.Recover()
	require.NoError(t, err)
	require.Equal(t, int64(200), rec.Mapped)
	require.Equal(t, int64(200), rec.Scanned)
	require.Equal(t, int64(200), rec.Records)
	require.Equal(t, 3710*sim.Microsecond, rec.Time)
	for lpn := int64(0); lpn < 200; lpn++ {
		require.Equal(t, Stamp(lpn, 1), r.readFlash(rec.Map[lpn]), "lpn %d", lpn)
	}
	require.Equal(t, ftl.NoUnit, rec.Map[200])
}

// TestPowerCutHoldupBound: the same 200 dirty pages with a hold-up of 2 ms. A plane's
// first programs are LSB pages (558 µs), so a die finishes at most ⌊2,000 / 558⌋ = 3
// programs in the budget: at most 3 × 4 dies × 2 planes = 24 pages are flushed; the
// programs in flight at the deadline are interrupted. Three rounds do complete (each a
// tPROG of 558 µs after its pages' DRAM read and data-in, about 15–30 µs: the third ends
// by 3 × 558 + 3 × 30 = 1,764 µs < 2 ms, a fourth not before 4 × 558 = 2,232 µs), but the
// first two are single-plane: the evictor sends a die its pages one at a time, and the die
// takes its first two transactions (scheduler.die_depth = 2) before a second page for the
// other plane is queued to merge with (the scheduler merges only programs queued
// together). So 4 + 4 + 8 = 16 pages are flushed (under the 24 of the bound), the other
// 184 are lost and counted, and recovery finds exactly the 16.
func TestPowerCutHoldupBound(t *testing.T) {
	r := writeThenCut(t, true, 2*sim.Millisecond, 200)
	rep := r.fw.PowerLossReport()
	require.False(t, rep.Drained)
	require.Equal(t, 2*sim.Millisecond, rep.DrainTime())
	require.Equal(t, int64(16), rep.Flushed)
	require.Equal(t, 184, rep.Lost)
	rec, err := r.fw.Recover()
	require.NoError(t, err)
	require.Equal(t, int64(16), rec.Mapped)
	for lpn := int64(0); lpn < 200; lpn++ {
		if rec.Map[lpn] != ftl.NoUnit {
			require.Equal(t, Stamp(lpn, 1), r.readFlash(rec.Map[lpn]), "lpn %d", lpn)
		}
	}
}

// TestPowerCutWithoutProtection: without protection the firmware stops at the cut; the
// 200 dirty pages are lost (legal: none was made durable), nothing is on flash.
func TestPowerCutWithoutProtection(t *testing.T) {
	r := writeThenCut(t, false, 0, 200)
	rep := r.fw.PowerLossReport()
	require.False(t, rep.Protected)
	require.Zero(t, rep.DrainTime())
	require.Zero(t, rep.Flushed)
	require.Equal(t, 200, rep.Lost)
	rec, err := r.fw.Recover()
	require.NoError(t, err)
	require.Zero(t, rec.Mapped)
	require.Zero(t, rec.Scanned)
}

// TestPowerLossValidation: the section's errors name their fields.
func TestPowerLossValidation(t *testing.T) {
	s := DefaultSpec()
	s.PowerLoss.Holdup = -sim.Microsecond
	require.ErrorContains(t, s.Validate(), "firmware.power_loss.holdup: -1us must not be negative")
	s.PowerLoss.Holdup = sim.Millisecond
	require.ErrorContains(t, s.Validate(), "firmware.power_loss.holdup: 1ms is set but firmware.power_loss.enabled is false")
	s.PowerLoss.Enabled = true
	// Issue 38: a hold-up without the capacitors it stands for was accepted, and did nothing.
	require.EqualError(t, s.Validate(), "firmware.power_loss.holdup: 1ms is set but firmware.power_loss_protection is false: without power-loss protection nothing runs after a cut")
	s.PowerLossProtection = true
	require.NoError(t, s.Validate())
	s.PowerLoss.CutAt = -sim.Millisecond
	require.ErrorContains(t, s.Validate(), "firmware.power_loss.cut_at: -1ms must not be negative")
	s.PowerLoss.CutAt, s.PowerLoss.Enabled = sim.Millisecond, false
	require.ErrorContains(t, s.Validate(), "firmware.power_loss.cut_at: 1ms is set but firmware.power_loss.enabled is false")
	r := newRig(t, smallSpec(Vanilla, "sequential"), nil)
	require.EqualError(t, r.fw.PowerCut(), "firmware ssd.fw: a power cut needs firmware.power_loss.enabled")
	_, err := r.fw.Recover()
	require.EqualError(t, err, "firmware: Recover needs firmware.power_loss.enabled")
}

// cutWindow is the span after the first millisecond in which cutRun cuts the power.
var cutWindow = 400 * sim.Millisecond

// cutOP and cutOverwrite: the over-provisioning and preconditioning overwrites of cutRun.
var cutOP, cutOverwrite = 0.1, 0.04

// acked is one acknowledged write of a logical page, as the durability checker keeps it.
type acked struct {
	v   uint64 // the host's version
	no  int64  // its place in the order of acknowledgements (0: preconditioning)
	fua bool
}

// cutOutcome is what one durability run found.
type cutOutcome struct {
	rep                   PowerLossReport
	rec                   *Recovery
	checked, writes       int
	gcMoved               int64
	durableLoss, volatile int
	firstDurableLoss      string
}

// cutRunOn is one durability run on rig r (built with plSpec, 10 % over-provisioning):
// the integrity workload (preconditioned
// 90 % full with 3 % overwrites, so GC moves data), 8 host processes each on its own
// eighth of the logical span issuing random 1–8-page writes (one in 8 with FUA), reads
// (each checked at once) and flushes, until the power is cut at a seeded random instant
// in [1, 31) ms. Then the firmware recovers the mapping from flash, and every logical page
// is read from flash through it. Deallocates are left out: trims are not journaled
// (Recover), so a trimmed page may map to its last copy again.
//
// The checker: a write is durable if it completed with FUA, or completed before a Flush
// was submitted that then completed, or completed at all with power-loss protection. A
// page must read back a version the host wrote there (or preconditioning did), not older
// than its last durable one (else a durable loss); older than its last acknowledged
// write is a volatile loss. sabotage, if not nil, is called on the stopped firmware before
// recovery. The whole-stack campaign (package powercut) is the durability test of every
// policy; this firmware-level checker serves rigs the whole stack does not build (FDP with
// placement identifiers on the rig's own host).
func cutRunOn(t testing.TB, r *rig, plp bool, seed uint64, sabotage func(*Firmware)) cutOutcome {
	f := r.fw
	const fill = 0.9
	require.NoError(t, f.Precondition(fill, cutOverwrite, true, seed))
	span := f.LogicalPages()
	hist := make([][]acked, span)
	issued := make([]map[uint64]bool, span)
	for lpn := int64(0); lpn < int64(fill*float64(span)); lpn++ {
		hist[lpn] = []acked{{v: 1}}
		issued[lpn] = map[uint64]bool{1: true}
	}
	var acks, durableUpTo int64
	version := uint64(1)
	dead := false
	out := cutOutcome{}
	const procs = 8
	part := span / procs
	for k := 0; k < procs; k++ {
		rng := sim.NewRNG(seed, fmt.Sprintf("cut%d", k))
		lo := int64(k) * part
		r.eng.Spawn("host", func(p *sim.Proc) {
			buf := make([]uint64, 8)
			for !dead {
				n := 1 + rng.IntN(8)
				lba := lo + rng.Int64N(part-int64(n)+1)
				switch op := rng.IntN(10); {
				case op < 6:
					fua := rng.IntN(8) == 0
					for i := 0; i < n; i++ {
						version++
						buf[i] = Stamp(lba+int64(i), version)
						if issued[lba+int64(i)] == nil {
							issued[lba+int64(i)] = map[uint64]bool{}
						}
						issued[lba+int64(i)][version] = true
					}
					rq := r.cmdFUA(p, nvme.OpWrite, lba, n, nvme.Hint{}, buf, fua)
					require.Equal(t, nvme.StatusSuccess, rq.status)
					acks++
					out.writes++
					for i := 0; i < n; i++ {
						_, v, _ := StampParts(buf[i])
						hist[lba+int64(i)] = append(hist[lba+int64(i)], acked{v: v, no: acks, fua: fua})
					}
				case op < 9:
					rq := r.cmd(p, nvme.OpRead, lba, n, nvme.Hint{}, buf)
					require.Equal(t, nvme.StatusSuccess, rq.status)
					for i := 0; i < n; i++ {
						var want uint64
						if h := hist[lba+int64(i)]; len(h) > 0 {
							want = Stamp(lba+int64(i), h[len(h)-1].v)
						}
						require.Equal(t, want, buf[i], "read of lba %d before the cut", lba+int64(i))
					}
				default:
					from := acks
					r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
					durableUpTo = max(durableUpTo, from)
				}
			}
		})
	}
	rng := sim.NewRNG(seed, "cut")
	at := sim.Millisecond + sim.Time(rng.Int64N(int64(cutWindow)))
	r.eng.At(at, func() {
		dead = true
		require.NoError(t, f.PowerCut())
	})
	r.eng.Run()
	require.True(t, f.PoweredOff(), "seed %d: the firmware did not stop", seed)
	r.eng.Close()
	out.rep = f.PowerLossReport()
	out.gcMoved = f.Stats.GCPagesMoved
	if sabotage != nil {
		sabotage(f)
	}
	rec, err := f.Recover()
	require.NoError(t, err)
	out.rec = rec
	for lpn := int64(0); lpn < span; lpn++ {
		var durable, last uint64
		for _, a := range hist[lpn] {
			if plp || a.fua || a.no <= durableUpTo {
				durable = max(durable, a.v)
			}
			last = max(last, a.v)
		}
		got := r.readFlash(rec.Map[lpn])
		var v uint64
		if got != 0 {
			gl, gv, ok := StampParts(got)
			require.True(t, ok && gl == lpn && issued[lpn][gv], "seed %d: lpn %d reads %#x, which was never written there", seed, lpn, got)
			v = gv
		}
		out.checked++
		switch {
		case v < durable:
			if out.durableLoss == 0 {
				out.firstDurableLoss = fmt.Sprintf("lpn %d reads version %d, durable %d, last %d", lpn, v, durable, last)
			}
			out.durableLoss++
		case v < last:
			out.volatile++
		}
	}
	return out
}

// TestPowerLossMemory: the out-of-band records add 8 B a physical page to the estimate:
// the small rig's 2 × 2 dies × 2 planes × 32 blocks × 64 pages = 16,384 pages, 131,072 B.
func TestPowerLossMemory(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	b0, p0 := MemoryBytes(s, hwadapter.DieSpec(smallDie()), 2, 2)
	s.PowerLoss.Enabled = true
	b1, p1 := MemoryBytes(s, hwadapter.DieSpec(smallDie()), 2, 2)
	require.Equal(t, int64(131072), b1-b0)
	require.Equal(t, int64(131072), p1-p0)
}

// TestScriptedPowerCut: firmware.power_loss.cut_at cuts the power at its instant by
// itself. 200 one-page writes complete by 2 ms (about 7.6 µs each, one at a time); the
// next, issued at 6 ms, after the cut at 5 ms, is dropped (never
// completed); without protection the firmware stops at 5 ms, losing the 200 dirty pages.
func TestScriptedPowerCut(t *testing.T) {
	s := plSpec(Vanilla, false, 0)
	s.PowerLoss.CutAt = 5 * sim.Millisecond
	r := newRig(t, s, nil)
	done := 0
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 300; i++ {
			if i == 200 {
				p.Sleep(6*sim.Millisecond - p.Now())
			}
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			done++
		}
	})
	r.eng.Run()
	require.True(t, r.fw.PoweredOff())
	require.Equal(t, 200, done, "the write after the cut never completes")
	rep := r.fw.PowerLossReport()
	require.Equal(t, 5*sim.Millisecond, rep.At)
	require.Equal(t, 200, rep.Lost)
	r.eng.Close()
}

// TestFlashLostForgetsRecords: after the 200-page drain of TestPowerCutDrainsWithProtection
// every logical page is recovered at version 1 (one copy each: nothing was written before);
// when the dies lose the pages holding logical pages 7 and 150 (die.Die.Cut, applied by
// platforms.Machine.CutFlash), their records go with them and recovery maps 198 logical
// pages, 7 and 150 to nothing. FlashLost before the firmware stopped is an error.
func TestFlashLostForgetsRecords(t *testing.T) {
	fresh := newRig(t, plSpec(Vanilla, true, 0), nil)
	require.ErrorContains(t, fresh.fw.FlashLost(nil), "before the firmware stopped")
	r := writeThenCut(t, true, 0, 200)
	rec, err := r.fw.Recover()
	require.NoError(t, err)
	require.Equal(t, int64(200), rec.Mapped)
	lost := []ftl.PPN{r.fw.geo.PageOf(rec.Map[7]), r.fw.geo.PageOf(rec.Map[150])}
	require.NoError(t, r.fw.FlashLost(lost))
	rec, err = r.fw.Recover()
	require.NoError(t, err)
	require.Equal(t, int64(198), rec.Mapped)
	require.Equal(t, int64(198), rec.Records)
	require.Equal(t, ftl.NoUnit, rec.Map[7])
	require.Equal(t, ftl.NoUnit, rec.Map[150])
	require.NotEqual(t, ftl.NoUnit, rec.Map[8])
}
