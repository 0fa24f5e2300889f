package die

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// qlcSpec is a small QLC die: 4 planes × 4 blocks × 16 pages (4 word lines) × 4 KiB, with
// read 140 µs, coarse 2,000 µs, fine 2,800 µs (SpecFor(QLC)).
func qlcSpec(scheme Scheme) Spec {
	s := SpecFor(QLC)
	s.Scheme = scheme
	if scheme != TwoPass {
		s.TProgFine = 0
	}
	s.BlocksPerPlane, s.PagesPerBlock, s.PageSize = 4, 16, 4096
	return s
}

// TestQLCPageTypes checks QLC's four page types: a word line holds LSB, CSB, MSB, TSB in
// that order under every scheme.
func TestQLCPageTypes(t *testing.T) {
	for _, sc := range []Scheme{PageByPage, OneShot, TwoPass} {
		s := qlcSpec(sc)
		require.NoError(t, s.Validate())
		for p, w := range []PageType{LSB, CSB, MSB, TSB, LSB, CSB, MSB, TSB} {
			require.Equal(t, w, s.PageType(p), "%v page %d", sc, p)
			require.Equal(t, p/4, s.WordLine(p), "%v page %d", sc, p)
		}
	}
}

// TestWordLine2D checks the word line of 2D TLC pages: the k-th page of each type is on
// word line k. Pages 0–5 are LSB (word lines 0–5), 6–7 CSB (word lines 0–1), 8–9 LSB (6–7),
// 10–11 CSB (2–3), 12–13 MSB (0–1).
func TestWordLine2D(t *testing.T) {
	s := DefaultSpec()
	for p, w := range []int{0, 1, 2, 3, 4, 5, 0, 1, 6, 7, 2, 3, 0, 1} {
		require.Equal(t, w, s.WordLine(p), "page %d", p)
	}
}

// TestWordLineTables: the die's word-line tables (wordLines) agree with Spec.WordLine, and
// the lowest page of a word line is worked out from the same shadow order: page 12 (MSB of
// word line 0) shares it with pages 0 (LSB) and 6 (CSB), so its lowest page is 0; page 11
// (CSB of word line 3) with page 3, lowest 3; page 9 (LSB of word line 7) is its lowest.
func TestWordLineTables(t *testing.T) {
	s := DefaultSpec()
	d := newDie(t, s)
	for p := range s.PagesPerBlock {
		require.Equal(t, s.WordLine(p), int(d.wordLine[p]), "page %d", p)
	}
	for p, low := range map[int]int{12: 0, 13: 1, 11: 3, 9: 9, 6: 0, 0: 0} {
		require.Equal(t, low, d.interrupted(p), "page %d", p)
	}
	require.Nil(t, newDie(t, qlcSpec(OneShot)).wordLine)
}

// TestOneShotQLCTiming programs two word lines of a one-shot QLC die on two planes: pages
// 0–2 of each word line only load the registers (Program returns t), page 3 starts one
// tPROG of 2,000 µs (t_prog.tsb) for the whole word line on both planes; the array is
// busy 2 × 2,000 µs in all, recorded as program-tsb.
func TestOneShotQLCTiming(t *testing.T) {
	d := newDie(t, qlcSpec(OneShot))
	now := sim.Time(0)
	st := []uint64{1, 2}
	for p := range 8 {
		a := []Addr{{Plane: 0, Block: 1, Page: p}, {Plane: 1, Block: 1, Page: p}}
		end := d.Program(now, a, st)
		if p%4 != 3 {
			require.Equal(t, now, end, "page %d only latches", p)
			continue
		}
		require.Equal(t, now+2000*us, end, "page %d programs its word line", p)
		require.True(t, d.Complete(end))
		now = end
	}
	arr := d.Array()
	require.Equal(t, 4000*us, arr.BusyAt(now, arr.Activity("program-tsb")))
	require.Equal(t, 4000*us, d.Plane(1).BusyAt(now, d.Plane(1).Activity("program-tsb")))
	require.Equal(t, [NumPageTypes]int64{4, 4, 4, 4}, d.Stats().Programs)
}

