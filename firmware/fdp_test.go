package firmware

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fdpCtrl is the fake's controller spec with FDP on: handles reclaim unit handles of the
// given isolation, one namespace of 4 KiB blocks, the hint in CDW2.
func fdpCtrl(handles int, iso nvme.Isolation) nvmectrl.Spec {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	cs.HintCarrier = nvmectrl.HintCDW2
	cs.FDP = nvmectrl.FDP{Enabled: true, Handles: handles, Isolation: iso}
	return cs
}

// withPID makes the fake's writes carry placement identifier pid (or none for −1).
func withPID(pid int) func(*nvmectrl.Command) {
	return func(c *nvmectrl.Command) {
		if c.SQE.Opcode() == nvme.OpWrite && pid >= 0 {
			c.SQE.SetPlacementID(uint16(pid))
		}
	}
}

// TestFDPPlacesByIdentifier: on the fake (4 dies × 2 planes, a reclaim unit of 8 blocks ×
// 64 pages = 512 pages) with 2 initially isolated handles, eight pages written with
// placement identifier 1 and eight with none (placement handle 0) are evicted by a flush
// into their handles' reclaim units: handle 1 took 8 host pages, handle 0 8, and no block
// holds both (the invariant checker, run after every GC and here). A write with
// identifier 5, which the namespace does not have, goes through handle 0 and is logged as
// an Invalid Placement Identifier event (type 03h) with its PID and NSID. The Reclaim Unit
// Handle Status (I/O Management Receive, MO 01h) lists PIDs 0 and 1 with their handles and
// RUAMW = 512 − pages taken, in 4 KiB logical blocks: 512 − 9 and 512 − 8. A Reclaim Unit
// Handle Update of PID 1 moves handle 1 to a fresh RU: its old one held 8 of 512 pages,
// so a Reclaim Unit Not Fully Written event (00h) is logged and RUAMW is 512 again.
func TestFDPPlacesByIdentifier(t *testing.T) {
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), fdpCtrl(2, nvme.InitiallyIsolated))
	f := r.fw
	require.Equal(t, int64(512), f.ftl.ReclaimUnitPages())
	var status []nvme.RUHStatus
	var afterUpdate []nvme.RUHStatus
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 8; i++ {
			r.mod = withPID(1)
			r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
			r.mod = withPID(-1)
			r.cmd(p, nvme.OpWrite, 100+i, 1, nvme.Hint{}, []uint64{Stamp(100+i, 1)})
		}
		r.mod = withPID(5)
		r.cmd(p, nvme.OpWrite, 200, 1, nvme.Hint{}, []uint64{Stamp(200, 1)})
		r.mod = nil
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		status = r.ruhStatus(p)
		r.ruhUpdate(p, 1)
		afterUpdate = r.ruhStatus(p)
	})
	r.eng.Run()
	require.Equal(t, int64(9), f.ftl.HandleStats(0).HostWrites)
	require.Equal(t, int64(8), f.ftl.HandleStats(1).HostWrites)
	for i := int64(0); i < 8; i++ {
		require.Equal(t, 1, f.ftl.HandleOf(i))
		require.Equal(t, 0, f.ftl.HandleOf(100+i))
	}
	require.Equal(t, 0, f.ftl.HandleOf(200))
	require.NoError(t, f.ftl.Check())
	require.Equal(t, []nvme.RUHStatus{{PID: 0, RUHID: 0, RUAMW: 512 - 9}, {PID: 1, RUHID: 1, RUAMW: 512 - 8}}, status)
	require.Equal(t, uint64(512), afterUpdate[1].RUAMW)
	info := f.FDPInfo()
	require.Len(t, info.HostEvents, 2)
	require.Equal(t, nvme.FDPEvent{Type: nvme.EventInvalidPlacementID, PID: 5, NSID: 1, RUHID: 0, At: info.HostEvents[0].At}, info.HostEvents[0])
	require.Equal(t, nvme.EventRUNotFullyWritten, info.HostEvents[1].Type)
	require.Equal(t, uint16(1), info.HostEvents[1].RUHID)
	require.Equal(t, uint64(17*4096), info.HostBytes, "HBMW: 17 host pages")
	require.Equal(t, uint64(17*4096), info.MediaBytes, "MBMW: no GC yet")
	require.Equal(t, []bool{true, true}, info.Used)
}

