package die

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// readOne reads page a at t and returns its stamp, the die's verdict and the read's end.
func readOne(d *Die, t sim.Time, a Addr) (stamp uint64, failed bool, end sim.Time) {
	got := make([]uint64, d.spec.StampsPerPage())
	end = d.Read(t, []Addr{a}, got)
	return got[0], d.Failed() != 0, end
}

// TestReadLatchedOneShot: one-shot TLC word line 0 holds pages 0–2. After pages 0 and 1
// are loaded (latched, Program returns at once) the cells are still erased: a read of page
// 0 senses erased cells (ErasedStamp), correctable (nothing failed), and is counted. Once
// page 2's program (tPROG MSB, 5,001 µs) has ended, pages 0–2 read back their stamps.
func TestReadLatchedOneShot(t *testing.T) {
	s := smallSpec()
	s.Scheme = OneShot
	d := newDie(t, s)
	a := func(p int) Addr { return Addr{Plane: 0, Block: 0, Page: p} }
	require.Equal(t, sim.Time(0), d.Program(0, []Addr{a(0)}, []uint64{10}))
	require.Equal(t, sim.Time(0), d.Program(0, []Addr{a(1)}, []uint64{11}))
	st, failed, end := readOne(d, 0, a(0))
	require.Equal(t, ErasedStamp, st)
	require.False(t, failed)
	require.Equal(t, int64(1), d.Stats().UnfinishedReads)
	require.Equal(t, int64(0), d.Stats().Uncorrectable)
	done := d.Program(end, []Addr{a(2)}, []uint64{12})
	require.Equal(t, end+5001*us, done)
	require.True(t, d.Complete(done))
	for p := range 3 {
		st, failed, done = readOne(d, done, a(p))
		require.Equal(t, uint64(10+p), st, "page %d", p)
		require.False(t, failed)
	}
	require.Equal(t, int64(1), d.Stats().UnfinishedReads)
}

// TestReadCoarseTwoPass: two-pass QLC (16 pages, 4 a word line). Page 3 runs word line 0's
// coarse pass (tPROG TSB); once it has ended, word line 0 is coarse-only: a read of page 2
// is uncorrectable (Failed, LostStamp, no retry). Page 7 runs word line 1's coarse pass and
// word line 0's fine pass; after it, page 2 reads back its stamp and page 5 (word line 1,
// coarse-only now) is uncorrectable. Pages 8–15: page 15 runs word line 3's coarse pass,
// word line 2's fine pass and word line 3's own fine pass (the block's last), so every page
// reads back.
func TestReadCoarseTwoPass(t *testing.T) {
	s := qlcSpec(TwoPass)
	d := newDie(t, s)
	a := func(p int) Addr { return Addr{Plane: 0, Block: 0, Page: p} }
	now := sim.Time(0)
	program := func(to int) {
		for p := d.NextPage(0, 0); p <= to; p++ {
			now = d.Program(now, []Addr{a(p)}, []uint64{uint64(100 + p)})
		}
		require.True(t, d.Complete(now))
	}
	program(3)
	st, failed, now := readOne(d, now, a(2))
	require.Equal(t, LostStamp, st)
	require.True(t, failed)
	require.Equal(t, 0, d.ReadRetries())
	require.Equal(t, int64(1), d.Stats().Uncorrectable)
	program(7)
	st, failed, now = readOne(d, now, a(2))
	require.Equal(t, uint64(102), st)
	require.False(t, failed)
	st, failed, now = readOne(d, now, a(5))
	require.Equal(t, LostStamp, st)
	require.True(t, failed)
	program(15)
	for p := range 16 {
		st, failed, now = readOne(d, now, a(p))
		require.Equal(t, uint64(100+p), st, "page %d", p)
		require.False(t, failed, "page %d", p)
	}
	require.Equal(t, int64(2), d.Stats().UnfinishedReads)
}

// TestReadDuringOneShotProgram: a read that suspends a one-shot program reads cells between
// levels when it names a page of the word line being programmed (uncorrectable), and
// another word line's page normally. Word line 1 (pages 3–5) is programmed from t0; with
// tSuspend 20 µs, a read at t0 + 1,000 µs of page 4 fails, of page 1 (word line 0, final)
// returns its stamp.
func TestReadDuringOneShotProgram(t *testing.T) {
	s := smallSpec()
	s.Scheme = OneShot
	s.Suspend, s.TSuspend, s.TResume = true, 20*us, 30*us
	d := newDie(t, s)
	a := func(p int) Addr { return Addr{Plane: 0, Block: 0, Page: p} }
	now := sim.Time(0)
	for p := range 5 {
		now = d.Program(now, []Addr{a(p)}, []uint64{uint64(p + 1)})
	}
	t0 := now
	d.Program(t0, []Addr{a(5)}, []uint64{6})
	st, failed, end := readOne(d, t0+1000*us, a(4))
	require.Equal(t, LostStamp, st)
	require.True(t, failed)
	st, failed, _ = readOne(d, end+40*us, a(1))
	require.Equal(t, uint64(2), st)
	require.False(t, failed)
}

