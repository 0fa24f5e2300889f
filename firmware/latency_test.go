package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestIdleBufferHitReadTermByTerm: a 4 KiB read of a page in the write buffer on an idle
// machine, from the doorbell write to the MSI-X arriving at the host, worked out term by
// term (Gen3 x4: 253.90625 ps a byte on the wire, and 7.7 % of DLLPs and SKPs at MPS 256,
// docs/sources.md §2, so ≈ 275 ps a TLP byte; 400 ns one-way latency; 400 MHz front end and
// firmware cores; DDR3-1600 x32, 6.4 GB/s, docs/sources.md §4.1):
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
		r.cmd(p, nvme.OpWrite, 1000, 1, nvme.Hint{}, []uint64{Stamp(1000, 1)})
		p.Sleep(100 * sim.Microsecond)
		lat = r.cmd(p, nvme.OpRead, 1000, 1, nvme.Hint{}, make([]uint64, 1)).latency
	})
	r.eng.Run()
	require.Zero(t, r.fw.Stats.FlashReads)
	require.InDelta(t, 6315.6, float64(lat)/1000, 63, "latency %v", lat)
}

// TestIdleFlashReadTermByTerm: the same read of a page on flash: LBA 0, the first page
// preconditioning programmed, an LSB page of the small TLC die. On top of the buffer-hit
// path (6315.6 ns above) it pays, on its die and channel (NV-DDR2 mode 6: 333 MT/s, 3 ns a
// byte on the 8-bit bus; docs/sources.md §3):
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
		lat = r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, make([]uint64, 1)).latency
	})
	r.eng.Run()
	require.Equal(t, int64(1), r.fw.Stats.FlashReads)
	require.InDelta(t, 77566.1, float64(lat)/1000, 776, "latency %v", lat)
}

// TestIdleFlashReadRetryTermByTerm: TestIdleFlashReadTermByTerm's read with a read-error
// model that needs exactly 2 retry steps: RBER 0.01 (no wear, no retention: the page is
// fresh), codewords of 1,024 B (8,192 bits: 81.92 expected bit errors), an ECC of 40 bits
// and a retry gain of 0.5: step 0 leaves 81.92 > 40, step 1 40.96 > 40, step 2 20.48 ≤ 40.
// Each step is another tR of the LSB page and the data-out again:
//
//	idle flash read (TestIdleFlashReadTermByTerm)          77566.1 ns
//	2 × (tR 58000.0 + tRR and 4096 B data-out 12308.0)    140616.0 ns
//	                                                      ----------
//	                                                      218182.1 ns
//
// (measured 218247.8 ns). The die's array shows 2 × 58 µs of activity "retry".
//
// With max_retries 1 the page stays uncorrectable: one step, then NVMe status Unrecovered
// Read Error with no data, so the buffer-hit path's DRAM out (667.5 ns) and data to the
// host (1232.0 ns) drop out, and the completion's 400 firmware cycles (1000.0 ns), which
// ran while the data moved, are now on the path:
//
//	77566.1 + 70308.0 − 667.5 − 1232.0 + 1000.0            146974.6 ns
//
// (measured 147008.7 ns). Within 1 %.
func TestIdleFlashReadRetryTermByTerm(t *testing.T) {
	for _, c := range []struct {
		maxRetries int
		want       float64
		status     nvme.Status
		steps      int64
	}{{5, 218182.1, nvme.StatusSuccess, 2}, {1, 146974.6, nvme.StatusUnrecoveredRead, 1}} {
		rd := die.ReadErrorSpec{RBER: 0.01, ECCBits: 40, Codeword: 1024, RetryGain: 0.5, MaxRetries: c.maxRetries}
		r := newRig(t, smallSpec(Vanilla, "sequential"), withFaults(die.FaultSpec{Read: rd}))
		require.NoError(t, r.fw.Precondition(0.5, 0, false, 1))
		var rq *req
		r.eng.Spawn("host", func(p *sim.Proc) {
			p.Sleep(100 * sim.Microsecond)
			rq = r.cmd(p, nvme.OpRead, 0, 1, nvme.Hint{}, make([]uint64, 1))
		})
		r.eng.Run()
		t.Logf("max_retries %d: latency %v", c.maxRetries, rq.latency)
		require.Equal(t, c.status, rq.status)
		require.InDelta(t, c.want, float64(rq.latency)/1000, c.want/100, "latency %v", rq.latency)
		fs := r.fw.FaultStats()
		require.Equal(t, c.steps, fs.ReadRetries)
		var retry sim.Time
		for _, ch := range r.chans {
			for d := 0; d < ch.NumDies(); d++ {
				a := ch.Die(d).Array()
				for id, name := range a.Activities() {
					if name == "retry" {
						retry += a.BusyAt(r.eng.Now(), sim.Activity(id))
					}
				}
			}
		}
		require.Equal(t, sim.Time(c.steps)*58*sim.Microsecond, retry)
		if c.status != nvme.StatusSuccess {
			require.Equal(t, int64(1), fs.Uncorrectable)
			require.Equal(t, int64(1), r.fw.Stats.Errors)
		}
	}
}
