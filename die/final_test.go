package die

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestFinalizingPages2DTLC works the 2D TLC shadow order (docs/sources.md §3.4: pages 0–5
// LSB, 6–7 CSB, then pairs by ((page−8)>>1) % 3: 0 LSB, 1 CSB, 2 MSB) by hand. Word lines
// are ranks within a type: LSB pages 0–5 → word lines 0–5, 8–9 → 6–7, 14–15 → 8–9; CSB
// 6–7 → 0–1, 10–11 → 2–3, 16–17 → 4–5, 22–23 → 6–7; MSB 12–13 → 0–1, 18–19 → 2–3, 24–25
// → 4–5, 30–31 → 6–7. A page is final at its word line's MSB page.
//
// The block's end (384 pages: 132 LSB, 128 CSB, 124 MSB): pages 8–379 are 62 groups of
// (LSB pair, CSB pair, MSB pair), so 378–379 are MSB word lines 122–123, 380–381 LSB word
// lines 130–131 (6 + 62·2 = 130 before them), 382–383 CSB word lines 126–127. LSB word
// line 126 is the pair number 3·((126−6)/2) = 180 → page 8 + 2·180 = 368; it has no MSB
// (only 124), so it is final at its CSB, 382. LSB word line 122 → page 8 + 2·3·58 = 356,
// final at its MSB 378. Word lines 130–131 hold only an LSB page: final at once.
func TestFinalizingPages2DTLC(t *testing.T) {
	s := DefaultSpec()
	require.Equal(t, 384, s.PagesPerBlock)
	f := s.FinalizingPages()
	want := map[int]int{
		0: 12, 1: 13, 2: 18, 3: 19, 4: 24, 5: 25, // LSB word lines 0–5
		6: 12, 7: 13, // CSB word lines 0–1
		8: 30, 9: 31, // LSB word lines 6–7: 22 pages before their MSB
		10: 18, 11: 19, 12: 12, 13: 13, 22: 30, 30: 30,
		356: 378, 368: 382, 378: 378, 380: 380, 381: 381, 382: 382, 383: 383,
	}
	for p, w := range want {
		require.Equal(t, w, f[p], "page %d", p)
	}
}

// TestFinalizingPagesMLC: 2D MLC pairs pages 2k (LSB) and 2k+1 (MSB) on word line k
// (page % 2, docs/sources.md §3.4): both are final at 2k+1.
func TestFinalizingPagesMLC(t *testing.T) {
	s := SpecFor(MLC)
	f := s.FinalizingPages()
	for p, w := range []int{1, 1, 3, 3, 5, 5} {
		require.Equal(t, w, f[p], "page %d", p)
	}
}

// TestFinalizingPagesOneShotTLC: one-shot TLC word line k holds pages 3k–3k+2, programmed
// together when page 3k+2 arrives; the first two are only latched until then.
func TestFinalizingPagesOneShotTLC(t *testing.T) {
	s := SpecFor(TLC)
	s.Scheme = OneShot
	f := s.FinalizingPages()
	for p, w := range []int{2, 2, 2, 5, 5, 5, 8} {
		require.Equal(t, w, f[p], "page %d", p)
	}
	require.Equal(t, 383, f[381])
}

// TestFinalizingPagesTwoPassQLC: two-pass QLC, 16 pages (word lines 0–3 of 4 pages). Page
// 4n+3 runs word line n's coarse pass and word line n−1's fine pass, so word line n is
// final at 4(n+1)+3: word line 0 → 7, 1 → 11, 2 → 15; word line 3 (the block's last) has
// its fine pass right after its coarse pass, at page 15 too.
func TestFinalizingPagesTwoPassQLC(t *testing.T) {
	f := qlcSpec(TwoPass).FinalizingPages()
	want := []int{7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15, 15, 15, 15, 15}
	require.Equal(t, want, f)
	// The same die one-shot: each word line at its own last page.
	f = qlcSpec(OneShot).FinalizingPages()
	require.Equal(t, []int{3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15}, f)
}

// TestFinalizingPagesSLC: one page a word line, each final at its own completion.
func TestFinalizingPagesSLC(t *testing.T) {
	f := SpecFor(SLC).FinalizingPages()
	for p := range 5 {
		require.Equal(t, p, f[p])
	}
}

// TestFinalizingPagesMatchCut checks the table against what Cut destroys, on a 2D TLC die:
// after programming pages 0..q−1 in order and cutting during page q's program, every page
// p < q the cut destroys has FinalizingPages()[p] ≥ q (it was not final), and every page
// p < q with FinalizingPages()[p] < q survives.
func TestFinalizingPagesMatchCut(t *testing.T) {
	s := DefaultSpec()
	s.BlocksPerPlane, s.Planes = 2, 1
	f := s.FinalizingPages()
	for _, q := range []int{6, 12, 13, 22, 30, 31} {
		d := newDie(t, s)
		now := d.Program(0, []Addr{{Block: 0, Page: 0}}, []uint64{1})
		for p := 1; p < q; p++ {
			now = d.Program(now, []Addr{{Block: 0, Page: p}}, []uint64{uint64(p + 1)})
		}
		d.Program(now, []Addr{{Block: 0, Page: q}}, []uint64{uint64(q + 1)})
		lost := map[int]bool{}
		for _, a := range d.Cut(now + 1) {
			lost[a.Page] = true
		}
		for p := range q {
			require.Equal(t, f[p] >= q && f[p] == f[q], lost[p], "cut during page %d: page %d (final at %d)", q, p, f[p])
		}
	}
}

// TestFinalizingPagesMatchCut3D checks the table against Cut on one-shot and two-pass QLC
// (16 pages a block): pages 0..q−1 are programmed in order, the cut falls 1 ps into page
// q−1's program (which runs the array only if q−1 ends a word line). Every page whose
// finalizing program is q−1 or later is lost (latched, coarse-only, or in the running
// program's word lines); every page finalized earlier survives.
func TestFinalizingPagesMatchCut3D(t *testing.T) {
	for _, sc := range []Scheme{OneShot, TwoPass} {
		s := qlcSpec(sc)
		f := s.FinalizingPages()
		for q := 1; q <= s.PagesPerBlock; q++ {
			d := newDie(t, s)
			now := sim.Time(0)
			for p := range q - 1 {
				now = d.Program(now, []Addr{{Block: 0, Page: p}}, []uint64{uint64(p + 1)})
			}
			d.Program(now, []Addr{{Block: 0, Page: q - 1}}, []uint64{uint64(q)})
			lost := map[int]bool{}
			for _, a := range d.Cut(now + 1) {
				lost[a.Page] = true
			}
			for p := range q {
				require.Equal(t, f[p] >= q-1, lost[p], "%v, cut in page %d's program: page %d (final at %d)", sc, q-1, p, f[p])
			}
		}
	}
}
