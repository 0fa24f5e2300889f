package apps

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestUngzipOutputRate checks the CPU-bound rate: a 32 KiB chunk at 160 MB/s takes
// 32768 / 160e6 s = 204.8 µs; with instant I/O, chunks start at k·204.8 µs, so in 10 ms
// chunks 0…48 run (48·204.8 = 9830.4 µs < 10 ms ≤ 49·204.8): 49 writes of 32 KiB.
// The input needed for 49 chunks is ⌈49·32768·0.32⌉ = 513 803 B: 16 reads of 32 KiB.
func TestUngzipOutputRate(t *testing.T) {
	o := newFakeOS()
	r := runOne(t, o, DefaultSpec(), 10*sim.Millisecond, Ungzip)
	res := r.Result(Ungzip)
	require.EqualValues(t, 49, res.Requests)
	require.EqualValues(t, 49*32768, res.Bytes)
	require.EqualValues(t, 49, o.count[kWrite])
	require.EqualValues(t, 49*32768, o.bytes[kWrite])
	require.EqualValues(t, 16, o.count[kRead])
	require.EqualValues(t, 16*32768, o.bytes[kRead])
	require.EqualValues(t, 49*204800*sim.Nanosecond, o.cpu)
	require.Zero(t, o.count[kFsync], "gzip never fsyncs")
	require.Zero(t, o.count[kReadDirect]+o.count[kWriteDirect])
	// Set-up made the input (32 % of 1 GiB); the run made one output.
	creates := o.ops(kCreate)
	require.Len(t, creates, 2)
	require.Equal(t, "ungzip/input.gz", creates[0].file)
	require.EqualValues(t, int64(GiB)*32/100, creates[0].n)
	require.Equal(t, "ungzip/out0", creates[1].file)
	// Writes are sequential in the output.
	for i, w := range o.ops(kWrite) {
		require.EqualValues(t, int64(i)*32768, w.off)
	}
}

// TestUngzipFilesAndKeep checks whole archives: 100 KiB outputs are written as
// 32+32+32+4 KiB, each from a 32 768 B input (32 % of 102 400) read once; with Files 3 and
// Keep 1 the first two outputs are unlinked once a newer one is complete.
func TestUngzipFilesAndKeep(t *testing.T) {
	o := newFakeOS()
	o.lat[kWrite] = 3 * sim.Microsecond // throttling shows as write latency
	spec := DefaultSpec()
	spec.Ungzip.FileSize = 100 * KiB
	spec.Ungzip.Files = 3
	spec.Ungzip.Keep = 1
	r := runOne(t, o, spec, sim.Second, Ungzip)
	res := r.Result(Ungzip)
	require.EqualValues(t, 12, res.Requests)
	require.EqualValues(t, 3*100*1024, res.Bytes)
	require.EqualValues(t, 3*sim.Microsecond, res.Latency.Max(), "latency is the write() call")
	var sizes []int64
	for _, w := range o.ops(kWrite) {
		sizes = append(sizes, w.n)
	}
	k := int64(1024)
	require.Equal(t, []int64{32 * k, 32 * k, 32 * k, 4 * k, 32 * k, 32 * k, 32 * k, 4 * k, 32 * k, 32 * k, 32 * k, 4 * k}, sizes)
	require.EqualValues(t, 3, o.count[kRead])
	require.EqualValues(t, 3*32768, o.bytes[kRead])
	unl := o.ops(kUnlink)
	require.Len(t, unl, 2)
	require.Equal(t, "ungzip/out0", unl[0].file)
	require.Equal(t, "ungzip/out1", unl[1].file)
	_, ok := o.Open("ungzip/out2")
	require.True(t, ok)
	// 12 chunks of CPU (three of 3 × 204.8 µs + 25.6 µs) and writes: done long before 1 s.
	require.Less(t, r.Ended(), 10*sim.Millisecond)
}

// openLoop returns the default spec with Ungzip open loop at 81.92 MB/s: one 32 KiB chunk
// per 32768 / 81.92e6 s = 400 µs, twice the 204.8 µs of CPU a chunk takes at 160 MB/s.
func openLoop() Spec {
	s := DefaultSpec()
	s.Ungzip.OpenLoopRate = 81_920_000
	return s
}

// TestUngzipOpenLoopSchedule: open loop, chunk k is written at (k+1)·400 µs whatever the
// write()s take while they fit in the slot (100 µs here): the loop starts chunk k at
// k·400 µs, so in 10 ms it starts chunks 0…24 (24·400 = 9600 µs < 10 ms = 25·400), the
// last written at 10 ms: 25 writes, 25 × 204.8 µs = 5120 µs of CPU, 100 µs each. The input
// is in memory: no reads, and set-up creates nothing (the only file is out0).
func TestUngzipOpenLoopSchedule(t *testing.T) {
	o := newFakeOS()
	o.lat[kWrite] = 100 * sim.Microsecond
	r := runOne(t, o, openLoop(), 10*sim.Millisecond, Ungzip)
	res := r.Result(Ungzip)
	require.EqualValues(t, 25, res.Requests)
	require.EqualValues(t, 25*32768, res.Bytes)
	require.Zero(t, o.count[kRead], "the open-loop input is in memory")
	require.EqualValues(t, 25*204800*sim.Nanosecond, o.cpu)
	creates := o.ops(kCreate)
	require.Len(t, creates, 1)
	require.Equal(t, "ungzip/out0", creates[0].file)
	for k, w := range o.ops(kWrite) {
		require.Equal(t, r.Began()+sim.Time(k+1)*400*sim.Microsecond, w.start, "write %d", k)
	}
	require.EqualValues(t, 100*sim.Microsecond, res.Latency.Max())
}

// TestUngzipOpenLoopCatchUp: instant writes but the third (chunk 2, due at 1200 µs) takes
// 1 ms. It returns at 2200 µs; chunks 3…7 are then late (due 1600 … 3200 µs) and written as
// soon as their 204.8 µs of CPU is done: at 2404.8, 2609.6, 2814.4, 3019.2 and 3224.0 µs.
// Chunk 8 is computed by 3428.8 µs, before its due time of 3600 µs, and waits for it: the
// schedule is back, and 10 ms still give 25 chunks. The closed loop (no pacing) would
// instead write a chunk every 204.8 µs plus its reads.
func TestUngzipOpenLoopCatchUp(t *testing.T) {
	o := newFakeOS()
	o.slowOn, o.slowAt, o.slowLat = kWrite, 3, sim.Millisecond
	r := runOne(t, o, openLoop(), 10*sim.Millisecond, Ungzip)
	us := func(x float64) sim.Time { return r.Began() + sim.Time(x*1e6) }
	want := []sim.Time{us(400), us(800), us(1200), us(2404.8), us(2609.6), us(2814.4), us(3019.2), us(3224), us(3600), us(4000)}
	var got []sim.Time
	for _, w := range o.ops(kWrite)[:len(want)] {
		got = append(got, w.start)
	}
	require.Equal(t, want, got)
	require.EqualValues(t, 25, r.Result(Ungzip).Requests)
	require.EqualValues(t, sim.Millisecond, r.Result(Ungzip).Latency.Max())
}
