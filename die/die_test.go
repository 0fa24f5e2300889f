package die

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

const us = sim.Microsecond

// smallSpec is the default TLC die shrunk to 2 planes × 4 blocks × 24 pages × 4 KiB.
func smallSpec() Spec {
	s := DefaultSpec()
	s.BlocksPerPlane, s.PagesPerBlock, s.PageSize = 4, 24, 4096
	return s
}

func newDie(t testing.TB, s Spec) *Die {
	d, err := New("ssd.ch[0].die[1]", s)
	require.NoError(t, err)
	return d
}

// TestPageTypeMaps checks the page-type maps of docs/sources.md §3.4 written out by hand.
func TestPageTypeMaps(t *testing.T) {
	L, C, M := LSB, CSB, MSB
	tlc := DefaultSpec()
	// 2D TLC: 0–5 LSB, 6–7 CSB, then pairs LSB, CSB, MSB, LSB, …
	want2D := []PageType{L, L, L, L, L, L, C, C, L, L, C, C, M, M, L, L, C, C, M, M, L, L}
	for p, w := range want2D {
		require.Equal(t, w, tlc.PageType(p), "2D TLC page %d", p)
	}
	// Page 383 (last of a 384-page block): ((383-8)>>1)%3 = 187%3 = 1 → CSB.
	require.Equal(t, C, tlc.PageType(383))
	tlc.OneShot = true
	for p, w := range []PageType{L, C, M, L, C, M, L} {
		require.Equal(t, w, tlc.PageType(p), "one-shot TLC page %d", p)
	}
	mlc := SpecFor(MLC)
	for p, w := range []PageType{L, M, L, M, L, M} {
		require.Equal(t, w, mlc.PageType(p), "MLC page %d", p)
	}
	slc := SpecFor(SLC)
	for p := range 10 {
		require.Equal(t, L, slc.PageType(p), "SLC page %d", p)
	}
}

// TestArrayLatencies checks tR and tPROG per page type and tBERS against docs/sources.md §3.4, and
// that the die's array Resource records them under the right activity.
func TestArrayLatencies(t *testing.T) {
	d := newDie(t, smallSpec())
	stamps := []uint64{0}
	now := sim.Time(0)
	// Program pages 0 … 13 of plane 0 block 0 back to back; the types are the 2D TLC map.
	wantProg := map[PageType]sim.Time{LSB: 558 * us, CSB: 2201 * us, MSB: 5001 * us}
	for p := range 14 {
		a := []Addr{{Plane: 0, Block: 0, Page: p}}
		end := d.Program(now, a, stamps)
		require.Equal(t, now+wantProg[smallSpec().PageType(p)], end, "page %d", p)
		require.True(t, d.Complete(end))
		now = end
	}
	// 8 LSB (0–5, 8, 9) + 4 CSB (6, 7, 10, 11) + 2 MSB (12, 13).
	arr := d.Array()
	require.Equal(t, 8*558*us, arr.BusyAt(now, arr.Activity("program-lsb")))
	require.Equal(t, 4*2201*us, arr.BusyAt(now, arr.Activity("program-csb")))
	require.Equal(t, 2*5001*us, arr.BusyAt(now, arr.Activity("program-msb")))
	require.Equal(t, [NumPageTypes]int64{8, 4, 2, 0}, d.Stats().Programs)

	wantRead := map[int]sim.Time{0: 58 * us, 6: 78 * us, 12: 107 * us}
	for p, tr := range wantRead {
		end := d.Read(now, []Addr{{Plane: 0, Block: 0, Page: p}}, stamps)
		require.Equal(t, now+tr, end)
		now = end
	}
	require.Equal(t, (58+78+107)*us, arr.BusyAt(now, arr.Activity("read")))
	end := d.Erase(now, []Addr{{Plane: 0, Block: 0, Page: 0}})
	require.Equal(t, now+2274*us, end)
	require.False(t, d.Complete(end-1))
	require.True(t, d.Complete(end))
	require.Equal(t, 2274*us, arr.BusyAt(end, arr.Activity("erase")))
	// Plane 1 took no part in any of it.
	require.Equal(t, sim.Time(0), d.Plane(1).TotalBusyAt(end))
	require.Equal(t, arr.TotalBusyAt(end), d.Plane(0).TotalBusyAt(end))
}

