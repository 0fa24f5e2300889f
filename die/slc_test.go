package die

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// slcSpec is smallSpec (2D TLC, 2 planes × 4 blocks × 24 pages) with an SLC mode of tR
// 25 µs and tPROG 300 µs, the SLC figures of HP's "Solid State Drive Technology:
// Differences between SLC, MLC and TLC NAND" (Table 1: read 25 µs, program 200–300 µs),
// and pSLC endurance 10 times the native (Swissbit, 2023: 3,000 native, 30,000 pSLC on the
// earlier 3D TLC generation). A block in SLC mode holds 24 / 3 = 8 pages.
func slcSpec() Spec {
	s := smallSpec()
	s.SLC = SLCSpec{TRead: 25 * us, TProg: 300 * us, Endurance: 10}
	return s
}

// TestSLCModeTiming programs the 8 pages of a block in SLC mode (each its own tPROG of
// 300 µs: 8 × 300 = 2,400 µs of program-slc), reads one back in 25 µs, and checks the mode
// rules: a ninth page, a native read of an SLC block, a native program of it are refused;
// its erase returns it to the pool, and the same page 0 programmed natively costs the 2D
// TLC LSB tPROG of 558 µs (the control: without the mode the first page costs 558 µs, not
// 300 µs).
func TestSLCModeTiming(t *testing.T) {
	d := newDie(t, slcSpec())
	require.Equal(t, 8, d.spec.SLCPages())
	now := sim.Time(0)
	for p := range 8 {
		end := d.ProgramSLC(now, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(100 + p)})
		require.Equal(t, now+300*us, end, "SLC page %d", p)
		require.True(t, d.Complete(end))
		now = end
	}
	require.True(t, d.IsSLC(0, 0))
	require.Equal(t, 8, d.BlockPages(0, 0))
	require.Equal(t, 24, d.BlockPages(0, 1))
	arr := d.Array()
	require.Equal(t, 2400*us, arr.BusyAt(now, arr.Activity("program-slc")))
	requirePanicContains(t, "in SLC mode: a block in SLC mode holds 8 pages",
		func() { d.ProgramSLC(now, []Addr{{Plane: 0, Block: 0, Page: 8}}, []uint64{1}) })
	requirePanicContains(t, "read of plane 0 block 0 page 3 in native mode, but the block is programmed in SLC mode",
		func() { d.Read(now, []Addr{{Plane: 0, Block: 0, Page: 3}}, []uint64{0}) })
	requirePanicContains(t, "program of plane 0 block 0 page 8 in native mode, but the block is programmed in SLC mode",
		func() { d.Program(now, []Addr{{Plane: 0, Block: 0, Page: 8}}, []uint64{0}) })
	st := []uint64{0}
	end := d.ReadSLC(now, []Addr{{Plane: 0, Block: 0, Page: 3}}, st)
	require.Equal(t, now+25*us, end)
	require.Equal(t, uint64(103), st[0])
	now = end
	s := d.Stats()
	require.Equal(t, int64(8), s.SLCPrograms)
	require.Equal(t, int64(1), s.SLCReads)
	require.Equal(t, [NumPageTypes]int64{}, s.Programs)
	require.Equal(t, [NumPageTypes]int64{}, s.Reads)

	end = d.Erase(now, []Addr{{Plane: 0, Block: 0, Page: 0}})
	require.True(t, d.Complete(end))
	now = end
	require.False(t, d.IsSLC(0, 0))
	require.Equal(t, 1, d.SLCErases(0, 0))
	require.Equal(t, now+558*us, d.Program(now, []Addr{{Plane: 0, Block: 0, Page: 0}}, []uint64{7}))
	require.Equal(t, int64(1), d.Stats().SLCErases)
	require.Equal(t, int64(1), d.Stats().Erases)
}

// TestSLCWear: with endurance 10 a block erased 19 times in SLC mode and twice natively
// has worn 2 + 19 / 10 = 3 native cycles (rounded down); without the endurance ratio
// (endurance 0 = 1) the same history counts 21.
func TestSLCWear(t *testing.T) {
	for _, c := range []struct{ endurance, want int }{{10, 3}, {0, 21}} {
		s := slcSpec()
		s.SLC.Endurance = c.endurance
		d := newDie(t, s)
		now := sim.Time(0)
		cycle := func(slc bool) {
			var end sim.Time
			if slc {
				end = d.ProgramSLC(now, []Addr{{Plane: 1, Block: 2, Page: 0}}, []uint64{1})
			} else {
				end = d.Program(now, []Addr{{Plane: 1, Block: 2, Page: 0}}, []uint64{1})
			}
			require.True(t, d.Complete(end))
			end = d.Erase(end, []Addr{{Plane: 1, Block: 2, Page: 0}})
			require.True(t, d.Complete(end))
			now = end
		}
		for i := range 21 {
			cycle(i != 4 && i != 11) // two native cycles among 19 in SLC mode
		}
		require.Equal(t, c.want, d.Wear(1, 2), "endurance %d", c.endurance)
		require.Equal(t, 19, d.SLCErases(1, 2))
	}
}