// TestTwoPassTiming checks the coarse/fine scheme on one plane of a 4-word-line QLC block:
//
//	word line 0: coarse 2,000 µs                          (nothing below to fine-program)
//	word line 1: coarse 2,000 + fine(WL 0) 2,800 = 4,800 µs
//	word line 2: 4,800 µs; word line 3 (the last): coarse + fine(WL 2) + fine(WL 3) = 7,600 µs
//
// and the data the controller sends again: none for WL 0, one word line (4 × 4 KiB) for WL 1
// and 2, two word lines for WL 3.
func TestTwoPassTiming(t *testing.T) {
	s := qlcSpec(TwoPass)
	d := newDie(t, s)
	want := map[int]sim.Time{3: 2000 * us, 7: 4800 * us, 11: 4800 * us, 15: 7600 * us}
	resend := map[int]int{3: 0, 7: 16384, 11: 16384, 15: 32768}
	now := sim.Time(0)
	for p := range 16 {
		end := d.Program(now, []Addr{{Plane: 2, Block: 0, Page: p}}, []uint64{uint64(p)})
		require.Equal(t, resend[p], s.ResendBytes(p), "page %d resend", p)
		if w, ok := want[p]; ok {
			require.Equal(t, now+w, end, "page %d", p)
			require.True(t, d.Complete(end))
			now = end
			continue
		}
		require.Equal(t, now, end, "page %d latches", p)
	}
	require.Equal(t, (2000+4800+4800+7600)*us, now)
}

// TestOneShotOrder checks the one-shot program-order rules: a word line's pages are loaded
// in order (passing over a page inside a word line panics), whole word lines may be passed
// over, and a page below the write pointer panics as for every scheme.
func TestOneShotOrder(t *testing.T) {
	d := newDie(t, qlcSpec(OneShot))
	d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 0}}, []uint64{1})
	require.PanicsWithValue(t,
		"die ssd.ch[0].die[1] at 0s: program of plane 0 block 0 page 2, but the block's next free page is 1: a one-shot word line's pages are loaded in order, none passed over",
		func() { d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 2}}, []uint64{1}) })
	// A fresh block may start at any word line's first page (skipping whole word lines).
	require.Equal(t, sim.Time(0), d.Program(0, []Addr{{Plane: 0, Block: 1, Page: 4}}, []uint64{1}))
	require.PanicsWithValue(t,
		"die ssd.ch[0].die[1] at 0s: program of plane 0 block 2 page 5, but the block's next free page is 0: a one-shot word line's pages are loaded in order, none passed over",
		func() { d.Program(0, []Addr{{Plane: 0, Block: 2, Page: 5}}, []uint64{1}) })
}

// TestCutOneShot cuts a one-shot QLC die in three states:
//   - block 0: word line 0 programmed (final), word line 1 latched up to its MSB: the three
//     latched pages 4–6 are lost and erased again (next page back to 4);
//   - block 1: word line 0's program running at the cut: pages 0–3 read LostStamp;
//   - word line 0 of block 0 keeps its data.
func TestCutOneShot(t *testing.T) {
	d := newDie(t, qlcSpec(OneShot))
	for p := range 7 {
		if end := d.Program(0, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(10 + p)}); end > 0 {
			require.True(t, d.Complete(end))
		}
	}
	now := sim.Time(2000 * us)
	for p := range 4 {
		d.Program(now, []Addr{{Plane: 0, Block: 1, Page: p}}, []uint64{uint64(20 + p)})
	}
	lost := d.Cut(now + 100*us)
	require.Equal(t, []Addr{{Plane: 0, Block: 0, Page: 4}, {Plane: 0, Block: 0, Page: 5}, {Plane: 0, Block: 0, Page: 6}, {Plane: 0, Block: 1, Page: 0}, {Plane: 0, Block: 1, Page: 1}, {Plane: 0, Block: 1, Page: 2}, {Plane: 0, Block: 1, Page: 3}}, lost)
	require.Equal(t, 4, d.NextPage(0, 0))
	require.Equal(t, uint64(13), d.Stamp(Addr{Plane: 0, Block: 0, Page: 3}))
	require.Equal(t, ErasedStamp, d.Stamp(Addr{Plane: 0, Block: 0, Page: 4}))
	require.Equal(t, LostStamp, d.Stamp(Addr{Plane: 0, Block: 1, Page: 2}))
	require.True(t, d.Complete(now+2000*us)) // the cut closed the operation
}

