package firmware

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fdpCtrl is the fake's controller spec with FDP on: handles reclaim unit handles of the
// given isolation, one namespace of 4 KiB blocks, the hint in CDW2.
func fdpCtrl(handles int, iso nvmectrl.Isolation) nvmectrl.Spec {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	cs.HintCarrier = nvmectrl.HintCDW2
	cs.FDP = nvmectrl.FDP{Enabled: true, Handles: handles, Isolation: iso}
	return cs
}

// withPID makes the fake's writes carry placement identifier pid (or none for −1).
func withPID(pid int) func(*nvmectrl.Command) {
	return func(c *nvmectrl.Command) {
		if c.SQE.Opcode() == nvmectrl.OpWrite && pid >= 0 {
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
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), fdpCtrl(2, nvmectrl.InitiallyIsolated))
	f := r.fw
	require.Equal(t, int64(512), f.ftl.ReclaimUnitPages())
	var status []nvmectrl.RUHStatus
	var afterUpdate []nvmectrl.RUHStatus
	r.eng.Spawn("host", func(p *sim.Proc) {
		for i := int64(0); i < 8; i++ {
			r.mod = withPID(1)
			r.cmd(p, nvmectrl.OpWrite, i, 1, nvmectrl.Hint{}, []uint64{Stamp(i, 1)})
			r.mod = withPID(-1)
			r.cmd(p, nvmectrl.OpWrite, 100+i, 1, nvmectrl.Hint{}, []uint64{Stamp(100+i, 1)})
		}
		r.mod = withPID(5)
		r.cmd(p, nvmectrl.OpWrite, 200, 1, nvmectrl.Hint{}, []uint64{Stamp(200, 1)})
		r.mod = nil
		r.cmd(p, nvmectrl.OpFlush, 0, 0, nvmectrl.Hint{}, nil)
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
	require.Equal(t, []nvmectrl.RUHStatus{{PID: 0, RUHID: 0, RUAMW: 512 - 9}, {PID: 1, RUHID: 1, RUAMW: 512 - 8}}, status)
	require.Equal(t, uint64(512), afterUpdate[1].RUAMW)
	info := f.FDPInfo()
	require.Len(t, info.HostEvents, 2)
	require.Equal(t, nvmectrl.FDPEvent{Type: nvmectrl.EventInvalidPlacementID, PID: 5, NSID: 1, RUHID: 0, At: info.HostEvents[0].At}, info.HostEvents[0])
	require.Equal(t, nvmectrl.EventRUNotFullyWritten, info.HostEvents[1].Type)
	require.Equal(t, uint16(1), info.HostEvents[1].RUHID)
	require.Equal(t, uint64(17*4096), info.HostBytes, "HBMW: 17 host pages")
	require.Equal(t, uint64(17*4096), info.MediaBytes, "MBMW: no GC yet")
	require.Equal(t, []bool{true, true}, info.Used)
}

// ruhStatus issues I/O Management Receive (MO 01h) for 2 descriptors (16 + 64 bytes, NUMD
// 19: 20 dwords) and decodes it.
func (r *fake) ruhStatus(p *sim.Proc) []nvmectrl.RUHStatus {
	var data []byte
	r.mod = func(c *nvmectrl.Command) {
		c.SQE.SetOpcode(nvmectrl.OpIOMgmtReceive)
		c.SQE.SetDW(10, uint32(nvmectrl.IOMgmtReclaimUnitStatus))
		c.SQE.SetDW(11, 19)
		c.DataLen = 80
	}
	var cmd *nvmectrl.Command
	r.host.onSubmit = func(c *nvmectrl.Command) { cmd = c }
	r.cmdOn(p, 1, nvmectrl.OpIOMgmtReceive, 0, 1, nvmectrl.Hint{}, nil)
	data = r.host.data[cmd]
	r.mod, r.host.onSubmit = nil, nil
	return nvmectrl.ParseRUHStatus(data[:80])
}

// ruhUpdate issues I/O Management Send (MO 01h) for one placement identifier.
func (r *fake) ruhUpdate(p *sim.Proc, pid uint16) {
	r.mod = func(c *nvmectrl.Command) {
		c.SQE.SetOpcode(nvmectrl.OpIOMgmtSend)
		c.SQE.SetDW(10, uint32(nvmectrl.IOMgmtReclaimUnitUpdate)) // MOS 0: one identifier
		c.DataLen = 2
	}
	r.host.onSubmit = func(c *nvmectrl.Command) { binary.LittleEndian.PutUint16(r.host.data[c], pid) }
	r.cmdOn(p, 1, nvmectrl.OpIOMgmtSend, 0, 1, nvmectrl.Hint{}, nil)
	r.mod, r.host.onSubmit = nil, nil
}

// lifetimeWorkload writes, on the fake with FDP, a hot region of 512 pages rewritten 24
// times and a cold region of 8,000 pages written twice (the second time in a scattered
// order: page 7,919·c mod 8,000), interleaved a page of cold after every page of hot
// (hot through placement identifier hotPID, cold through coldPID; −1: none), then
// flushes. It returns the firmware.
func lifetimeWorkload(t *testing.T, hotPID, coldPID int) *Firmware {
	spec := smallSpec(Vanilla, "sequential")
	spec.Verify = false // the invariants are checked once, at the end
	r := newFakeOn(t, spec, fdpCtrl(2, nvmectrl.InitiallyIsolated))
	const hot, cold = 512, 8000
	r.eng.Spawn("host", func(p *sim.Proc) {
		v := map[int64]uint64{}
		write := func(lpn int64, pid int) {
			v[lpn]++
			r.mod = withPID(pid)
			r.cmd(p, nvmectrl.OpWrite, lpn, 1, nvmectrl.Hint{}, []uint64{Stamp(lpn, v[lpn])})
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
		r.cmd(p, nvmectrl.OpFlush, 0, 0, nvmectrl.Hint{}, nil)
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
				r := newRigOn(t, spec, nil, fdpCtrl(2, nvmectrl.PersistentlyIsolated))
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
		cs := fdpCtrl(2, nvmectrl.InitiallyIsolated)
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