// TestCutSLC: a one-shot QLC die (qlcSpec) loses a whole word line when a cut hits its
// program (TestCutOneShot); a block in SLC mode holds one page a word line, so a cut during
// the program of its page 2 loses page 2 only, and pages 0 and 1 keep their data.
func TestCutSLC(t *testing.T) {
	s := qlcSpec(OneShot)
	s.SLC = SLCSpec{TRead: 25 * us, TProg: 300 * us}
	d := newDie(t, s)
	now := sim.Time(0)
	for p := range 2 {
		end := d.ProgramSLC(now, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(10 + p)})
		require.True(t, d.Complete(end))
		now = end
	}
	d.ProgramSLC(now, []Addr{{Plane: 0, Block: 0, Page: 2}}, []uint64{12})
	require.Equal(t, []Addr{{Plane: 0, Block: 0, Page: 2}}, d.Cut(now+100*us))
	require.Equal(t, uint64(10), d.Stamp(Addr{Plane: 0, Block: 0, Page: 0}))
	require.Equal(t, uint64(11), d.Stamp(Addr{Plane: 0, Block: 0, Page: 1}))
	require.Equal(t, LostStamp, d.Stamp(Addr{Plane: 0, Block: 0, Page: 2}))
}

// TestSLCValidate checks the SLC mode's problems are reported with their fields, and the
// mode decodes from YAML.
func TestSLCValidate(t *testing.T) {
	require.NoError(t, slcSpec().Validate())
	s := slcSpec()
	s.SLC.TRead, s.SLC.Endurance = 0, 2000
	err := s.Validate()
	require.ErrorContains(t, err, "die.slc.t_read: 0s must be positive")
	require.ErrorContains(t, err, "die.slc.endurance: 2000 is not in 0 … 1000")
	s = SpecFor(SLC)
	s.SLC = SLCSpec{TRead: us, TProg: us}
	require.ErrorContains(t, s.Validate(), "an SLC mode needs a multi-level die")
	d := newDie(t, smallSpec())
	requirePanicContains(t, "in SLC mode, but the die has none (die.slc)",
		func() { d.ProgramSLC(0, []Addr{{Plane: 0, Block: 0, Page: 0}}, []uint64{1}) })

	var y Spec
	require.NoError(t, yaml.Unmarshal([]byte("slc: {t_read: 30us, t_prog: 200us, endurance: 20}\nindependent_plane_reads: true\n"), &y))
	require.Equal(t, SLCSpec{TRead: 30 * us, TProg: 200 * us, Endurance: 20}, y.SLC)
	require.True(t, y.IndependentPlaneReads)
}

// TestIndependentPlaneReads: with independent plane reads a read of plane 1 starts 10 µs
// into a read of plane 0 and both take their own LSB tR of 58 µs (ending at 58 and 68 µs);
// the array is busy for their union, 68 µs; a second read of plane 0 before 58 µs and a
// program before 68 µs are refused. The control, the same die without the feature, refuses
// the read of plane 1 (the die reads one page at a time).
func TestIndependentPlaneReads(t *testing.T) {
	s := smallSpec()
	s.IndependentPlaneReads = true
	d := newDie(t, s)
	end := d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 0}, {Plane: 1, Block: 0, Page: 0}}, []uint64{1, 2})
	require.True(t, d.Complete(end))
	t0 := end
	st := []uint64{0}
	require.Equal(t, t0+58*us, d.Read(t0, []Addr{{Plane: 0, Block: 0, Page: 0}}, st))
	require.Equal(t, t0+68*us, d.Read(t0+10*us, []Addr{{Plane: 1, Block: 0, Page: 0}}, st))
	require.Equal(t, uint64(2), st[0])
	require.Equal(t, t0+58*us, d.ReadingUntil(0))
	require.Equal(t, t0+68*us, d.ReadingUntil(1))
	requirePanicContains(t, "while plane 0 is reading until",
		func() { d.Read(t0+20*us, []Addr{{Plane: 0, Block: 0, Page: 0}}, st) })
	requirePanicContains(t, "while the die is reading until",
		func() { d.Program(t0+60*us, []Addr{{Plane: 0, Block: 0, Page: 1}}, []uint64{1}) })
	arr := d.Array()
	require.Equal(t, 68*us, arr.BusyAt(t0+68*us, arr.Activity("read")))
	require.Equal(t, 58*us, d.Plane(1).BusyAt(t0+68*us, d.Plane(1).Activity("read")))
	// Plane 0 reads again once its own read ended, while plane 1 still reads.
	require.Equal(t, t0+118*us, d.Read(t0+60*us, []Addr{{Plane: 0, Block: 0, Page: 0}}, st))

	c := newDie(t, smallSpec())
	end = c.Program(0, []Addr{{Plane: 0, Block: 0, Page: 0}, {Plane: 1, Block: 0, Page: 0}}, []uint64{1, 2})
	require.True(t, c.Complete(end))
	c.Read(end, []Addr{{Plane: 0, Block: 0, Page: 0}}, st)
	requirePanicContains(t, "while the die is reading until",
		func() { c.Read(end+10*us, []Addr{{Plane: 1, Block: 0, Page: 0}}, st) })
	require.Equal(t, end+58*us, c.ReadingUntil(1))
}
