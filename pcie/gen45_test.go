package pcie

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestGen4Gen5Transfers works a 4 KiB posted DMA write (16 MWr TLPs × (256 + 24) B = 4480 B
// at MPS 256, 64-bit addresses) by hand on PCIe Gen4 and Gen5, both 128b/130b (docs/sources.md
// §2, docs/sources.md §11: 16 and 32 GT/s a lane):
//
//	Gen4 x4: 8·130/128 bits / (16 GT/s · 4) = 126.953125 ps/B → 4480 B = 568,750 ps
//	Gen5 x4: 63.4765625 ps/B → 284,375 ps;  Gen5 x2 = Gen4 x4 → 568,750 ps
//	Gen4 x2: 253.90625 ps/B (Gen3 x4's) → 1,137,500 ps
//
// With the link layer's ACK/UpdateFC DLLPs and SKPs (PCIe r5.0 Tables 3-7…3-9: the ack span
// is 214 B at x4 and 313 B at x2, MPS 256, for every generation from Gen3 on) the TLP time
// grows by 1538·span / (1534·span − 24608): 329132/303668 at x4 and 481394/455534 at x2:
//
//	Gen4 x4: ⌈568,750 · 329132/303668⌉ = 616,443 ps (6.64 GB/s for 4 KiB)
//	Gen5 x4: ⌈284,375 · 329132/303668⌉ = 308,222 ps (13.29 GB/s)
//	Gen5 x2: ⌈568,750 · 481394/455534⌉ = 601,038 ps
//	Gen4 x2: ⌈1,137,500 · 481394/455534⌉ = 1,202,075 ps
func TestGen4Gen5Transfers(t *testing.T) {
	for _, c := range []struct {
		gen, lanes int
		wire, tlp  sim.Time
		bps        int64
	}{
		// BytesPerSecond: 16e9·4·128/130/8 = 7,876,923,076 (docs/sources.md §2: "x4 = 7.88 GB/s").
		{4, 4, 568_750, 616_443, 7_876_923_076},
		{5, 4, 284_375, 308_222, 15_753_846_153},
		{5, 2, 568_750, 601_038, 7_876_923_076},
		{4, 2, 1_137_500, 1_202_075, 3_938_461_538},
	} {
		s := DefaultSpec()
		s.Gen, s.Lanes = c.gen, c.lanes
		require.NoError(t, s.Validate())
		require.Equal(t, c.wire, s.WireTime(4480), "Gen%d x%d wire", c.gen, c.lanes)
		require.Equal(t, c.tlp, s.TLPTime(4480), "Gen%d x%d TLPs", c.gen, c.lanes)
		require.Equal(t, c.bps, s.BytesPerSecond(), "Gen%d x%d rate", c.gen, c.lanes)
		// An isolated DMA write: the TLP time plus the one-way latency.
		require.Equal(t, c.tlp+s.Latency, NewLink("pcie", s).DMAWrite(0, 4096))
	}
}