// TestStampsReadBack checks out-of-band stamps: programmed pages return their stamp, others
// ErasedStamp, and an erase clears the block and counts a P/E cycle.
func TestStampsReadBack(t *testing.T) {
	d := newDie(t, smallSpec())
	now := sim.Time(0)
	for p := range 3 {
		now = d.Program(now, []Addr{{Plane: 1, Block: 2, Page: p}}, []uint64{uint64(100 + p)})
	}
	got := make([]uint64, 1)
	for p := range 3 {
		now = d.Read(now, []Addr{{Plane: 1, Block: 2, Page: p}}, got)
		require.Equal(t, uint64(100+p), got[0])
	}
	now = d.Read(now, []Addr{{Plane: 1, Block: 2, Page: 3}}, got)
	require.Equal(t, ErasedStamp, got[0])
	require.Equal(t, uint64(101), d.Stamp(Addr{Plane: 1, Block: 2, Page: 1}))
	require.Equal(t, 3, d.NextPage(1, 2))
	require.Equal(t, 0, d.EraseCount(1, 2))

	now = d.Erase(now, []Addr{{Plane: 1, Block: 2, Page: 0}})
	require.True(t, d.Complete(now))
	require.Equal(t, ErasedStamp, d.Stamp(Addr{Plane: 1, Block: 2, Page: 1}))
	require.Equal(t, 0, d.NextPage(1, 2))
	require.Equal(t, 1, d.EraseCount(1, 2))
	now = d.Program(now, []Addr{{Plane: 1, Block: 2, Page: 0}}, []uint64{7})
	require.Equal(t, uint64(7), d.Stamp(Addr{Plane: 1, Block: 2, Page: 0}))
	// Blocks never programmed hold no stamp storage.
	require.Nil(t, d.oob[d.blockIndex(0, 0)])
	_ = now
}

// TestInOrderEnforced checks that out-of-order programs panic, naming die, block, page and
// time.
func TestInOrderEnforced(t *testing.T) {
	cases := []struct {
		name  string
		setup int // pages programmed first in plane 0 block 1
		page  int
		want  string
	}{
		{"rewrite a page", 2, 1, "next free page is 2"},
		{"full block", 24, 0, "block is full (not erased)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDie(t, smallSpec())
			now := sim.Time(0)
			for p := range c.setup {
				now = d.Program(now, []Addr{{Plane: 0, Block: 1, Page: p}}, []uint64{1})
			}
			at := now
			require.PanicsWithValue(t, fmt.Sprintf("die ssd.ch[0].die[1] at %v: program of plane 0 block 1 page %d, but the %s",
				at, c.page, wantTail(c.want)), func() {
				d.Program(at, []Addr{{Plane: 0, Block: 1, Page: c.page}}, []uint64{1})
			})
		})
	}
}

// TestSkipForwardLeavesPagesErased: programming page 3 of an erased block passes over pages
// 0–2 (they stay erased and read back as ErasedStamp); going back to page 1 is out of order.
func TestSkipForwardLeavesPagesErased(t *testing.T) {
	d := newDie(t, smallSpec())
	end := d.Program(0, []Addr{{Plane: 0, Block: 1, Page: 3}}, []uint64{42})
	require.True(t, d.Complete(end))
	require.Equal(t, 4, d.NextPage(0, 1))
	require.Equal(t, int64(3), d.Stats().Skipped)
	require.Equal(t, ErasedStamp, d.Stamp(Addr{Plane: 0, Block: 1, Page: 1}))
	require.Equal(t, uint64(42), d.Stamp(Addr{Plane: 0, Block: 1, Page: 3}))
	require.PanicsWithValue(t, fmt.Sprintf("die ssd.ch[0].die[1] at %v: program of plane 0 block 1 page 1, but the block's next free page is 4 (pages must be programmed in order)", end),
		func() { d.Program(end, []Addr{{Plane: 0, Block: 1, Page: 1}}, []uint64{1}) })
}

