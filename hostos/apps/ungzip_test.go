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
