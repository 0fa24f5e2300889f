package nvmectrl

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// reportingFW is a fakeFW that tells the controller whether its cache is volatile.
type reportingFW struct {
	*fakeFW
	vwc bool
}

func (f reportingFW) VolatileWriteCache() bool { return f.vwc }

// TestIdentifyControllerVWC: the Identify Controller data structure (4096 bytes) carries
// SQES 66h (required and maximum 2^6 = 64-byte SQEs) at byte 512, CQES 44h (2^4 = 16
// bytes) at 513, NN = 1 at 516–519 little-endian, and VWC at 525, whose bit 0 is what the
// firmware reports: 1 for a volatile cache, 0 for one that survives power loss; 1 when
// the firmware does not say (the fake firmware).
func TestIdentifyControllerVWC(t *testing.T) {
	r := newRig(t, testSpec(), ArbRoundRobin)
	id := r.c.IdentifyController()
	require.Len(t, id, 4096)
	require.Equal(t, byte(0x66), id[512])
	require.Equal(t, byte(0x44), id[513])
	require.Equal(t, []byte{1, 0, 0, 0}, id[516:520])
	require.Equal(t, byte(1), id[525], "no report: present")
	for _, vwc := range []bool{false, true} {
		r.c.SetFirmware(reportingFW{r.fw, vwc})
		id = r.c.IdentifyController()
		want := byte(0)
		if vwc {
			want = 1
		}
		require.Equal(t, want, id[525], "firmware reports %v", vwc)
		for i, b := range id {
			if i != 512 && i != 513 && i != 516 && i != 525 {
				require.Zero(t, b, "byte %d", i)
			}
		}
	}
}

// TestIdentifyOverAdminQueue: an admin Identify with CNS 01h writes the 4096-byte Identify
// Controller data structure into the host buffer at PRP1 and completes with success; its
// CQE comes after the data (posted writes stay in order). Against the same rig answering
// Get Features (no data), the completion is later by the 4 KiB's time on the device→host
// direction. Worked by hand for Gen3 x4 at MPS 256: 16 MWr TLPs of 256 B payload and 24 B
// of header, framing and LCRC each (docs/sources.md §2) are 4480 B; at 8 GT/s × 4 lanes × 128/130
// / 8 = 3.938 GB/s that is 1.138 µs, and with docs/sources.md §2's 7.7 % link-layer (DLLP)
// overhead, 3.63 GB/s, 1.234 µs: the difference lies between the two (each rounded to
// the 400 MHz front-end clock, 2.5 ns).
func TestIdentifyOverAdminQueue(t *testing.T) {
	done := func(e func(r *rig) SQE) (*rig, sim.Time, Status) {
		r := newRig(t, testSpec(), ArbRoundRobin)
		r.c.SetFirmware(reportingFW{r.fw, false})
		sqe := e(r)
		r.at(0, func() {
			r.host.push(0, &sqe)
			r.host.ring(0, 0)
		})
		r.eng.Run()
		require.Len(t, r.host.seen, 1)
		return r, r.host.seen[0].at, r.host.seen[0].cqe.Status()
	}
	var buf uint64
	r, tID, st := done(func(r *rig) SQE {
		buf = r.mem.Alloc(IdentifySize)
		return adminSQE(AdminIdentify, 1, buf, CNSController, 0)
	})
	require.Equal(t, StatusSuccess, st)
	got := make([]byte, IdentifySize)
	r.mem.Read(buf, got)
	want := r.c.IdentifyController()
	require.Equal(t, want[:], got)
	require.Equal(t, byte(0), got[IdentifyVWC], "PLP firmware: no volatile write cache")
	_, tGF, st := done(func(*rig) SQE { return adminSQE(AdminGetFeatures, 1, 0, uint32(FeatureArbitration), 0) })
	require.Equal(t, StatusSuccess, st)
	d := tID - tGF
	require.GreaterOrEqual(t, d, 1138*sim.Nanosecond-3*sim.Nanosecond, "4480 B at 3.938 GB/s")
	require.LessOrEqual(t, d, 1234*sim.Nanosecond+3*sim.Nanosecond, "4480 B at 3.63 GB/s")
	require.Empty(t, r.fw.order, "the controller serves Identify itself")
}
