package firmware

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// rig is a whole SSD (PCIe link, controller, DRAM, channels, firmware) with a minimal test
// host: one I/O queue pair whose completions are handled on interrupt. It stands in for
// the host OS model, which tests of the firmware must not depend on.
type rig struct {
	t     testing.TB
	eng   *sim.Engine
	mem   *nvmectrl.HostMemory
	ctrl  *nvmectrl.Controller
	fw    *Firmware
	chans []*channel.Channel

	sqBase, cqBase uint64
	size           int
	tail, head     int
	phase          uint8
	slots          []*req // by CID
	free           []uint16
	slotSig        sim.Signal
	// pid, if set, gives each write's FDP placement identifier by its first LBA (−1: none).
	pid func(lba int64) int
}

// req is one outstanding host command.
type req struct {
	cid     uint16
	buf     uint64   // data buffer in host memory
	lists   []uint64 // PRP list pages
	done    bool
	status  nvme.Status
	level   bufferlevel.Level
	levelOK bool
	sig     sim.Signal
	issued  sim.Time
	latency sim.Time
	dw0     uint32 // the completion's DW0 (a Zone Append's ALBA)
}

const rigMaxBytes = 128 << 10

// smallDie is a 2-plane TLC die of 32 blocks × 64 pages of 4 KiB.
func smallDie() die.Spec {
	d := die.SpecFor(die.TLC)
	d.Planes, d.BlocksPerPlane, d.PagesPerBlock, d.PageSize = 2, 32, 64, 4096
	return d
}

// newRig builds 2 channels × 2 dies of smallDie (16,384 pages, 64 MiB) with spec.
func newRig(t testing.TB, spec Spec, mod func(*channel.Spec)) *rig {
	return newRigLBA(t, spec, mod, 4096)
}

// newRigLBA is newRig with a namespace of lbaSize-byte logical blocks.
func newRigLBA(t testing.TB, spec Spec, mod func(*channel.Spec), lbaSize int) *rig {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = lbaSize
	return newRigOn(t, spec, mod, cs)
}

// newRigOn is newRig with the controller spec cs (FDP, the hint carrier).
func newRigOn(t testing.TB, spec Spec, mod func(*channel.Spec), cs nvmectrl.Spec) *rig {
	eng := sim.NewEngine()
	mem := nvmectrl.NewHostMemory()
	ctrl := nvmectrl.New("ssd.nvme", cs, eng, pcie.NewLink("ssd.pcie", pcie.DefaultSpec()), mem)
	chs := channel.DefaultSpec()
	chs.Dies = 2
	chs.Die = smallDie()
	if mod != nil {
		mod(&chs)
	}
	var chans []*channel.Channel
	for i := 0; i < 2; i++ {
		ch, err := channel.New(eng, fmt.Sprintf("ssd.ch[%d]", i), chs)
		require.NoError(t, err)
		chans = append(chans, ch)
	}
	fw, err := New("ssd.fw", spec, eng, hwPorts(t, chans, ctrl))
	require.NoError(t, err)
	r := &rig{t: t, eng: eng, mem: mem, ctrl: ctrl, fw: fw, chans: chans, size: 256, phase: 1}
	require.NoError(t, ctrl.Enable(mem.Alloc(4096), mem.Alloc(4096), 64, nvmectrl.ArbRoundRobin))
	r.sqBase, r.cqBase = mem.Alloc(r.size*nvmectrl.SQESize), mem.Alloc(r.size*nvmectrl.CQESize)
	require.Equal(t, nvme.StatusSuccess, ctrl.CreateCQ(nvmectrl.CQConfig{ID: 1, Base: r.cqBase, Entries: r.size, IEN: true, Vector: 1}))
	require.Equal(t, nvme.StatusSuccess, ctrl.CreateSQ(nvmectrl.SQConfig{ID: 1, Base: r.sqBase, Entries: r.size, CQID: 1}))
	ctrl.SetHost(r)
	for cid := 0; cid < r.size-1; cid++ {
		rq := &req{cid: uint16(cid), buf: mem.Alloc(rigMaxBytes)}
		rq.lists = []uint64{mem.Alloc(4096)}
		r.slots = append(r.slots, rq)
		r.free = append(r.free, uint16(cid))
	}
	return r
}

// die returns global die g of the rig.
func (r *rig) die(g int) *die.Die {
	n := r.chans[0].NumDies()
	return r.chans[g/n].Die(g % n)
}

