package nvmectrl

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// adminSQE builds an admin command.
func adminSQE(op Opcode, cid uint16, prp1 uint64, cdw10, cdw11 uint32) SQE {
	var e SQE
	e.SetOpcode(op)
	e.SetCID(cid)
	e.SetPRP1(prp1)
	e.SetDW(10, cdw10)
	e.SetDW(11, cdw11)
	return e
}

// runAdmin submits the admin commands es at time 0 on the admin queue with one doorbell,
// runs the engine, and returns the completions, which must be one per command, by CID
// (they may come back out of order: the firmware answers some at once, the controller's
// own take an event more).
func (r *rig) runAdmin(t *testing.T, es []SQE) map[uint16]CQE {
	t.Helper()
	r.at(0, func() {
		for i := range es {
			r.host.push(0, &es[i])
		}
		r.host.ring(0, 0)
	})
	r.eng.Run()
	require.Len(t, r.host.seen, len(es))
	out := map[uint16]CQE{}
	for _, s := range r.host.seen {
		out[s.cqe.CID()] = s.cqe
	}
	return out
}

// TestAdminQueue drives queue set-up through the admin queue and checks each completion's
// status and DW0 against the values the NVMe spec fields call for (docs/sources.md §1.4–1.6).
func TestAdminQueue(t *testing.T) {
	r := newRig(t, testSpec(), ArbRoundRobin)
	r.fw.auto, r.fw.level = true, bufferlevel.None
	cq1, sq1 := r.mem.Alloc(16*CQESize), r.mem.Alloc(16*SQESize)
	cmds := []struct {
		e    SQE
		st   Status
		dw0  uint32
		name string
	}{
		// Number of Queues: ask 4 SQs and 4 CQs (0's based 3); granted 4 each.
		{adminSQE(AdminSetFeatures, 0, 0, uint32(FeatureNumberOfQueues), 3<<16|3), StatusSuccess, 3<<16 | 3, "nq"},
		// Create I/O CQ 1: QSIZE 15, PC | IEN, IV 1.
		{adminSQE(AdminCreateIOCQ, 1, cq1, 15<<16|1, 1<<16|2|1), StatusSuccess, 0, "cq1"},
		// Create I/O SQ 1: QSIZE 15, PC, QPRIO medium (10b at bits 2:1), CQID 1.
		{adminSQE(AdminCreateIOSQ, 2, sq1, 15<<16|1, 1<<16|2<<1|1), StatusSuccess, 0, "sq1"},
		// QID 5 is beyond the 4 granted.
		{adminSQE(AdminCreateIOCQ, 3, cq1, 15<<16|5, 3), StatusInvalidQueueID, 0, "qid"},
		// 4097 entries exceed CAP.MQES + 1 = 4096.
		{adminSQE(AdminCreateIOCQ, 4, cq1, 4096<<16|2, 3), StatusInvalidQueueSize, 0, "size"},
		// SQ 2 on CQ 3, which does not exist.
		{adminSQE(AdminCreateIOSQ, 5, sq1, 15<<16|2, 3<<16|1), StatusCompletionQueueInvalid, 0, "cqid"},
		// IV 65 with 65 vectors (0..64).
		{adminSQE(AdminCreateIOCQ, 6, cq1, 15<<16|2, 65<<16|3), StatusInvalidVector, 0, "iv"},
		// PC = 0 with CAP.CQR = 1.
		{adminSQE(AdminCreateIOCQ, 7, cq1, 15<<16|2, 2), StatusInvalidField, 0, "pc"},
		// Arbitration defaults: HPW 1, MPW 1, LPW 0 (weights 2, 2, 1), AB 3.
		{adminSQE(AdminGetFeatures, 8, 0, uint32(FeatureArbitration), 0), StatusSuccess, 0x01010003, "arb"},
		// CQ 1 still has SQ 1.
		{adminSQE(AdminDeleteIOCQ, 9, 0, 1, 0), StatusInvalidQueueDeletion, 0, "delcq"},
		// An unknown feature.
		{adminSQE(AdminSetFeatures, 10, 0, 0x7E, 0), StatusInvalidField, 0, "fid"},
		// Identify Controller (CNS 01h) into a 4 KiB buffer: the controller serves it.
		{adminSQE(AdminIdentify, 11, r.mem.Alloc(IdentifySize), 1, 0), StatusSuccess, 0, "identify"},
		// Identify Namespace (CNS 00h) of NSID 0, which names no active namespace.
		{adminSQE(AdminIdentify, 12, r.mem.Alloc(IdentifySize), 0, 0), StatusInvalidNamespace, 0, "cns"},
		// Abort goes to the firmware, which completes it.
		{adminSQE(AdminAbort, 13, 0, 0, 0), StatusSuccess, 0, "abort"},
	}
	es := make([]SQE, len(cmds))
	for i := range cmds {
		es[i] = cmds[i].e
	}
	for cid, cqe := range r.runAdmin(t, es) {
		c := cmds[cid]
		require.Equal(t, c.st, cqe.Status(), c.name)
		require.Equal(t, c.dw0, cqe.DW0(), c.name)
		require.Equal(t, uint16(0), cqe.SQID())
	}
	require.Equal(t, []uint16{0}, r.fw.order) // only Abort reached the firmware
	require.Equal(t, int64(13), r.c.Stats.AdminHandled)

	// The I/O queue works.
	r.host.qs[1] = &hostQueue{sqBase: sq1, cqBase: cq1, sqSize: 16, cqSize: 16, phase: 1, vector: 1}
	r.host.qids = append(r.host.qids, 1)
	now := r.eng.Now()
	r.at(now, func() {
		e := r.rw(t, OpRead, 77, 8)
		r.host.push(1, &e)
		r.host.ring(now, 1)
	})
	r.eng.Run()
	last := r.host.seen[len(r.host.seen)-1]
	require.Equal(t, uint16(77), last.cqe.CID())
	require.Equal(t, uint16(1), last.qid)
	require.Equal(t, 1, r.host.irqVec[len(r.host.irqVec)-1])

	// Delete SQ 1 then CQ 1 directly.
	require.Equal(t, StatusSuccess, r.c.DeleteSQ(1))
	require.Equal(t, StatusSuccess, r.c.DeleteCQ(1))
	require.Equal(t, StatusInvalidQueueID, r.c.DeleteCQ(1))
	require.Equal(t, StatusInvalidQueueID, r.c.DeleteSQ(0))
}

