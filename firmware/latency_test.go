package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestIdleBufferHitReadTermByTerm: a 4 KiB read of a page in the write buffer on an idle
// machine, from the doorbell write to the MSI-X arriving at the host, worked out term by
// term (Gen3 x4: 253.90625 ps a byte on the wire, and 7.7 % of DLLPs and SKPs at MPS 256,
// FACTS.md §2, so ≈ 275 ps a TLP byte; 400 ns one-way latency; 400 MHz front end and
// firmware cores; DDR3-1600 x32, 6.4 GB/s, FACTS.md §4.1):
//
//	doorbell: 4 B MWr = 28 B TLP, 7.7 ns + 400 ns          407.7 ns
//	arbitration: 4 cycles at 400 MHz                        10.0 ns
//	SQE fetch: 24 B MRd up + 400 ns + 84 B CplD + 400 ns    829.7 ns
//	firmware: parse 800 + per-page 100 + lookup 200 cycles
//	  at 400 MHz (buffer hit: no flash)                    2750.0 ns
//	DRAM out: 4096 B at 6.4 GB/s + tRCD + CL               667.5 ns
//	data: 16 MWr of 256 + 24 B = 4480 B on the wire       1232.0 ns
//	CQE: 16 B + 24 B = 40 B right behind the data            11.0 ns
//	MSI-X: 28 B right behind the CQE + 400 ns               407.7 ns
//	                                                       --------
//	                                                       6315.6 ns
//
// (The completion's 400 firmware cycles run on the core while the data moves and end
// first, so they add nothing.) Clock edges and the DRAM row state move it by a few ns:
// within 1 %.
func TestIdleBufferHitReadTermByTerm(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	s.Buffer.Pages = 512
	r := newRig(t, s, nil)
	var lat sim.Time
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmd(p, nvmectrl.OpWrite, 1000, 1, nvmectrl.Hint{}, []uint64{Stamp(1000, 1)})
		p.Sleep(100 * sim.Microsecond)
		lat = r.cmd(p, nvmectrl.OpRead, 1000, 1, nvmectrl.Hint{}, make([]uint64, 1)).latency
	})
	r.eng.Run()
	require.Zero(t, r.fw.Stats.FlashReads)
	require.InDelta(t, 6315.6, float64(lat)/1000, 63, "latency %v", lat)
}

// TestIdleFlashReadTermByTerm: the same read of a page on flash: LBA 0, the first page
// preconditioning programmed, an LSB page of the small TLC die. On top of the buffer-hit
// path (6315.6 ns above) it pays, on its die and channel (NV-DDR2 mode 6: 333 MT/s, 3 ns a
// byte on the 8-bit bus; FACTS.md §3):
//
//	00h-address-30h command cycles and tWB                  275.0 ns
//	tR of an LSB page                                     58000.0 ns
//	tRR, then 4096 B of data-out at 3 ns a byte           12308.0 ns
//	DRAM in: 4096 B at 6.4 GB/s + tRCD + CL                 667.5 ns
//	                                                      ---------
//	                                                      77566.1 ns
//
// (The firmware's flash_issue cycles are charged to evictions only, not to host reads.)
// Within 1 %.
func TestIdleFlashReadTermByTerm(t *testing.T) {
	r := newRig(t, smallSpec(Vanilla, "sequential"), nil)
	require.NoError(t, r.fw.Precondition(0.5, 0, false, 1))
	var lat sim.Time
	r.eng.Spawn("host", func(p *sim.Proc) {
		p.Sleep(100 * sim.Microsecond)
		lat = r.cmd(p, nvmectrl.OpRead, 0, 1, nvmectrl.Hint{}, make([]uint64, 1)).latency
	})
	r.eng.Run()
	require.Equal(t, int64(1), r.fw.Stats.FlashReads)
	require.InDelta(t, 77566.1, float64(lat)/1000, 776, "latency %v", lat)
}
