package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/stretchr/testify/require"
)

// twoNSCtrl is ctrlSpec with two namespaces of 4 KiB blocks.
func twoNSCtrl() nvmectrl.Spec {
	cs := ctrlSpec()
	cs.Namespaces = []nvmectrl.Namespace{{Size: 1 << 30}, {Size: 1 << 30}}
	return cs
}

// TestTenantQueues: with two shared queue pairs and a tenant of namespace 2 with one queue
// pair of high priority under weighted round robin, the driver enables the controller with
// CC.AMS 001b (bits 13:11), creates SQs 1 and 2 medium and SQ 3 high, gives namespace 1
// SQs 1–2 and namespace 2 SQ 3: namespace 2's four reads all arrive on SQ 3 with NSID 2,
// namespace 1's round robin on SQs 1 and 2 with NSID 1, and the controller counts them per
// SQ (queue statistics are on: two namespaces).
func TestTenantQueues(t *testing.T) {
	spec := DefaultSpec()
	spec.Queues = 2
	spec.Arbitration = nvmectrl.ArbWRR
	spec.Tenants = []Tenant{{Namespace: 2, Queues: 1, Priority: PrioHigh}}
	r := newRig(t, spec, twoNSCtrl(), 2)
	require.Equal(t, uint64(1), r.ctrl.ReadReg(nvmectrl.RegCC)>>11&7)
	ns1, ns2 := r.d.Namespace(1), r.d.Namespace(2)
	require.Equal(t, []uint16{1, 2}, ns1.QueueIDs())
	require.Equal(t, []uint16{3}, ns2.QueueIDs())
	ns2.SetUpper(r.up)
	for i := range 4 {
		require.True(t, ns1.QueueRequest(0, rw(blk.OpRead, int64(i)*4096, 4096)))
		require.True(t, ns2.QueueRequest(0, rw(blk.OpRead, int64(i)*4096, 4096)))
	}
	r.eng.Run()
	require.Len(t, r.up.dones, 8)
	perSQ := map[uint16][]uint32{}
	for i, q := range r.dev.sqids {
		perSQ[q] = append(perSQ[q], r.dev.sqes[i].NSID())
	}
	require.Equal(t, map[uint16][]uint32{1: {1, 1}, 2: {1, 1}, 3: {2, 2, 2, 2}}, perSQ)
	qs := r.ctrl.QueueStats()
	require.Len(t, qs, 3)
	require.Equal(t, nvmectrl.PrioMedium, qs[0].Priority)
	require.Equal(t, nvmectrl.PrioHigh, qs[2].Priority)
	require.Equal(t, int64(4), qs[2].Reads)
	require.Equal(t, uint64(4), qs[2].Latency.Count())
	require.Equal(t, int64(2), qs[0].Reads)
}

// TestWriteQueues: with write_queues 1 beside two shared queue pairs (Linux: the shared
// ones become HCTX_TYPE_READ, the write queue HCTX_TYPE_DEFAULT), reads go round robin to
// SQs 1 and 2 and writes and flushes to SQ 3.
func TestWriteQueues(t *testing.T) {
	spec := DefaultSpec()
	spec.Queues = 2
	spec.WriteQueues = 1
	r := newRig(t, spec, ctrlSpec(), 2)
	require.Equal(t, 3, r.d.Queues())
	for i := range 2 {
		require.True(t, r.d.QueueRequest(0, rw(blk.OpRead, int64(i)*4096, 4096)))
		require.True(t, r.d.QueueRequest(0, rw(blk.OpWrite, int64(i)*4096, 4096)))
	}
	require.True(t, r.d.QueueRequest(0, &blk.Request{Op: blk.OpFlush}))
	r.eng.Run()
	byOp := map[nvmectrl.Opcode][]uint16{}
	for i, q := range r.dev.sqids {
		op := r.dev.sqes[i].Opcode()
		byOp[op] = append(byOp[op], q)
	}
	require.ElementsMatch(t, []uint16{1, 2}, byOp[nvmectrl.OpRead])
	require.Equal(t, []uint16{3, 3}, byOp[nvmectrl.OpWrite])
	require.Equal(t, []uint16{3}, byOp[nvmectrl.OpFlush])
}

// TestTenantErrors: every problem of the queue sets is named by its field.
func TestTenantErrors(t *testing.T) {
	spec := DefaultSpec()
	spec.WriteQueues = -1
	spec.Tenants = []Tenant{{Namespace: 0, Queues: 0}, {Namespace: 2, Queues: 1}, {Namespace: 2, Queues: 1}}
	err := spec.Validate()
	for _, want := range []string{
		"nvmedrv.write_queues: -1 is not in 0..65535",
		"nvmedrv.tenants[0].namespace: 0 is not an NSID in 1..16",
		"nvmedrv.tenants[0].queues: 0 is not in 1..65535",
		"nvmedrv.tenants[2].namespace: 2 already has queue pairs (tenants[1])",
	} {
		require.ErrorContains(t, err, want)
	}
	spec = DefaultSpec()
	spec.Arbitration = nvmectrl.ArbWRR
	spec.Tenants = []Tenant{{Namespace: 3, Queues: 60}}
	cs := ctrlSpec()
	cs.WRR = false
	err = spec.CheckController(cs, 8, 2)
	require.ErrorContains(t, err, "68 queue pairs (host.nvme.queues or one a core, write_queues, tenants) need 68 I/O queues and 69 interrupt vectors")
	require.ErrorContains(t, err, "host.nvme.arbitration: wrr needs a controller that offers weighted round robin")
	require.ErrorContains(t, err, "host.nvme.tenants[0].namespace: 3, but the controller has 2 namespaces")
	var p QueuePriority
	require.ErrorContains(t, p.UnmarshalText([]byte("top")), `queue priority "top" is not one of urgent, high, medium, low`)
}