// wantTail completes the panic message for TestInOrderEnforced.
func wantTail(w string) string {
	if w == "block is full (not erased)" {
		return w
	}
	return "block's " + w + " (pages must be programmed in order)"
}

// TestMultiPlaneRule checks the rule the die enforces: distinct planes, same page index,
// blocks free to differ unless MultiPlaneSameBlock.
func TestMultiPlaneRule(t *testing.T) {
	s := smallSpec()
	s.Planes = 4
	d := newDie(t, s)
	// Different blocks, same page: allowed, one tPROG (558 µs, LSB) for all four planes.
	end := d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 0}, {Plane: 1, Block: 3, Page: 0}, {Plane: 2, Block: 1, Page: 0}, {Plane: 3, Block: 2, Page: 0}}, []uint64{1, 2, 3, 4})
	require.Equal(t, 558*us, end)
	require.True(t, d.Complete(end))
	for p := range 4 {
		require.Equal(t, 558*us, d.Plane(p).BusyAt(end, d.Plane(p).Activity("program-lsb")))
	}
	require.Equal(t, 558*us, d.Array().TotalBusyAt(end)) // the array once, not four times
	bad := []struct {
		name  string
		addrs []Addr
		want  string
	}{
		{"same plane twice", []Addr{{Plane: 0, Block: 0, Page: 1}, {Plane: 0, Block: 1, Page: 1}}, "names plane 0 twice"},
		{"different pages", []Addr{{Plane: 0, Block: 0, Page: 1}, {Plane: 1, Block: 3, Page: 2}}, "pages must have the same index"},
		{"too many", []Addr{{Plane: 0, Block: 0, Page: 1}, {Plane: 1, Block: 3, Page: 1}, {Plane: 2, Block: 1, Page: 1}, {Plane: 3, Block: 2, Page: 1}, {Plane: 0, Block: 0, Page: 1}}, "program of 5 planes"},
		{"none", nil, "program of 0 planes"},
		{"plane out of range", []Addr{{Plane: 4, Block: 0, Page: 1}}, "out of range"},
		{"page out of range", []Addr{{Plane: 0, Block: 0, Page: 24}}, "page out of range"},
	}
	for _, c := range bad {
		requirePanicContains(t, c.want, func() {
			d.Program(end, c.addrs, []uint64{1, 2, 3, 4, 5})
		}, c.name)
	}
	s.MultiPlaneSameBlock = true
	d2 := newDie(t, s)
	requirePanicContains(t, "blocks must have the same index", func() {
		d2.Read(0, []Addr{{Plane: 0, Block: 0, Page: 0}, {Plane: 1, Block: 1, Page: 0}}, make([]uint64, 2))
	})
	d2.Read(0, []Addr{{Plane: 0, Block: 1, Page: 0}, {Plane: 1, Block: 1, Page: 0}}, make([]uint64, 2))
}

// requirePanicContains checks that f panics with a message naming the die and containing
// want.
func requirePanicContains(t *testing.T, want string, f func(), msg ...any) {
	t.Helper()
	defer func() {
		r := recover()
		s, ok := r.(string)
		require.True(t, ok, "no string panic: %v %v", r, msg)
		require.Contains(t, s, "die ssd.ch[0].die[1] at ", msg...)
		require.Contains(t, s, want, msg...)
	}()
	f()
}

