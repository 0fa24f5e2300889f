package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestDirectReadLatency checks the end-to-end latency of one 4 KiB direct read on an idle
// system against the sum of its terms, each taken from the pcie link, controller and host
// clock functions on their own (not by running the driver):
//
//	driver submit   2000 host cycles from t0 (the SQE is written, the batch ends)
//	doorbell        4 B MMIO write down the link
//	arbitration     arbitration_cycles (4) front-end cycles at 400 MHz
//	SQE fetch       64 B DMA read
//	device          the stub's fixed 20 µs
//	read data       4096 B DMA write up, booked when the device finishes
//	CQE             completion_cycles (4), then a 16 B DMA write behind the data
//	MSI-X           4 B posted write, after the CQE lands
//	interrupt       irq_cycles (3000) then cqe_cycles (1000) on the 3 GHz host core
//
// The link terms are booked on a fresh reference link in the same order the transfers
// happen, so queueing behind one another on a direction is accounted the same way.
func TestDirectReadLatency(t *testing.T) {
	spec := DefaultSpec()
	cs := ctrlSpec()
	r := newRig(t, spec, cs, 1)
	const t0 = 3 * sim.Microsecond
	rq := rw(blk.OpRead, 1<<20, 4096)
	rq.Sync = true
	r.at(t0, func() { require.True(t, r.d.QueueRequest(t0, rq)) })
	r.eng.Run()
	require.Len(t, r.up.dones, 1)
	got := r.up.dones[0].at - t0

	host := sim.NewClock(hostFreq)
	front := sim.NewClock(cs.Clock)
	ref := pcie.NewLink("ref", pcie.DefaultSpec())
	sqeWritten := host.After(t0, spec.SubmitCycles)
	doorbell := ref.MMIOWrite(sqeWritten, 4)
	arbitrate := front.After(doorbell, cs.ArbitrationCycles)
	fetched := ref.DMARead(arbitrate, 64)
	served := fetched + stubLatency
	dataIn := ref.DMAWrite(served, 4096)
	post := front.After(served, cs.CompletionCycles)
	cqe := max(ref.DMAWrite(post, 16), dataIn)
	msix := max(ref.MSIX(post), cqe)
	irqDone := host.After(msix, spec.IRQCycles)
	completed := host.After(irqDone, spec.CQECycles)
	want := completed - t0
	require.Equal(t, want, got, "got %v, want %v", got, want)

	// Sanity of the decomposition: the device's 20 µs plus a few µs of link and CPU.
	require.Greater(t, got, stubLatency+sim.Microsecond)
	require.Less(t, got, stubLatency+5*sim.Microsecond)
	t.Logf("4 KiB direct read: %v (device %v)", got, stubLatency)
}