// ruhStatus issues I/O Management Receive (MO 01h) for 2 descriptors and decodes it.
func (r *fake) ruhStatus(p *sim.Proc) []nvme.RUHStatus { return r.ruhStatusN(p, 2) }

// ruhStatusN issues I/O Management Receive (MO 01h) for n descriptors (16 + 32·n bytes,
// NUMD 0's based) and decodes it.
func (r *fake) ruhStatusN(p *sim.Proc, n int) []nvme.RUHStatus {
	size := nvme.RUHStatusHeader + nvme.RUHStatusDesc*n
	var data []byte
	r.mod = func(c *nvmectrl.Command) {
		c.SQE.SetOpcode(nvme.OpIOMgmtReceive)
		c.SQE.SetDW(10, uint32(nvme.IOMgmtReclaimUnitStatus))
		c.SQE.SetDW(11, uint32(size/4-1))
		c.DataLen = size
	}
	var cmd *nvmectrl.Command
	r.host.onSubmit = func(c *nvmectrl.Command) { cmd = c }
	r.cmdOn(p, 1, nvme.OpIOMgmtReceive, 0, 1, nvme.Hint{}, nil)
	data = r.host.data[cmd]
	r.mod, r.host.onSubmit = nil, nil
	return nvme.ParseRUHStatus(data[:size])
}

// ruhUpdate issues I/O Management Send (MO 01h) for one placement identifier.
func (r *fake) ruhUpdate(p *sim.Proc, pid uint16) {
	r.mod = func(c *nvmectrl.Command) {
		c.SQE.SetOpcode(nvme.OpIOMgmtSend)
		c.SQE.SetDW(10, uint32(nvme.IOMgmtReclaimUnitUpdate)) // MOS 0: one identifier
		c.DataLen = 2
	}
	r.host.onSubmit = func(c *nvmectrl.Command) { binary.LittleEndian.PutUint16(r.host.data[c], pid) }
	r.cmdOn(p, 1, nvme.OpIOMgmtSend, 0, 1, nvme.Hint{}, nil)
	r.mod, r.host.onSubmit = nil, nil
}

// lifetimeWorkload writes, on the fake with FDP, a hot region of 512 pages rewritten 24
// times and a cold region of 8,000 pages written twice (the second time in a scattered
// order: page 7,919·c mod 8,000), interleaved a page of cold after every page of hot
// (hot through placement identifier hotPID, cold through coldPID; −1: none), then
// flushes. It returns the firmware.
func lifetimeWorkload(t *testing.T, hotPID, coldPID int) *Firmware {
	return lifetimeWorkloadLookahead(t, hotPID, coldPID, 0)
}

// lifetimeWorkloadLookahead is lifetimeWorkload with the evictor's placement look-ahead
// window (firmware.buffer.placement_lookahead) set to lookahead pages.
func lifetimeWorkloadLookahead(t *testing.T, hotPID, coldPID, lookahead int) *Firmware {
	spec := smallSpec(Vanilla, "sequential")
	spec.Verify = false // the invariants are checked once, at the end
	spec.Buffer.PlacementLookahead = lookahead
	r := newFakeOn(t, spec, fdpCtrl(2, nvme.InitiallyIsolated))
	const hot, cold = 512, 8000
	r.eng.Spawn("host", func(p *sim.Proc) {
		v := map[int64]uint64{}
		write := func(lpn int64, pid int) {
			v[lpn]++
			r.mod = withPID(pid)
			r.cmd(p, nvme.OpWrite, lpn, 1, nvme.Hint{}, []uint64{Stamp(lpn, v[lpn])})
		}
		c := int64(0)
		coldPage := func(c int64) int64 {
			if c < cold {
				return hot + c
			}
			return hot + c*7919%cold
		}
		for round := 0; round < 24; round++ {
			for i := int64(0); i < hot; i++ {
				write(i, hotPID)
				if c < 2*cold {
					write(coldPage(c), coldPID)
					c++
				}
			}
		}
		for ; c < 2*cold; c++ {
			write(coldPage(c), coldPID)
		}
		r.mod = nil
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	})
	r.eng.Run()
	require.NoError(t, r.fw.ftl.Check())
	return r.fw
}