// TestBusyDiePanics checks that starting work on a busy die without suspend is a bug.
func TestBusyDiePanics(t *testing.T) {
	d := newDie(t, smallSpec())
	end := d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 0}}, []uint64{1})
	require.Panics(t, func() { d.Read(100*us, []Addr{{Plane: 1, Block: 0, Page: 0}}, make([]uint64, 1)) })
	require.Panics(t, func() { d.Erase(100*us, []Addr{{Plane: 1, Block: 0, Page: 0}}) })
	require.Panics(t, func() { d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 1}}, []uint64{2}) })
	// At its end the die is free again even before Complete is called.
	rEnd := d.Read(end, []Addr{{Plane: 0, Block: 0, Page: 0}}, make([]uint64, 1))
	require.Equal(t, end+58*us, rEnd)
	require.True(t, d.Complete(end))
	require.Panics(t, func() { d.Read(rEnd-1, []Addr{{Plane: 0, Block: 0, Page: 0}}, make([]uint64, 1)) })
}

// TestSuspend checks program suspend by a read: with tSuspend 20 µs and tResume 30 µs, an
// MSB program started at 0 (ends 5,001 µs) and an LSB read at 1,000 µs give, by hand:
// read tR 1,020 … 1,078 µs; program end 5,001 + 20 + 58 + 30 = 5,109 µs.
func TestSuspend(t *testing.T) {
	s := smallSpec()
	s.Suspend, s.TSuspend, s.TResume = true, 20*us, 30*us
	d := newDie(t, s)
	now := sim.Time(0)
	for p := range 12 { // pages 0–11; page 12 is the first MSB page
		now = d.Program(now, []Addr{{Plane: 0, Block: 0, Page: p}}, []uint64{uint64(p)})
	}
	t0 := now
	end := d.Program(t0, []Addr{{Plane: 0, Block: 0, Page: 12}}, []uint64{12})
	require.Equal(t, t0+5001*us, end)
	require.True(t, d.Suspendable(t0+1000*us))
	got := make([]uint64, 1)
	rEnd := d.Read(t0+1000*us, []Addr{{Plane: 1, Block: 0, Page: 0}}, got)
	require.Equal(t, t0+1078*us, rEnd)
	require.Equal(t, ErasedStamp, got[0])
	require.Equal(t, t0+5109*us, d.BusyUntil())
	require.False(t, d.Complete(end)) // moved
	// A second read at 1,090 µs waits for the resume (ends 1,108 µs): tR 1,128 … 1,206 µs
	// (page 6 is CSB, 78 µs: 1,108 + 20 + 78 = 1,206 µs); program end + 20 + 78 + 30 = 5,237 µs.
	rEnd2 := d.Read(t0+1090*us, []Addr{{Plane: 0, Block: 0, Page: 6}}, got)
	require.Equal(t, uint64(6), got[0])
	require.Equal(t, t0+1206*us, rEnd2)
	require.Equal(t, t0+5237*us, d.BusyUntil())
	require.False(t, d.Complete(t0+5109*us))
	require.True(t, d.Complete(t0+5237*us))
	arr := d.Array()
	at := t0 + 5237*us
	// The program itself still totals 5,001 µs of array time; overheads are "suspend".
	require.Equal(t, 5001*us, arr.BusyAt(at, arr.Activity("program-msb")))
	require.Equal(t, 100*us, arr.BusyAt(at, arr.Activity("suspend")))
	require.Equal(t, int64(2), d.Stats().Suspends)
	require.Equal(t, 5001*us, d.Plane(0).BusyAt(at, d.Plane(0).Activity("program-msb")))
	require.Equal(t, 58*us, d.Plane(1).BusyAt(at, d.Plane(1).Activity("read")))

	// MaxSuspends 1: the second suspension is refused.
	s.MaxSuspends = 1
	d2 := newDie(t, s)
	e2 := d2.Erase(0, []Addr{{Plane: 0, Block: 0, Page: 0}})
	require.Equal(t, 2274*us, e2)
	d2.Read(10*us, []Addr{{Plane: 1, Block: 0, Page: 0}}, got)
	require.False(t, d2.Suspendable(500*us))
	require.Panics(t, func() { d2.Read(500*us, []Addr{{Plane: 1, Block: 0, Page: 0}}, got) })
}

