package firmware

import (
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/hwadapter"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// Fake ports: the firmware on a fake flash, memory and host, without the PCIe, controller,
// DRAM and channel models. Each die runs its transactions one at a time in submission
// order, a read in fakeTR, a program in fakeTPROG (one LSB tPROG of the TLC die), an erase
// in fakeTBERS; every memory move and host transfer takes fakeLat.
const (
	fakeTR    = 58 * sim.Microsecond
	fakeTPROG = 558 * sim.Microsecond
	fakeTBERS = 3 * sim.Millisecond
	fakeLat   = sim.Microsecond
)

type fakeFlash struct {
	eng      *sim.Engine
	geo      ftl.Geometry
	die      hal.DieSpec
	free     []sim.Time         // per die: when its last transaction ends
	pages    map[ftlPage]uint64 // programmed pages' stamps
	programs int64              // pages programmed
	reads    int64              // pages read
	progLog  []fakeProgram      // every program transaction, in submission order
}

// fakeProgram is one program transaction the fake flash took: its die and when.
type fakeProgram struct {
	g  int
	at sim.Time
}

type ftlPage struct{ g, plane, block, page int }

func (f *fakeFlash) Geometry() ftl.Geometry { return f.geo }
func (f *fakeFlash) Die() hal.DieSpec       { return f.die }

// newFakeFlash returns a fake flash of 2 channels of 2 dies of spec d.
func newFakeFlash(eng *sim.Engine, d die.Spec) *fakeFlash {
	ds := hwadapter.DieSpec(d)
	return &fakeFlash{eng: eng, geo: ftl.GeometryOf(2, 2, ds), die: ds, free: make([]sim.Time, 4), pages: map[ftlPage]uint64{}}
}
func (f *fakeFlash) Prefetch(int, nand.Addr) {}

// Submit applies the transaction at once (each die runs its transactions in order, so
// what a read sees is what was submitted before it) and completes it when the die is done.
func (f *fakeFlash) Submit(g int, tx *hal.FlashCmd) {
	d := map[hal.FlashOp]sim.Time{hal.FlashRead: fakeTR, hal.FlashProgram: fakeTPROG, hal.FlashErase: fakeTBERS}[tx.Op]
	if tx.Op == hal.FlashProgram {
		f.progLog = append(f.progLog, fakeProgram{g, f.eng.Now()})
	}
	f.free[g] = max(f.free[g], f.eng.Now()) + d
	for i, a := range tx.Addrs {
		p := ftlPage{g, a.Plane, a.Block, a.Page}
		switch tx.Op {
		case hal.FlashRead:
			f.reads++
			s, ok := f.pages[p]
			if !ok {
				s = nand.ErasedStamp
			}
			tx.Stamps = append(tx.Stamps[:i], s)
		case hal.FlashProgram:
			f.pages[p] = tx.Stamps[i]
			f.programs++
		case hal.FlashErase:
			for pg := 0; pg < f.geo.PagesPerBlock; pg++ {
				delete(f.pages, ftlPage{g, a.Plane, a.Block, pg})
			}
		}
	}
	f.eng.Schedule(f.free[g], tx.Done, tx, 0)
}

type fakeMemory struct{ moved int64 }

func (m *fakeMemory) Access(t sim.Time, _ uint64, n int, _ bool) sim.Time {
	m.moved += int64(n)
	return t + fakeLat
}
func (m *fakeMemory) Capacity() uint64 { return 64 << 20 }

// fakeHost holds each command's host buffer and its request. Tests build the controller's
// commands (nvmectrl.Command, the SQE as a host writes it); the fake hands the firmware
// each one decoded (hwadapter.HostCmds, as hwadapter.Host does) and finds the test's
// command again from the firmware's (cmds).
type fakeHost struct {
	spec nvmectrl.Spec
	eng  *sim.Engine
	fw   hal.HostFirmware
	cmds map[*hal.HostCmd]*nvmectrl.Command
	data map[*nvmectrl.Command][]byte
	reqs map[*nvmectrl.Command]*req
	// onSubmit, if set, sees each command with its data in place, before the firmware.
	onSubmit func(c *nvmectrl.Command)
}

func (h *fakeHost) Spec() hal.HostSpec              { return hwadapter.HostSpec(h.spec) }
func (h *fakeHost) SetFirmware(fw hal.HostFirmware) { h.fw = fw }
func (h *fakeHost) FetchHostData(now sim.Time, cmd *hal.HostCmd, off, n int, sink hal.DataSink, _ sim.Handler) (sim.Time, bool) {
	return sink.Land(now+fakeLat, cmd, off, n), true
}
func (h *fakeHost) ReadHostData(now sim.Time, _ *hal.HostCmd, _, _ int) sim.Time {
	return now + fakeLat
}
func (h *fakeHost) WriteHostData(now sim.Time, _ *hal.HostCmd, _, _ int) sim.Time {
	return now + fakeLat
}
func (h *fakeHost) CopyFromHost(cmd *hal.HostCmd, off int, dst []byte) {
	copy(dst, h.data[h.cmds[cmd]][off:])
}
func (h *fakeHost) CopyToHost(cmd *hal.HostCmd, off int, src []byte) {
	copy(h.data[h.cmds[cmd]][off:], src)
}
func (h *fakeHost) Uint64FromHost(cmd *hal.HostCmd, off int) uint64 {
	return binary.LittleEndian.Uint64(h.data[h.cmds[cmd]][off:])
}
func (h *fakeHost) Complete(t sim.Time, cmd *hal.HostCmd, st nvme.Status, dw0 uint32, level bufferlevel.Level) {
	rq := h.reqs[h.cmds[cmd]]
	h.eng.At(t, func() {
		rq.done, rq.status, rq.level, rq.levelOK, rq.dw0 = true, st, level, true, dw0
		rq.latency = t - rq.issued
		rq.sig.Notify()
	})
}

// submit hands c to the firmware, decoded into a HostCmd of its own.
func (h *fakeHost) submit(now sim.Time, c *nvmectrl.Command) {
	d := hwadapter.NewHostCmds(1).Decode(c)
	if h.cmds == nil {
		h.cmds = map[*hal.HostCmd]*nvmectrl.Command{}
	}
	h.cmds[d] = c
	h.fw.Submit(now, d)
}

// fake is the firmware on fake ports: 2 channels × 2 dies of smallDie, as the rig.
type fake struct {
	eng   *sim.Engine
	fw    *Firmware
	flash *fakeFlash
	mem   *fakeMemory
	host  *fakeHost
	// mod, if set, edits each command before it is submitted (a placement identifier, a
	// data length the controller would have set); its buffer grows to the DataLen it sets.
	mod func(*nvmectrl.Command)
}

func newFake(t testing.TB, spec Spec, lbaSize int) *fake {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = lbaSize
	return newFakeOn(t, spec, cs)
}

// newFakeOn is newFake with the controller spec cs (its namespaces, FDP).
func newFakeOn(t testing.TB, spec Spec, cs nvmectrl.Spec) *fake {
	eng := sim.NewEngine()
	fl := newFakeFlash(eng, smallDie())
	h := &fakeHost{spec: cs, eng: eng, data: map[*nvmectrl.Command][]byte{}, reqs: map[*nvmectrl.Command]*req{}}
	m := &fakeMemory{}
	fw, err := New("ssd.fw", spec, eng, Ports{Flash: fl, Memory: m, Host: h})
	require.NoError(t, err)
	return &fake{eng: eng, fw: fw, flash: fl, mem: m, host: h}
}

// cmd is rig.cmd on the fake: it issues one command from process p and waits for its
// completion. For writes, each 4 KiB of the data carries stamps[i] in its first eight
// bytes; for reads, stamps receives them. Blocks are LBAs (of the host spec's size).
func (r *fake) cmd(p *sim.Proc, op nvme.Opcode, lba int64, blocks int, hint nvme.Hint, stamps []uint64) *req {
	return r.cmdOn(p, 1, op, lba, blocks, hint, stamps)
}

// cmdOn is cmd on namespace nsid, whose LBA size (of the host spec's namespace list, or
// the spec's LBA size for an NSID it lacks) sizes the data.
func (r *fake) cmdOn(p *sim.Proc, nsid uint32, op nvme.Opcode, lba int64, blocks int, hint nvme.Hint, stamps []uint64) *req {
	c := &nvmectrl.Command{SQID: 1, Hint: hint}
	c.SQE.SetRW(op, 0, nsid, 0, 0, uint64(lba), max(blocks, 1))
	lbaSize := r.host.spec.LBASize
	if list := r.host.spec.NamespaceList(); nsid >= 1 && int(nsid) <= len(list) {
		lbaSize = list[nsid-1].LBASize
	}
	buf := make([]byte, max(blocks*lbaSize, 16))
	if r.mod != nil {
		r.mod(c)
		if c.DataLen > len(buf) {
			buf = make([]byte, c.DataLen)
		}
	}
	if op == nvme.OpWrite || op == nvme.OpZoneAppend {
		for i, s := range stamps {
			binary.LittleEndian.PutUint64(buf[i*4096:], s)
		}
	}
	if op == nvme.OpDatasetManagement { // one range: blocks LBAs from lba, deallocate
		binary.LittleEndian.PutUint32(buf[4:], uint32(blocks))
		binary.LittleEndian.PutUint64(buf[8:], uint64(lba))
		c.SQE.SetDW(10, 0)
		c.SQE.SetDW(11, 1<<2)
	}
	rq := &req{issued: p.Now()}
	r.host.data[c], r.host.reqs[c] = buf, rq
	if r.host.onSubmit != nil {
		r.host.onSubmit(c)
	}
	r.host.submit(p.Now(), c)
	for !rq.done {
		p.Wait(&rq.sig)
	}
	if op == nvme.OpRead {
		for i := range stamps {
			stamps[i] = binary.LittleEndian.Uint64(buf[i*4096:])
		}
	}
	return rq
}