// TestFDPLowersWAF is the mechanism's control: the same lifetime-separated workload
// (a small hot region rewritten often, a large cold one rewritten once) with hot and cold
// data in one reclaim unit handle and in two. Mixed, GC victims hold cold pages still
// valid beside the dead hot ones and must move them; separated, hot reclaim units die
// whole and cold ones stay full of valid data, so GC moves fewer pages: the WAF is lower
// with placement. (The buffer of 256 pages absorbs little of it.)
func TestFDPLowersWAF(t *testing.T) {
	mixed := lifetimeWorkload(t, 0, 0)
	split := lifetimeWorkload(t, 0, 1)
	wm, ws := mixed.ftl.Stats.WAF(), split.ftl.Stats.WAF()
	t.Logf("WAF mixed %.3f, separated %.3f; GC runs %d / %d", wm, ws, mixed.Stats.GCRuns, split.Stats.GCRuns)
	require.Positive(t, mixed.Stats.GCRuns, "the workload must make GC run")
	require.Less(t, ws, wm)
	require.Less(t, split.ftl.HandleStats(0).WAF(), mixed.ftl.HandleStats(0).WAF())
}

// TestFDPDurabilityUnderPowerCuts runs the durability checker cutRunOn (its rig 90 % full
// with 10 % over-provisioning)
// on an FDP drive: 2 persistently isolated reclaim unit handles, each of the 8 host
// processes writing its eighth of the span through placement identifier k mod 2, so GC
// moves each handle's data into GC blocks of its own. Recovery rebuilds the map from the
// out-of-band records, which placement does not change: no acknowledged durable write may
// be lost, and the isolation invariant (ftl.Check) holds on the stopped firmware. With
// power-loss protection the drain empties the buffer and loses nothing at all, even when a
// handle's reclaim unit fills just before the cut and every plane is at the GC reserve
// (measured before the hold-up reserve: seed 2005 stopped stuck with 20 pages lost): the
// drain dumps what the allocator cannot place into the hold-up reserve (holdup.go).
// FastDrain's buffer, 10 cuts a setting (2 with -short, 100 in the long tier).
func TestFDPDurabilityUnderPowerCuts(t *testing.T) {
	cuts := 10
	if testing.Short() {
		cuts = 2
	}
	if testtier.Long() {
		cuts = 100
	}
	for _, plp := range []bool{true, false} {
		t.Run(fmt.Sprintf("plp=%v", plp), func(t *testing.T) {
			var moved int64
			for i := 0; i < cuts; i++ {
				seed := uint64(2000 + i)
				spec := plSpec(FastDrain, plp, 0)
				spec.FTL.OverProvisioning = cutOP
				r := newRigOn(t, spec, nil, fdpCtrl(2, nvme.PersistentlyIsolated))
				part := r.fw.LogicalPages() / 8
				r.pid = func(lba int64) int { return int(lba/part) % 2 }
				o := cutRunOn(t, r, plp, seed, func(f *Firmware) { require.NoError(t, f.ftl.Check(), "seed %d", seed) })
				require.Zero(t, o.durableLoss, "seed %d: first: %s", seed, o.firstDurableLoss)
				if plp {
					require.True(t, o.rep.Drained, "seed %d: the drain stopped: %+v", seed, o.rep)
					require.Zero(t, o.volatile, "seed %d", seed)
				}
				require.Positive(t, r.fw.ftl.HandleStats(1).HostWrites, "seed %d: handle 1 took writes", seed)
				moved += r.fw.ftl.HandleStats(0).GCWrites + r.fw.ftl.HandleStats(1).GCWrites
			}
			t.Logf("%d cuts, %d pages of the handles moved by GC", cuts, moved)
			require.Positive(t, moved, "GC moved handles' data")
		})
	}
}

// TestFDPRefused: FDP is refused, naming the field, with a fault model (a retired block's
// reclaim unit is not rebuilt) and with sub-page mapping (several handles' 4 KiB units
// would share a flash page).
func TestFDPRefused(t *testing.T) {
	build := func(spec Spec, d die.Spec) error {
		eng := sim.NewEngine()
		fl := newFakeFlash(eng, d)
		cs := fdpCtrl(2, nvme.InitiallyIsolated)
		h := &fakeHost{spec: cs, eng: eng, data: map[*nvmectrl.Command][]byte{}, reqs: map[*nvmectrl.Command]*req{}}
		_, err := New("ssd.fw", spec, eng, Ports{Flash: fl, Memory: &fakeMemory{}, Host: h})
		return err
	}
	faulty := smallDie()
	faulty.Faults.FactoryBad = 1
	require.ErrorContains(t, build(smallSpec(Vanilla, "sequential"), faulty),
		"nvme.fdp.enabled: Flexible Data Placement with a fault model (flash.die.faults) is not modelled")
	big := smallDie()
	big.PageSize, big.Slots = 8192, 2
	require.ErrorContains(t, build(smallSpec(Vanilla, "sequential"), big),
		"nvme.fdp.enabled: Flexible Data Placement needs one mapping unit a flash page")
}