// TestOneShot checks 3D one-shot TLC: pages 0 and 1 of a word line only load registers,
// page 2 programs the word line for tPROG(MSB) = 5,001 µs.
func TestOneShot(t *testing.T) {
	s := smallSpec()
	s.OneShot = true
	d := newDie(t, s)
	require.Equal(t, sim.Time(0), d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 0}}, []uint64{1}))
	require.Equal(t, sim.Time(0), d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 1}}, []uint64{2}))
	end := d.Program(0, []Addr{{Plane: 0, Block: 0, Page: 2}}, []uint64{3})
	require.Equal(t, 5001*us, end)
	require.True(t, d.Complete(end))
	require.Equal(t, 5001*us, d.Array().TotalBusyAt(end))
	require.Equal(t, [NumPageTypes]int64{1, 1, 1, 0}, d.Stats().Programs)
}

// TestValidate checks that every problem is reported with its field.
func TestValidate(t *testing.T) {
	for _, c := range []CellType{SLC, MLC, TLC} {
		require.NoError(t, SpecFor(c).Validate(), c.String())
	}
	s := DefaultSpec()
	s.Cell = 5
	s.Planes = 0
	s.BlocksPerPlane = 0
	s.PagesPerBlock = 70000
	s.PageSize = 0
	s.TErase = 0
	s.TSuspend = -1
	s.TResume = -1
	s.MaxSuspends = -1
	err := s.Validate()
	for _, f := range []string{"die.cell", "die.planes", "die.blocks_per_plane", "die.pages_per_block",
		"die.page_size", "die.t_erase", "die.t_suspend", "die.t_resume", "die.max_suspends"} {
		require.ErrorContains(t, err, f)
	}
	s = DefaultSpec()
	s.PageSize = 5000 // not whole sectors (issue 38: flashbench --page-size 5000 ran)
	require.EqualError(t, s.Validate(), "die.page_size: 5000 is not a positive multiple of the 512-byte sector")
	s = DefaultSpec()
	s.TProg.CSB = 0
	s.OneShot = true
	s.PagesPerBlock = 100
	err = s.Validate()
	require.ErrorContains(t, err, "die.t_prog.csb")
	require.ErrorContains(t, err, "multiple of the 3 pages")
	s = SpecFor(SLC)
	s.OneShot = true
	require.ErrorContains(t, s.Validate(), "die.one_shot")
	_, err = New("x", s)
	require.Error(t, err)
}

// TestYAML checks the spec decodes from YAML with unit strings.
func TestYAML(t *testing.T) {
	src := `
cell: mlc
planes: 1
blocks_per_plane: 512
pages_per_block: 512
page_size: 4096
t_read: {lsb: 59.975us, msb: 104.956us}
t_prog: {lsb: 820.62us, msb: 2250us}
t_erase: 3ms
`
	var s Spec
	require.NoError(t, yaml.Unmarshal([]byte(src), &s))
	require.NoError(t, s.Validate())
	require.Equal(t, MLC, s.Cell)
	require.Equal(t, sim.Time(820_620_000), s.TProg.LSB)
	require.Error(t, yaml.Unmarshal([]byte("cell: plc\n"), &s))
}

// FuzzCellType checks the cell-type parser: whatever it accepts prints back unchanged.
func FuzzCellType(f *testing.F) {
	for _, s := range []string{"slc", "mlc", "tlc", "qlc", "", "TLC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c CellType
		if c.UnmarshalText([]byte(s)) == nil {
			require.Equal(t, s, c.String())
		}
	})
}

