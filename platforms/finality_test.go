package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// padToFinal programs, on a fresh die of spec s, pages 0 … p of block 0 and then the pad
// pages p+1 … FinalizingPages()[p] (what a Flush, an FUA write or the drain's end must
// program to make page p durable: docs/reliability.md, "Padding"), and returns how many pad
// pages that was and the array time they took.
func padToFinal(t *testing.T, s die.Spec, p int) (pads int, took sim.Time) {
	t.Helper()
	s.Planes, s.BlocksPerPlane = 1, 1
	d, err := die.New("d", s)
	require.NoError(t, err)
	now := sim.Time(0)
	program := func(pg int) {
		now = d.Program(now, []die.Addr{{Page: pg}}, []uint64{uint64(pg + 1)})
		require.True(t, d.Complete(now))
	}
	for pg := 0; pg <= p; pg++ {
		program(pg)
	}
	start := now
	for pg := p + 1; pg <= s.FinalizingPages()[p]; pg++ {
		program(pg)
		pads++
	}
	return pads, now - start
}

// TestPaddingToFinality works by hand the padding the firmware's finality fix needs on the
// three campaign presets (docs/reliability.md, "Padding"; the expected values of its
// Flush/FUA/drain tests):
//
//   - tiny (2D TLC page by page, 64-page blocks, SimpleSSD's tPROG: LSB 558, CSB 2,201,
//     MSB 5,001 µs): a Flush covering LSB page 8 (word line 6, final at MSB page 30) pads
//     pages 9–30: LSB 9, 14, 15, 20, 21, 26, 27 (7); CSB 10, 11, 16, 17, 22, 23, 28, 29
//     (8); MSB 12, 13, 18, 19, 24, 25, 30 (7): 22 pages, 7·558 + 8·2,201 + 7·5,001 =
//     56,521 µs on the die. CSB page 22 (word line 6) needs pages 23–30: 8 pages, LSB 26,
//     27, CSB 23, 28, 29, MSB 24, 25, 30: 2·558 + 3·2,201 + 3·5,001 = 22,722 µs.
//   - gen4-tlc (one-shot TLC, tPROG 450 µs a word line): an FUA write on page 0 (word line
//     0's LSB) pads pages 1 and 2: 2 pages, one program of the word line, 450 µs. On page 1:
//     1 page, 450 µs; on page 2: none (its own program makes the word line final).
//   - gen4-qlc (two-pass QLC, coarse 2,000 µs, fine 2,800 µs): page 0 is final once word
//     line 1's program has run word line 0's fine pass: pads 1–7 (7 pages): word line 0's
//     coarse pass at page 3 (2,000 µs), then at page 7 word line 1's coarse pass and word
//     line 0's fine pass (2,000 + 2,800): 6,800 µs. Page 4 (word line 1) pads 5–11: page 7
//     runs word line 1's coarse pass and word line 0's fine pass (4,800 µs), page 11 word
//     line 2's coarse pass and word line 1's fine pass (4,800 µs): 9,600 µs. (A block in
//     the SLC cache's pSLC mode needs no padding: each page is final at its own program.)
func TestPaddingToFinality(t *testing.T) {
	us := sim.Microsecond
	for _, c := range []struct {
		preset string
		page   int
		pads   int
		took   sim.Time
	}{
		{"tiny", 8, 22, 56521 * us},
		{"tiny", 22, 8, 22722 * us},
		{"gen4-tlc", 0, 2, 450 * us},
		{"gen4-tlc", 1, 1, 450 * us},
		{"gen4-tlc", 2, 0, 0},
		{"gen4-qlc", 0, 7, 6800 * us},
		{"gen4-qlc", 4, 7, 9600 * us},
	} {
		cfg, err := Load(Options{Preset: c.preset})
		require.NoError(t, err)
		pads, took := padToFinal(t, cfg.Flash.Die, c.page)
		require.Equal(t, c.pads, pads, "%s, page %d: pad pages", c.preset, c.page)
		require.Equal(t, c.took, took, "%s, page %d: pad time", c.preset, c.page)
	}
}