// TestQueueLimits checks docs/sources.md §1.4: up to 65535 I/O queues of up to 65536 entries.
func TestQueueLimits(t *testing.T) {
	s := testSpec()
	s.MaxIOQueues, s.MaxQueueEntries = 65535, 65536
	r := newRig(t, s, ArbRoundRobin)
	require.Equal(t, uint64(0xFFFF), r.c.ReadReg(RegCAP)&0xFFFF) // MQES 0's based
	base := r.mem.Alloc(65536 * SQESize)
	cases := []struct {
		id      uint16
		entries int
		want    Status
	}{
		{65535, 65536, StatusSuccess},
		{1, 65537, StatusInvalidQueueSize},
		{1, 1, StatusInvalidQueueSize},
		{0, 16, StatusInvalidQueueID},
		{65535, 16, StatusInvalidQueueID}, // exists
	}
	for _, c := range cases {
		require.Equal(t, c.want, r.c.CreateCQ(CQConfig{ID: c.id, Base: base, Entries: c.entries}), "cq %d/%d", c.id, c.entries)
	}
	require.Equal(t, StatusSuccess, r.c.CreateSQ(SQConfig{ID: 65535, Base: base, Entries: 65536, CQID: 65535}))
	require.Equal(t, StatusInvalidField, r.c.CreateCQ(CQConfig{ID: 2, Base: base + 8, Entries: 2}))

	// The doorbell reaches the last index of a 65536-entry ring.
	r.host.qs[65535] = &hostQueue{sqBase: base, cqBase: base, sqSize: 65536, cqSize: 65536, phase: 1}
	require.NotPanics(t, func() { r.c.RingSQ(0, 65535, 0) })
	require.Panics(t, func() { r.c.RingSQ(0, 65535, 65536) })
	require.Panics(t, func() { r.c.RingSQ(0, 3, 0) })

	d := newRig(t, testSpec(), ArbRoundRobin) // default: 64 I/O queues
	require.Equal(t, StatusInvalidQueueID, d.c.CreateCQ(CQConfig{ID: 65, Base: base, Entries: 2}))
}