// smallSpec is DefaultSpec sized for the small rig.
func smallSpec(policy Policy, alloc string) Spec {
	s := DefaultSpec()
	s.Buffer.Policy = policy
	s.Buffer.Pages = 256
	s.FTL.Allocator = alloc
	s.FTL.OverProvisioning = 0.25
	s.FTL.GCThreshold, s.FTL.GCReserve = 3, 1
	s.FTL.LSBOnlyPages = 2 * 64 // two blocks
	s.Workers = 16
	s.Verify = true
	// The fake has 4 dies: the default share rule's 1 % would keep one background program
	// in flight. The tests of the other mechanisms send a page to each idle die at once, as
	// the idle-dies rule does; TestBackgroundShareBudget tests the share.
	s.Buffer.BackgroundSet = BackgroundSetIdleDies
	return s
}

// Interrupt implements nvmectrl.Host: consume every new CQE, then ring the CQ head once.
func (r *rig) Interrupt(now sim.Time, vector int) {
	var e nvmectrl.CQE
	n := 0
	for {
		r.mem.ReadCQE(r.cqBase+uint64(r.head)*nvmectrl.CQESize, &e)
		if e.Phase() != r.phase {
			break
		}
		rq := r.slots[e.CID()]
		rq.done, rq.status = true, e.Status()
		rq.level, rq.levelOK = r.ctrl.Spec().StatusCarrier.Decode(&e)
		rq.latency = now - rq.issued
		rq.sig.Notify()
		if r.head++; r.head == r.size {
			r.head, r.phase = 0, r.phase^1
		}
		n++
	}
	if n > 0 {
		r.ctrl.RingCQ(now, 1, r.head)
	}
}

// cmd issues one command from process p and waits for its completion. For writes, page i
// of the data carries stamps[i] in its first eight bytes; for reads, stamps receives them.
func (r *rig) cmd(p *sim.Proc, op nvme.Opcode, lba int64, pages int, hint nvme.Hint, stamps []uint64) *req {
	return r.cmdFUA(p, op, lba, pages, hint, stamps, false)
}

// cmdFUA is cmd with the write's Force Unit Access bit set if fua.
func (r *rig) cmdFUA(p *sim.Proc, op nvme.Opcode, lba int64, pages int, hint nvme.Hint, stamps []uint64, fua bool) *req {
	for len(r.free) == 0 {
		p.Wait(&r.slotSig)
	}
	cid := r.free[len(r.free)-1]
	r.free = r.free[:len(r.free)-1]
	rq := r.slots[cid]
	rq.done = false
	n := pages * 4096
	if op == nvme.OpWrite {
		var b [8]byte
		for i := 0; i < pages; i++ {
			binary.LittleEndian.PutUint64(b[:], stamps[i])
			r.mem.Write(rq.buf+uint64(i*4096), b[:])
		}
	}
	var e nvmectrl.SQE
	var prp1, prp2 uint64
	if op == nvme.OpDatasetManagement {
		// One range: context attributes 0, pages blocks, starting at lba.
		var rng [16]byte
		binary.LittleEndian.PutUint32(rng[4:], uint32(pages))
		binary.LittleEndian.PutUint64(rng[8:], uint64(lba))
		r.mem.Write(rq.buf, rng[:])
		prp1 = rq.buf
	}
	if op == nvme.OpRead || op == nvme.OpWrite {
		var err error
		prp1, prp2, _, err = nvmectrl.BuildPRP(r.mem, rq.buf, n, rq.lists)
		require.NoError(r.t, err)
	}
	e.SetRW(op, cid, 1, prp1, prp2, uint64(lba), max(pages, 1))
	if op == nvme.OpDatasetManagement {
		e.SetDW(10, 0)    // one range (0's based)
		e.SetDW(11, 1<<2) // attribute: deallocate
		e.SetDW(12, 0)
	}
	if op == nvme.OpWrite {
		r.ctrl.Spec().HintCarrier.Encode(&e, hint)
		if fua {
			e.SetFUA(true)
		}
		if r.pid != nil {
			if pid := r.pid(lba); pid >= 0 {
				e.SetPlacementID(uint16(pid))
			}
		}
	}
	r.mem.WriteSQE(r.sqBase+uint64(r.tail)*nvmectrl.SQESize, &e)
	if r.tail++; r.tail == r.size {
		r.tail = 0
	}
	rq.issued = p.Now()
	r.ctrl.RingSQ(p.Now(), 1, r.tail)
	for !rq.done {
		p.Wait(&rq.sig)
	}
	if op == nvme.OpRead {
		var b [8]byte
		for i := 0; i < pages; i++ {
			r.mem.Read(rq.buf+uint64(i*4096), b[:])
			stamps[i] = binary.LittleEndian.Uint64(b[:])
		}
	}
	r.free = append(r.free, cid)
	r.slotSig.Notify()
	return rq
}