// TestFDPReclaimGroups: the fake's 4 dies (2 channels × 2 dies, die = channel·2 + way)
// in 2 reclaim groups: InterleavedDie order is dies 0, 2, 1, 3, so group 0 is dies 0 and
// 2 (way 0 of each channel) and group 1 dies 1 and 3; an RU is a block on each of a
// group's 4 planes, 4 × 64 = 256 pages. Two groups take RGIF 1 bit: PID 8001h is group 1's
// placement handle 1, 0000h group 0's handle 0. Eight pages through 8001h land on dies 1
// and 3 only, eight through 0000h on dies 0 and 2 only; the invariant checker passes. The
// Reclaim Unit Handle Status lists the namespace's two placement handles in each group,
// PIDs 0, 1, 8000h, 8001h, with RUAMW 256 − 8 for (0, 0) and (1, 1), 256 for the others.
// PID 8005h (handle 5) is an Invalid Placement Identifier event; a Reclaim Unit Handle
// Update of 8001h moves handle 1 in group 1 only, logging Reclaim Unit Not Fully Written
// with RGID 1.
func TestFDPReclaimGroups(t *testing.T) {
	cs := fdpCtrl(2, nvme.InitiallyIsolated)
	cs.FDP.ReclaimGroups = 2
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), cs)
	f := r.fw
	require.Equal(t, int64(256), f.ftl.ReclaimUnitPages())
	var status, after []nvme.RUHStatus
	r.eng.Spawn("host", func(p *sim.Proc) {
		writeTwoHandles(r, p)
		status = r.ruhStatusN(p, 4)
		r.mod = withPID(0x8005)
		r.cmd(p, nvme.OpWrite, 200, 1, nvme.Hint{}, []uint64{Stamp(200, 1)})
		r.mod = nil
		r.ruhUpdate(p, 0x8001)
		after = r.ruhStatusN(p, 4)
	})
	r.eng.Run()
	g := f.ftl.Geometry()
	for i := int64(0); i < 8; i++ {
		require.Contains(t, []int{1, 3}, g.Addr(ftl.PPN(f.ftl.Lookup(i))).Die, "lpn %d (group 1)", i)
		require.Contains(t, []int{0, 2}, g.Addr(ftl.PPN(f.ftl.Lookup(100+i))).Die, "lpn %d (group 0)", 100+i)
	}
	require.NoError(t, f.ftl.Check())
	require.Equal(t, []nvme.RUHStatus{{PID: 0, RUHID: 0, RUAMW: 256 - 8}, {PID: 1, RUHID: 1, RUAMW: 256},
		{PID: 0x8000, RUHID: 0, RUAMW: 256}, {PID: 0x8001, RUHID: 1, RUAMW: 256 - 8}}, status)
	require.Equal(t, uint64(256), after[3].RUAMW)
	require.Equal(t, uint64(256-8), after[0].RUAMW, "group 0's handle 0 untouched")
	info := f.FDPInfo()
	require.Len(t, info.HostEvents, 2)
	require.Equal(t, nvme.EventInvalidPlacementID, info.HostEvents[0].Type)
	require.Equal(t, uint16(0x8005), info.HostEvents[0].PID)
	require.Equal(t, nvme.EventRUNotFullyWritten, info.HostEvents[1].Type)
	require.Equal(t, uint16(1), info.HostEvents[1].RGID)
	require.Equal(t, uint16(1), info.HostEvents[1].RUHID)
}