// ExampleDie programs pages 0–12 of a block of a default TLC die back to back (6 LSB + 2 CSB
// + 2 LSB + 2 CSB + 1 MSB = 6·558 + 2·2201 + 2·558 + 2·2201 + 5001 = 18,269 µs) and reads
// the MSB page back (107 µs).
func ExampleDie() {
	d, _ := New("ssd.ch[0].die[0]", DefaultSpec())
	stamp := []uint64{42}
	var end sim.Time
	for p := 0; p <= 12; p++ { // page 12 is the first MSB page of the 2D TLC map
		end = d.Program(end, []Addr{{Plane: 0, Block: 0, Page: p}}, stamp)
	}
	fmt.Println("page 12 is", d.PageType(12), "- programmed by", end)
	got := make([]uint64, 1)
	fmt.Println("read done at", d.Read(end, []Addr{{Plane: 0, Block: 0, Page: 12}}, got), "stamp", got[0])
	// Output:
	// page 12 is msb - programmed by 18.269ms
	// read done at 18.376ms stamp 42
}

// BenchmarkProgramRead measures one program plus one read on the die (no engine).
func BenchmarkProgramRead(b *testing.B) {
	d := newDie(b, DefaultSpec())
	st := []uint64{1}
	got := make([]uint64, 1)
	a := []Addr{{}}
	now := sim.Time(0)
	b.ReportAllocs()
	for b.Loop() {
		if a[0].Page == d.spec.PagesPerBlock {
			a[0].Page = 0
			now = d.Erase(now, a)
			d.Complete(now)
		}
		now = d.Program(now, a, st)
		d.Complete(now)
		now = d.Read(now, a, got)
		a[0].Page++
	}
}

func TestFill(t *testing.T) {
	d := newDie(t, smallSpec())
	d.Fill(1, 2, 5, func(p int) uint64 { return uint64(100 + p) })
	require.Equal(t, 5, d.NextPage(1, 2))
	require.Equal(t, uint64(103), d.Stamp(Addr{Plane: 1, Block: 2, Page: 3}))
	require.Equal(t, ErasedStamp, d.Stamp(Addr{Plane: 1, Block: 2, Page: 5}))
	require.Equal(t, sim.Time(0), d.Array().TotalBusyAt(sim.Second), "filling takes no time")
	end := d.Program(0, []Addr{{Plane: 1, Block: 2, Page: 5}}, []uint64{7}) // programming goes on after the filled pages
	require.Positive(t, end)
	require.Panics(t, func() { d.Fill(1, 2, 1, func(int) uint64 { return 1 }) })
}

// fillSource derives a filled page's stamp from its address and counts its calls.
type fillSource struct{ calls int }

func (s *fillSource) FillStamp(plane, block, page int) uint64 {
	s.calls++
	return uint64(1000*plane + 100*block + page)
}