func TestRegisters(t *testing.T) {
	eng := sim.NewEngine()
	mem := NewHostMemory()
	c := New("nvme", testSpec(), eng, refLink(), mem)
	cap := c.ReadReg(RegCAP)
	require.Equal(t, uint64(4095), cap&0xFFFF) // MQES
	require.Equal(t, uint64(1), cap>>16&1)     // CQR
	require.Equal(t, uint64(1), cap>>17&3)     // AMS: WRR with urgent
	require.Equal(t, uint64(1), cap>>37&1)     // CSS: NVM
	require.Equal(t, uint64(0x00010400), c.ReadReg(RegVS))
	require.Zero(t, c.ReadReg(RegCSTS))
	require.Equal(t, StatusCommandSequenceError, c.CreateCQ(CQConfig{ID: 1, Base: PageSize, Entries: 2}))

	// Every problem is reported at once.
	require.NoError(t, c.WriteReg(RegASQ, 0x1234))
	err := c.WriteReg(RegCC, CCEnable|1<<ccMPSShift|7<<ccAMSShift)
	require.ErrorContains(t, err, "nvmectrl.cc.mps: 1")
	require.ErrorContains(t, err, "nvmectrl.cc.ams: 7")
	require.ErrorContains(t, err, "nvmectrl.aqa")
	require.ErrorContains(t, err, "nvmectrl.asq: 0x1234")
	require.ErrorContains(t, err, "nvmectrl.acq: 0x0")
	require.Zero(t, c.ReadReg(RegCSTS)&CSTSReady)

	s := testSpec()
	s.WRR = false
	rr := New("rr", s, eng, refLink(), mem)
	require.Zero(t, rr.ReadReg(RegCAP)>>17&3)
	require.ErrorContains(t, rr.Enable(mem.Alloc(PageSize), mem.Alloc(PageSize), 2, ArbWRR), "nvmectrl.cc.ams: 1")
	require.Error(t, rr.Enable(PageSize, PageSize, 4097, ArbRoundRobin))

	asq, acq := mem.Alloc(PageSize), mem.Alloc(PageSize)
	require.NoError(t, c.Enable(asq, acq, 32, ArbWRR))
	require.Equal(t, uint64(CSTSReady), c.ReadReg(RegCSTS))
	require.Equal(t, uint64(31<<16|31), c.ReadReg(RegAQA))
	require.Equal(t, asq, c.ReadReg(RegASQ))
	require.Equal(t, acq, c.ReadReg(RegACQ))
	require.Equal(t, ArbWRR, c.arb.mode)
	require.Equal(t, StatusSuccess, c.CreateCQ(CQConfig{ID: 1, Base: mem.Alloc(PageSize), Entries: 2}))

	// Shutdown notification completes at once; clearing EN resets.
	require.NoError(t, c.WriteReg(RegCC, c.ReadReg(RegCC)|1<<ccSHNShift))
	require.Equal(t, uint64(2), c.ReadReg(RegCSTS)>>2&3)
	require.NoError(t, c.WriteReg(RegCC, 0))
	require.Zero(t, c.ReadReg(RegCSTS))
	require.Nil(t, c.cq(1))
	require.Error(t, c.WriteReg(RegCAP, 0))
	require.Panics(t, func() { c.ReadReg(0x44) })
}

func TestSpecValidate(t *testing.T) {
	require.NoError(t, DefaultSpec().Validate())
	s := Spec{Clock: 0, MaxQueueEntries: 1, MaxIOQueues: 65536, Vectors: 2049, ArbitrationBurst: 8,
		HighWeight: 0, MediumWeight: 257, LowWeight: 1, FetchBatch: 0, MaxFetches: 65, MaxCommands: 0,
		LBASize: 520, MaxTransfer: 5000, ArbitrationCycles: -1, CompletionCycles: -1, AdminCycles: -1,
		HintCarrier: 7, StatusCarrier: 7}
	err := s.Validate()
	for _, want := range []string{
		"nvme.clock: 0Hz is not a positive frequency",
		"nvme.max_queue_entries: 1 is not in 2..65536",
		"nvme.max_io_queues: 65536 is not in 1..65535",
		"nvme.vectors: 2049 is not in 1..2048",
		"nvme.arbitration_burst: 8 is not in 0..7",
		"nvme.high_weight: 0 is not in 1..256",
		"nvme.medium_weight: 257 is not in 1..256",
		"nvme.fetch_batch: 0 is not in 1..64",
		"nvme.max_fetches: 65 is not in 1..64",
		"nvme.max_commands: 0 is not in 1..65536",
		"nvme.lba_size: 520 is not one of 512, 1024, 2048, 4096",
		"nvme.max_transfer: 5000 is not a multiple of 4096",
		"nvme.arbitration_cycles: -1 is negative",
		"nvme.completion_cycles: -1 is negative",
		"nvme.admin_cycles: -1 is negative",
		"nvme.hint_carrier: HintCarrier(7)",
		"nvme.status_carrier: StatusCarrier(7)",
	} {
		require.ErrorContains(t, err, want)
	}
	require.NotContains(t, err.Error(), "low_weight")
	require.Panics(t, func() { New("bad", s, sim.NewEngine(), refLink(), NewHostMemory()) })
}