// mixedOp issues one command of the integrity workloads' mix on pages [lba, lba+n), which
// the caller holds: 55 % writes of fresh stamps (a page in onesEvery carries all-ones data
// instead when onesEvery > 0), 35 % reads each page checked against ref, 5 % deallocates,
// 5 % flushes. It draws from rng in the order both workloads always have, and returns the
// pages a read checked.
func (r *rig) mixedOp(t testing.TB, p *sim.Proc, rng *sim.RNG, lba int64, n int, buf, ref []uint64, version *uint64, onesEvery int) int {
	switch op := rng.IntN(20); {
	case op < 11:
		for i := 0; i < n; i++ {
			*version++
			buf[i] = Stamp(lba+int64(i), *version)
			if onesEvery > 0 && rng.IntN(onesEvery) == 0 {
				buf[i] = die.ErasedStamp
			}
		}
		rq := r.cmd(p, nvme.OpWrite, lba, n, nvme.Hint{Victim: rng.IntN(2) == 0, Pages: uint32(rng.IntN(300))}, buf)
		require.Equal(t, nvme.StatusSuccess, rq.status)
		copy(ref[lba:], buf[:n])
	case op < 18:
		rq := r.cmd(p, nvme.OpRead, lba, n, nvme.Hint{}, buf)
		require.Equal(t, nvme.StatusSuccess, rq.status)
		for i := 0; i < n; i++ {
			require.Equal(t, ref[lba+int64(i)], buf[i], "lba %d at %v", lba+int64(i), p.Now())
		}
		return n
	case op < 19:
		rq := r.cmd(p, nvme.OpDatasetManagement, lba, n, nvme.Hint{}, nil)
		require.Equal(t, nvme.StatusSuccess, rq.status)
		for i := lba; i < lba+int64(n); i++ {
			ref[i] = 0
		}
	default:
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	}
	return 0
}

// hold marks pages [lba, lba+n) busy for one host process of an integrity workload and
// reports true, or reports false, changing nothing, if another holds any of them.
func hold(busy []bool, lba int64, n int) bool {
	for i := lba; i < lba+int64(n); i++ {
		if busy[i] {
			return false
		}
	}
	for i := lba; i < lba+int64(n); i++ {
		busy[i] = true
	}
	return true
}

// release frees pages [lba, lba+n) that hold took.
func release(busy []bool, lba int64, n int) {
	for i := lba; i < lba+int64(n); i++ {
		busy[i] = false
	}
}

// readBack reads every page of the first span back, eight at a time, from wherever it is
// (buffer or flash), and checks each against its expected stamp ref[lba].
func (r *rig) readBack(t testing.TB, span int64, ref []uint64) {
	t.Helper()
	r.eng.Spawn("final", func(p *sim.Proc) {
		got := make([]uint64, 8)
		for lba := int64(0); lba < span; lba += 8 {
			n := int(min(8, span-lba))
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpRead, lba, n, nvme.Hint{}, got).status)
			for i := 0; i < n; i++ {
				require.Equal(t, ref[lba+int64(i)], got[i], "final read of lba %d", lba+int64(i))
			}
		}
	})
	r.eng.Run()
}

// hwPorts returns the ports of simulated hardware (package hwadapter): chans' dies, a
// default DRAM and the controller ctrl.
func hwPorts(t testing.TB, chans []*channel.Channel, ctrl *nvmectrl.Controller) Ports {
	return Ports{Flash: hwFlash(t, chans), Memory: dram.New("ssd.dram", dram.DefaultSpec()), Host: hwadapter.NewHost(ctrl)}
}

// hwFlash returns the flash port of chans (hwadapter.Flash).
func hwFlash(t testing.TB, chans []*channel.Channel) FlashPort {
	fl, err := hwadapter.NewFlash(chans)
	require.NoError(t, err)
	return fl
}