// TestFDPReclaimUnitTimeLimit: with ru_time_limit 1 s (ERUTL 1) on the fake (one group, an
// RU of 512 pages), one page through PID 0, flushed, starts handle 0's RU when it is
// programmed at t0; 2 s later the RU has been closed at t0 + 1 s: the Reclaim Unit Handle
// Status shows a fresh RU (RUAMW 512), the Reclaim Unit Time Limit Exceeded event (01h)
// names handle 0 in group 0 at t0 + 1 s (t0 between 0 and the flush's completion), and the RU's one open block was sealed:
// its 63 unwritten pages skipped. Handle 1, never written, has no RU started and no
// event. The control without a limit keeps the RU (RUAMW 511) and logs nothing.
func TestFDPReclaimUnitTimeLimit(t *testing.T) {
	run := func(limit sim.Time) (*fake, []nvme.RUHStatus, int64, sim.Time) {
		cs := fdpCtrl(2, nvme.InitiallyIsolated)
		cs.FDP.RUTimeLimit = limit
		r := newFakeOn(t, smallSpec(Vanilla, "sequential"), cs)
		var st []nvme.RUHStatus
		var flushed sim.Time // the page was programmed (its RU started) by then
		wasted := r.fw.ftl.Stats.Wasted
		r.eng.Spawn("host", func(p *sim.Proc) {
			r.mod = withPID(0)
			r.cmd(p, nvme.OpWrite, 7, 1, nvme.Hint{}, []uint64{Stamp(7, 1)})
			r.mod = nil
			r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
			flushed = p.Now()
			p.Sleep(2 * sim.Second)
			st = r.ruhStatus(p)
		})
		r.eng.Run()
		return r, st, r.fw.ftl.Stats.Wasted - wasted, flushed
	}
	r, st, wasted, flushed := run(sim.Second)
	require.Equal(t, uint64(512), st[0].RUAMW)
	require.Equal(t, uint64(512), st[1].RUAMW)
	require.Equal(t, int64(63), wasted)
	require.Equal(t, int64(2), r.fw.ftl.ReclaimUnitSeq(0, 0))
	info := r.fw.FDPInfo()
	require.Len(t, info.HostEvents, 1)
	e := info.HostEvents[0]
	require.Equal(t, nvme.EventRUTimeLimitExceeded, e.Type)
	require.Equal(t, [2]uint16{0, 0}, [2]uint16{e.RUHID, e.RGID})
	require.Greater(t, e.At, sim.Second, "t0 + 1 s, t0 > 0")
	require.LessOrEqual(t, e.At, flushed+sim.Second, "t0 ≤ the flush's completion")
	require.Equal(t, int64(1), r.fw.fdp.ruTimeouts)

	r, st, wasted, _ = run(0)
	require.Equal(t, uint64(511), st[0].RUAMW)
	require.Zero(t, wasted)
	require.Empty(t, r.fw.FDPInfo().HostEvents)
}

// TestFDPMediaReallocated: when the FTL writes a page outside the reclaim group it was
// written for (ftl.FTL.OnGroupFallback; worked in ftl.TestPlacementGroupFallback), the
// firmware logs a Media Reallocated controller event (80h). On the fake with 2 reclaim
// groups (RGIF 1), 2 handles and one namespace of 512-byte blocks, logical page 5 written
// through handle 1 for group 1 gives: PID 1<<15 | 1 = 8001h (group 1, placement handle 1,
// which references handle 1), NSID 1, RUHID 1, RGID 1, NLBAM 4096/512 = 8 and LBA
// 5 × 8 = 40. No host event is logged.
func TestFDPMediaReallocated(t *testing.T) {
	cs := fdpCtrl(2, nvme.InitiallyIsolated)
	cs.LBASize = 512
	cs.FDP.ReclaimGroups = 2
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), cs)
	r.fw.mediaReallocated(5, 1, 1)
	info := r.fw.FDPInfo()
	require.Empty(t, info.HostEvents)
	require.Equal(t, []nvme.FDPEvent{{Type: nvme.EventMediaReallocated, PID: 0x8001, NSID: 1, RUHID: 1, RGID: 1,
		NLBAM: 8, LBA: 40}}, info.CtrlEvents)
}

// writeTwoHandles writes logical pages 0–7 with placement handle 1 (PID 0x8001) and
// 100–107 with handle 0, interleaved, then flushes.
func writeTwoHandles(r *fake, p *sim.Proc) {
	for i := int64(0); i < 8; i++ {
		r.mod = withPID(0x8001)
		r.cmd(p, nvme.OpWrite, i, 1, nvme.Hint{}, []uint64{Stamp(i, 1)})
		r.mod = withPID(0)
		r.cmd(p, nvme.OpWrite, 100+i, 1, nvme.Hint{}, []uint64{Stamp(100+i, 1)})
	}
	r.mod = nil
	r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
}