// TestFillFrom: filled pages read back the source's stamps without storing them; the next
// program of the block copies them in (so the source is no longer asked); an erase drops
// them; a second source on the same die is a bug.
func TestFillFrom(t *testing.T) {
	d := newDie(t, smallSpec())
	src := &fillSource{}
	d.FillFrom(1, 2, 5, src)
	require.Equal(t, 5, d.NextPage(1, 2))
	require.Nil(t, d.oob[d.blockIndex(1, 2)], "no storage for a filled block")
	require.Equal(t, uint64(1000+200+3), d.Stamp(Addr{Plane: 1, Block: 2, Page: 3}))
	require.Equal(t, ErasedStamp, d.Stamp(Addr{Plane: 1, Block: 2, Page: 5}))
	got := []uint64{0}
	end := d.Read(0, []Addr{{Plane: 1, Block: 2, Page: 4}}, got)
	require.Equal(t, uint64(1204), got[0])
	d.Complete(end)
	calls := src.calls
	end = d.Program(end, []Addr{{Plane: 1, Block: 2, Page: 5}}, []uint64{7}) // copies pages 0–4 in
	require.Equal(t, calls+5, src.calls)
	d.Complete(end)
	end = d.Read(end, []Addr{{Plane: 1, Block: 2, Page: 1}}, got)
	require.Equal(t, uint64(1201), got[0])
	require.Equal(t, calls+5, src.calls, "stored now: the source is not asked again")
	require.Equal(t, uint64(7), d.Stamp(Addr{Plane: 1, Block: 2, Page: 5}))
	d.Complete(end)
	end = d.Erase(end, []Addr{{Plane: 1, Block: 2, Page: 0}})
	d.Complete(end)
	require.Equal(t, ErasedStamp, d.Stamp(Addr{Plane: 1, Block: 2, Page: 0}))
	// Refilling a block that has storage fills the storage.
	d.FillFrom(1, 2, 2, src)
	require.Equal(t, uint64(1201), d.Stamp(Addr{Plane: 1, Block: 2, Page: 1}))
	require.Panics(t, func() { d.FillFrom(0, 0, 1, &fillSource{}) }, "a second source")
	require.Panics(t, func() { d.FillFrom(1, 2, 1, src) }, "not erased")
	require.Equal(t, sim.Time(0), newDie(t, smallSpec()).Array().TotalBusyAt(sim.Second))
}

// TestAllOnesDataIsLegal (issue 22, hole 6): data whose word is all ones, the erased
// pattern, programs and reads back like any other, and the die tells such a page from an
// erased one by its state. Block 1 of plane 0: page 0 programmed with ^0, page 3 with ^0
// (passing over pages 1 and 2, left erased), so by hand: Programmed is true for 0 and 3,
// false for 1, 2 (skipped) and 4 (above the write pointer, 4); every one of them reads
// ^0. After the erase no page is programmed, and page 1 can be programmed again (the skip
// marks went with the erase).
func TestAllOnesDataIsLegal(t *testing.T) {
	d := newDie(t, smallSpec())
	now := d.Program(0, []Addr{{Plane: 0, Block: 1, Page: 0}}, []uint64{ErasedStamp})
	require.True(t, d.Complete(now))
	now = d.Program(now, []Addr{{Plane: 0, Block: 1, Page: 3}}, []uint64{ErasedStamp})
	require.True(t, d.Complete(now))
	want := []bool{true, false, false, true, false}
	got := make([]uint64, 1)
	for pg, w := range want {
		a := Addr{Plane: 0, Block: 1, Page: pg}
		require.Equal(t, w, d.Programmed(a), "page %d", pg)
		require.Equal(t, ErasedStamp, d.Stamp(a), "page %d", pg)
		now = d.Read(now, []Addr{a}, got)
		require.Equal(t, ErasedStamp, got[0], "page %d", pg)
	}
	// Fill accepts all ones too.
	d.Fill(1, 2, 2, func(int) uint64 { return ErasedStamp })
	require.True(t, d.Programmed(Addr{Plane: 1, Block: 2, Page: 1}))
	now = d.Erase(now, []Addr{{Plane: 0, Block: 1, Page: 0}})
	require.True(t, d.Complete(now))
	for pg := range want {
		require.False(t, d.Programmed(Addr{Plane: 0, Block: 1, Page: pg}), "page %d after erase", pg)
	}
	now = d.Program(now, []Addr{{Plane: 0, Block: 1, Page: 0}}, []uint64{5})
	require.True(t, d.Complete(now))
	now = d.Program(now, []Addr{{Plane: 0, Block: 1, Page: 1}}, []uint64{6})
	require.True(t, d.Programmed(Addr{Plane: 0, Block: 1, Page: 1}))
	require.Equal(t, uint64(6), d.Stamp(Addr{Plane: 0, Block: 1, Page: 1}))
	_ = now
}