// TestCutTwoPass: with word lines 0 and 1 of a two-pass block programmed (WL 0 fine, WL 1
// coarse only) and nothing running, a cut loses word line 1 (pages 4–7) only. During the
// program of word line 2 (its coarse pass and word line 1's fine pass), it loses word
// lines 1 and 2 (pages 4–11).
func TestCutTwoPass(t *testing.T) {
	prog := func(d *Die, n int) sim.Time {
		now := sim.Time(0)
		for p := range n {
			if end := d.Program(now, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(p)}); end > now {
				require.True(t, d.Complete(end))
				now = end
			}
		}
		return now
	}
	d := newDie(t, qlcSpec(TwoPass))
	now := prog(d, 8)
	require.Equal(t, []Addr{{Plane: 0, Block: 0, Page: 4}, {Plane: 0, Block: 0, Page: 5}, {Plane: 0, Block: 0, Page: 6}, {Plane: 0, Block: 0, Page: 7}}, d.Cut(now))
	require.Equal(t, uint64(3), d.Stamp(Addr{Plane: 0, Block: 0, Page: 3}))

	d = newDie(t, qlcSpec(TwoPass))
	now = prog(d, 8)
	for p := 8; p < 12; p++ {
		d.Program(now, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(p)})
	}
	lost := d.Cut(now + 1000*us)
	require.Len(t, lost, 8)
	require.Equal(t, Addr{Plane: 0, Block: 0, Page: 4}, lost[0])
	require.Equal(t, Addr{Plane: 0, Block: 0, Page: 11}, lost[7])
}

// TestCutPageByPage: on 2D TLC, a cut during the MSB program of page 12 (word line 0's MSB:
// TestWordLine2D) corrupts word line 0's LSB (page 0) and CSB (page 6) too; pages 1–5 and
// 7–11 keep their data.
func TestCutPageByPage(t *testing.T) {
	d := newDie(t, smallSpec())
	now := sim.Time(0)
	for p := range 12 {
		end := d.Program(now, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(p)})
		require.True(t, d.Complete(end))
		now = end
	}
	d.Program(now, []Addr{{Plane: 0, Block: 0, Page: 12}}, []uint64{12})
	require.Equal(t, []Addr{{Plane: 0, Block: 0, Page: 0}, {Plane: 0, Block: 0, Page: 6}, {Plane: 0, Block: 0, Page: 12}}, d.Cut(now+1000*us))
	require.Equal(t, uint64(5), d.Stamp(Addr{Plane: 0, Block: 0, Page: 5}))
	require.Equal(t, LostStamp, d.Stamp(Addr{Plane: 0, Block: 0, Page: 6}))
}

// TestSchemeYAML reads the scheme and the fine pass from YAML and rejects the wrong ones.
func TestSchemeYAML(t *testing.T) {
	var s Spec
	require.NoError(t, yaml.Unmarshal([]byte("scheme: two-pass\nt_prog_fine: 2ms\n"), &s))
	require.Equal(t, TwoPass, s.Scheme)
	require.Equal(t, 2*sim.Millisecond, s.TProgFine)
	require.ErrorContains(t, yaml.Unmarshal([]byte("scheme: three-pass\n"), &s), "not one of page, one-shot, two-pass")
	bad := qlcSpec(TwoPass)
	bad.TProgFine = 0
	require.ErrorContains(t, bad.Validate(), "die.t_prog_fine: 0s must be positive")
	bad = qlcSpec(OneShot)
	bad.TProgFine = sim.Millisecond
	require.ErrorContains(t, bad.Validate(), "only two-pass has a fine pass")
	bad = SpecFor(SLC)
	bad.Scheme = OneShot
	require.ErrorContains(t, bad.Validate(), "die.scheme: one-shot programming needs mlc, tlc or qlc")
	bad = qlcSpec(TwoPass)
	bad.TRead.TSB = 0
	require.ErrorContains(t, bad.Validate(), "die.t_read.tsb")
}

// FuzzScheme checks the programming-scheme parser: whatever it accepts prints back
// unchanged.
func FuzzScheme(f *testing.F) {
	for _, s := range []string{"page", "one-shot", "two-pass", "", "One-Shot", "three-pass"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var sc Scheme
		if sc.UnmarshalText([]byte(s)) == nil {
			require.Equal(t, s, sc.String())
		}
	})
}
