package nvmectrl

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// hostQueue is the fake host's view of one SQ/CQ pair.
type hostQueue struct {
	sqBase, cqBase uint64
	sqSize, cqSize int
	sqTail         int
	cqHead         int
	phase          uint8 // phase the host expects next; 1 on the first pass
	vector         uint16
}

// seenCQE is a completion the fake host consumed.
type seenCQE struct {
	at   sim.Time // interrupt time at which the host read it
	qid  uint16
	slot int
	cqe  CQE
}

// fakeHost is a minimal NVMe driver: it writes SQEs into host-memory rings, rings doorbells,
// and on an interrupt consumes CQEs by phase tag, then rings the CQ head doorbell once per
// batch, as Linux nvme_process_cq does (docs/sources.md §1.8).
type fakeHost struct {
	t      testing.TB
	c      *Controller
	mem    *HostMemory
	qs     map[uint16]*hostQueue // looked up by qid only, never iterated
	qids   []uint16              // in creation order
	irqs   []sim.Time
	irqVec []int
	seen   []seenCQE
	holdCQ bool // do not ring CQ doorbells (to fill a CQ)
	onCQE  func(now sim.Time, qid uint16, e *CQE)
	keep   bool // record seen CQEs
}

func (h *fakeHost) Interrupt(now sim.Time, vec int) {
	h.irqs = append(h.irqs, now)
	h.irqVec = append(h.irqVec, vec)
	for _, qid := range h.qids {
		q := h.qs[qid]
		if int(q.vector) != vec {
			continue
		}
		found := false
		for {
			var e CQE
			h.mem.ReadCQE(q.cqBase+uint64(q.cqHead)*CQESize, &e)
			if e.Phase() != q.phase {
				break
			}
			found = true
			if h.keep {
				h.seen = append(h.seen, seenCQE{now, qid, q.cqHead, e})
			}
			if q.cqHead++; q.cqHead == q.cqSize {
				q.cqHead, q.phase = 0, q.phase^1
			}
			if h.onCQE != nil {
				h.onCQE(now, qid, &e)
			}
		}
		if found && !h.holdCQ {
			h.c.RingCQ(now, qid, q.cqHead)
		}
	}
}

// push writes e into qid's SQ ring at the host's tail and advances it (no doorbell).
func (h *fakeHost) push(qid uint16, e *SQE) {
	q := h.qs[qid]
	h.mem.WriteSQE(q.sqBase+uint64(q.sqTail)*SQESize, e)
	q.sqTail = (q.sqTail + 1) % q.sqSize
}

func (h *fakeHost) ring(now sim.Time, qid uint16) sim.Time {
	return h.c.RingSQ(now, qid, h.qs[qid].sqTail)
}

// fakeFW records commands and completes them as told.
type fakeFW struct {
	c    *Controller
	cmds []*Command
	// auto, if set, completes each command at once with this status and level.
	auto  bool
	level bufferlevel.Level
	// onSubmit, if set, runs for each command.
	onSubmit func(now sim.Time, cmd *Command)
	order    []uint16 // SQIDs in arrival order
	fetched  []sim.Time
	hints    []Hint
}

func (f *fakeFW) Submit(now sim.Time, cmd *Command) {
	f.order = append(f.order, cmd.SQID)
	f.fetched = append(f.fetched, now)
	f.hints = append(f.hints, cmd.Hint)
	if f.onSubmit != nil {
		f.onSubmit(now, cmd)
		return
	}
	if f.auto {
		f.c.Complete(now, cmd, StatusSuccess, 0, f.level)
		return
	}
	f.cmds = append(f.cmds, cmd)
}

type rig struct {
	eng  *sim.Engine
	link *pcie.Link
	mem  *HostMemory
	c    *Controller
	host *fakeHost
	fw   *fakeFW
}

// testSpec is DefaultSpec with the front-end cycle counts at zero, so times are link times
// rounded to the 400 MHz clock.
func testSpec() Spec {
	s := DefaultSpec()
	s.ArbitrationCycles, s.CompletionCycles, s.AdminCycles = 0, 0, 0
	return s
}

func newRig(t testing.TB, spec Spec, arb Arbitration) *rig {
	eng := sim.NewEngine()
	link := pcie.NewLink("pcie", pcie.DefaultSpec())
	mem := NewHostMemory()
	c := New("nvme", spec, eng, link, mem)
	h := &fakeHost{t: t, c: c, mem: mem, qs: map[uint16]*hostQueue{}, keep: true}
	fw := &fakeFW{c: c}
	c.SetHost(h)
	c.SetFirmware(fw)
	asq, acq := mem.Alloc(64*SQESize), mem.Alloc(64*CQESize)
	require.NoError(t, c.Enable(asq, acq, 64, arb))
	h.qs[0] = &hostQueue{sqBase: asq, cqBase: acq, sqSize: 64, cqSize: 64, phase: 1}
	h.qids = append(h.qids, 0)
	return &rig{eng: eng, link: link, mem: mem, c: c, host: h, fw: fw}
}

// addPair creates CQ qid and SQ qid directly (no admin commands).
func (r *rig) addPair(t testing.TB, qid uint16, sqSize, cqSize int, prio Priority, vec uint16) {
	sq, cq := r.mem.Alloc(sqSize*SQESize), r.mem.Alloc(cqSize*CQESize)
	require.Equal(t, StatusSuccess, r.c.CreateCQ(CQConfig{ID: qid, Base: cq, Entries: cqSize, IEN: true, Vector: vec}))
	require.Equal(t, StatusSuccess, r.c.CreateSQ(SQConfig{ID: qid, Base: sq, Entries: sqSize, CQID: qid, Priority: prio}))
	r.host.qs[qid] = &hostQueue{sqBase: sq, cqBase: cq, sqSize: sqSize, cqSize: cqSize, phase: 1, vector: vec}
	r.host.qids = append(r.host.qids, qid)
}

// rw returns a Read or Write SQE of blocks 512-byte blocks over a fresh contiguous buffer.
func (r *rig) rw(t testing.TB, op Opcode, cid uint16, blocks int) SQE {
	n := blocks * 512
	buf := r.mem.Alloc(n)
	lists := []uint64{}
	for range PRPListPages(buf, n) {
		lists = append(lists, r.mem.Alloc(PageSize))
	}
	prp1, prp2, _, err := BuildPRP(r.mem, buf, n, lists)
	require.NoError(t, err)
	var e SQE
	e.SetRW(op, cid, 1, prp1, prp2, uint64(cid)*8, blocks)
	return e
}

// at runs f at time t on the rig's engine.
func (r *rig) at(t sim.Time, f func()) { r.eng.At(t, f) }

// refLink returns a fresh link with the rig's link spec: the tests replay the bookings the
// controller should make on it to get the expected times from the pcie API itself.
func refLink() *pcie.Link { return pcie.NewLink("ref", pcie.DefaultSpec()) }

// edge returns the first 400 MHz clock edge at or after t (DefaultSpec clock).
func edge(t sim.Time) sim.Time { return sim.NewClock(DefaultSpec().Clock).NextEdge(t) }