// TestFilledWordLineIsFinal: a one-shot TLC block filled before the run to page 4 (word
// line 1 holds pages 3 and 4 of its 3) stands for pages a drive at rest had made final. A cut
// with no program running loses nothing and leaves the write pointer at 5; the pages read
// back. The run's program of page 5 completes word line 1; a cut during it loses pages 3–5
// (the running word line), as any one-shot program's.
func TestFilledWordLineIsFinal(t *testing.T) {
	s := smallSpec()
	s.Scheme = OneShot
	d := newDie(t, s)
	d.Fill(0, 0, 5, func(p int) uint64 { return uint64(p + 1) })
	require.Empty(t, d.Cut(0))
	require.Equal(t, 5, d.NextPage(0, 0))
	st, failed, end := readOne(d, 0, Addr{Page: 3})
	require.Equal(t, uint64(4), st)
	require.False(t, failed)
	require.Equal(t, int64(0), d.Stats().UnfinishedReads)
	d.Program(end, []Addr{{Page: 5}}, []uint64{6})
	lost := d.Cut(end + 1)
	require.Equal(t, []Addr{{Page: 5}}, lost, "filled pages 3, 4 are final: only the running page is lost")
}

// tinyBlockAtMSB30 returns a die of the tiny preset's geometry (2D TLC, 64-page blocks)
// whose block 0 has pages 0–29 programmed, each with stamp page+1, and page 30's program
// started at now, to end at end.
func tinyBlockAtMSB30(t *testing.T) (d *Die, now, end sim.Time) {
	s := DefaultSpec()
	s.Planes, s.BlocksPerPlane, s.PagesPerBlock = 1, 2, 64
	d = newDie(t, s)
	for p := range 30 {
		now = d.Program(now, []Addr{{Page: p}}, []uint64{uint64(p + 1)})
	}
	return d, now, d.Program(now, []Addr{{Page: 30}}, []uint64{31})
}

// TestCutDuringMSB30TinyBlock: the tiny preset's block (2D TLC, 64 pages, the shadow order
// of docs/sources.md §3.4: pages 0–5 LSB, 6–7 CSB, then pairs by ((p−8)>>1) % 3 = 0 LSB,
// 1 CSB, 2 MSB). Page 30: (30−8)>>1 = 11, 11 % 3 = 2, MSB; MSB pages 12–13, 18–19, 24–25,
// 30–31 are word lines 0–7, so page 30 is MSB word line 6. LSB word line 6 is the 7th LSB
// page: 0–5, then 8. CSB word line 6 is the 7th CSB page: 6, 7, 10, 11, 16, 17, then 22.
// A cut during page 30's program destroys pages 8, 22 and 30, and nothing else.
func TestCutDuringMSB30TinyBlock(t *testing.T) {
	d, now, _ := tinyBlockAtMSB30(t)
	require.Equal(t, []Addr{{Page: 8}, {Page: 22}, {Page: 30}}, d.Cut(now+2500*us))
	for _, p := range []int{0, 7, 9, 21, 23, 29} {
		require.Equal(t, uint64(p+1), d.Stamp(Addr{Page: p}), "page %d survives", p)
	}
	require.Equal(t, LostStamp, d.Stamp(Addr{Page: 22}))
}

// TestRunningLoss: what a cut would destroy because of the running program, without
// changing the die. On the tiny block, during MSB page 30 (word line 6): pages 8, 22, 30
// (TestCutDuringMSB30TinyBlock); after its end, nothing. One-shot TLC during word line 1's
// program (page 5): pages 3–5. Two-pass QLC during page 7 (word line 1's coarse pass and
// word line 0's fine pass): pages 0–7.
func TestRunningLoss(t *testing.T) {
	d, now, end := tinyBlockAtMSB30(t)
	require.Equal(t, []Addr{{Page: 8}, {Page: 22}, {Page: 30}}, d.RunningLoss(now+1))
	require.Equal(t, 31, d.NextPage(0, 0), "nothing changed")
	require.Empty(t, d.RunningLoss(end))

	os := smallSpec()
	os.Scheme = OneShot
	d = newDie(t, os)
	now = 0
	for p := range 6 {
		now = d.Program(now, []Addr{{Page: p}}, []uint64{uint64(p + 1)})
	}
	require.Equal(t, []Addr{{Page: 3}, {Page: 4}, {Page: 5}}, d.RunningLoss(now-1))

	d = newDie(t, qlcSpec(TwoPass))
	now = 0
	for p := range 8 {
		now = d.Program(now, []Addr{{Page: p}}, []uint64{uint64(p + 1)})
	}
	var want []Addr
	for p := range 8 {
		want = append(want, Addr{Page: p})
	}
	require.Equal(t, want, d.RunningLoss(now-1))
}
