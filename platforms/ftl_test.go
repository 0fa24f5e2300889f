package platforms

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFTLErrorsAtValidate: every FTL problem is reported by `config validate` (Load), not
// only at build time, each under its field path firmware.ftl.<key>. The tiny preset is
// 2 channels × 2 dies × 2 planes × 32 blocks × 64 pages = 16,384 pages, with
// gc_threshold 3, gc_reserve 1 and lsb_only_pages 128 (two blocks); each case changes one
// key.
func TestFTLErrorsAtValidate(t *testing.T) {
	cases := []struct {
		set  string
		want string
	}{
		// Issue 21: both passed validation before and failed at build under "ftl.".
		{"over_provisioning=1.5", "firmware.ftl.over_provisioning: 1.5 must be between 0 and 1 (exclusive)"},
		{"gc_threshold=1", "firmware.ftl.gc_threshold: 1 must exceed gc_reserve (1)"},
		{"gc_reserve=0", "firmware.ftl.gc_reserve: 0 must be at least 1 (GC needs a block to move pages into)"},
		// A threshold of all 32 blocks of a plane; the two-block region then leaves
		// 2 × (32 − 32 − 1) = −2 blocks per die for GC, so both are reported.
		{"gc_threshold=32", "firmware.ftl.gc_threshold: 32 must be below the 32 blocks of a plane\n" +
			"firmware.ftl.lsb_only_pages: 128 (2 blocks) leaves no room for GC in a die of 2×32 blocks"},
		{"lsb_only_pages=32", "firmware.ftl.lsb_only_pages: 32 must hold at least one block (64 pages)"},
		// 4,096 pages are 64 blocks; a die keeps 2 × (32 − 3 − 1) = 56 blocks outside GC's.
		{"lsb_only_pages=4096", "firmware.ftl.lsb_only_pages: 4096 (64 blocks) leaves no room for GC in a die of 2×32 blocks"},
		{"lsb_only_blocks=-1", "firmware.ftl.lsb_only_blocks: -1 must not be negative"},
		// 16,384 × (1 − 0.99999) = 0.16 logical pages, truncated to 0.
		{"over_provisioning=0.99999", "firmware.ftl.over_provisioning: 0.99999 leaves 0 logical pages of the 16384 physical ones; want 1 … 4294967292"},
		{"allocator=lsb-first", `firmware.ftl.allocator: unknown allocator "lsb-first" (known: latency-aware, sequential, skip-to-lsb, slc-foreground)`},
		{"gc_victim=lru", `firmware.ftl.gc_victim: unknown gc victim policy "lru" (known: cost-benefit, greedy)`},
		{"mapping=fast", `firmware.ftl.mapping: unknown mapping "fast" (known: bast, page)`},
	}
	for _, c := range cases {
		t.Run(c.set, func(t *testing.T) {
			_, err := Load(Options{Preset: "tiny", Sets: []string{"firmware.ftl." + c.set}})
			require.EqualError(t, err, c.want)
		})
	}
}

// TestBASTLogBlocksValidated: ftl.log_blocks is checked, with its field path, when mapping
// is bast. tiny's die has 2 × 32 blocks of 64 pages over 4 dies; 25 % over-provisioning
// leaves 12,288 logical pages, 48 logical blocks a die: 48 + log_blocks + 1 (a merge's
// block) + 2 (gc_reserve 1 a plane) ≤ 64 allows 13 log blocks, not 14.
func TestBASTLogBlocksValidated(t *testing.T) {
	load := func(sets ...string) error {
		_, err := Load(Options{Preset: "tiny", Sets: append([]string{"firmware.ftl.mapping=bast"}, sets...)})
		return err
	}
	require.NoError(t, load())
	require.NoError(t, load("firmware.ftl.log_blocks=13"))
	require.EqualError(t, load("firmware.ftl.log_blocks=0"), "firmware.ftl.log_blocks: 0 must be at least 1 (mapping bast writes every page to a log block)")
	require.ErrorContains(t, load("firmware.ftl.log_blocks=14"), "firmware.ftl.log_blocks: 14 log blocks per die, with 48 data blocks (over_provisioning 0.25), a merge's new block and the GC reserve (1 a plane), need 65 blocks; a die has 64")
	require.NoError(t, load("firmware.ftl.log_blocks=0", "firmware.ftl.mapping=page"), "log_blocks is read by bast only")
}

// TestFTLErrorsAtBuild: a configuration that skipped validation still fails at build with
// the same field path (firmware.New → ftl.New), not "ftl.".
func TestFTLErrorsAtBuild(t *testing.T) {
	c, err := Load(Options{Preset: "tiny"})
	require.NoError(t, err)
	c.Firmware.FTL.OverProvisioning = 1.5
	c.Firmware.FTL.GCThreshold = 1
	eng := sim.NewEngine()
	defer eng.Close()
	_, err = BuildSSD(eng, c, nvmectrl.NewHostMemory())
	require.EqualError(t, err, "firmware.ftl.over_provisioning: 1.5 must be between 0 and 1 (exclusive)\n"+
		"firmware.ftl.gc_threshold: 1 must exceed gc_reserve (1)")
}

// TestPaperSkipRegionRule: fastdrain-tlc's lsb_only_blocks is the rule its preset states,
// computed here from the preset's own fields. A die of 128 blocks × 512 pages is 65,536
// pages; over-provisioning 0.2227 hides ⌊14,594.9⌋ = 14,594; the LSB-only region (8,192
// pages) may strand its CSB/MSB two thirds, ⌊8,192 × 2 / 3⌋ = 5,461; GC keeps gc_threshold + 1
// = 5 blocks of each of the die's 1 plane free, 2,560 pages; 6,573 are left. A 2D-TLC block
// of 512 pages has 174 LSB pages (0–5, then two of every six from page 8: 6 + 168), so a
// skip block wastes at most 338: ⌊6,573 / 338⌋ = 19.
func TestPaperSkipRegionRule(t *testing.T) {
	c, err := Load(Options{Preset: "fastdrain-tlc"})
	require.NoError(t, err)
	d, f := c.DieSpec(), c.Firmware.FTL
	pages := d.Planes * d.BlocksPerPlane * d.PagesPerBlock
	require.Equal(t, 65536, pages)
	lsb := 0
	for p := 0; p < d.PagesPerBlock; p++ {
		if d.PageType(p) == 0 { // LSB
			lsb++
		}
	}
	require.Equal(t, 174, lsb)
	left := int(f.OverProvisioning*float64(pages)) - f.LSBOnlyPages*2/3 - (f.GCThreshold+1)*d.Planes*d.PagesPerBlock
	require.Equal(t, 14594-5461-2560, left)
	require.Equal(t, 19, left/(d.PagesPerBlock-lsb))
	require.Equal(t, 19, f.LSBOnlyBlocks)
}
