package fio

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fakeDev serves every IO in a fixed latency per op and records the most IOs outstanding.
type fakeDev struct {
	lat      [3]sim.Time
	out, max int
	n        int
	failAt   int
	ioAt     int // the ioAt-th IO fails with a device's I/O error (ioErr) after its latency
}

// ioErr is a device's I/O error as the block layer gives it: wrapped in uflip.ErrIO, with
// an errno (ENODATA, 61, for a medium error).
type ioErr struct{}

func (ioErr) Error() string { return "critical medium error on read of 4096 bytes at sector 16: bad" }
func (ioErr) Errno() int    { return 61 }

func (d *fakeDev) Do(p *sim.Proc, op uflip.Op, offset, size int64) (sim.Time, error) {
	d.n++
	if d.n == d.failAt {
		return 0, errors.New("media error")
	}
	if d.n == d.ioAt {
		p.Sleep(d.lat[op])
		return d.lat[op], fmt.Errorf("%w: %w", uflip.ErrIO, ioErr{})
	}
	d.out++
	d.max = max(d.max, d.out)
	p.Sleep(d.lat[op])
	d.out--
	return d.lat[op], nil
}

func runJobs(t *testing.T, dev uflip.Device, jobs []Job) ([]JobResult, error) {
	t.Helper()
	eng := sim.NewEngine()
	var res []JobResult
	var err error
	eng.Spawn("fio", func(p *sim.Proc) { res, err = Run(p, dev, gib, jobs) })
	eng.Run()
	return res, err
}

// TestIODepthHonoured: randread of 1 MiB in 4 KiB blocks = 256 IOs at 100 µs each. With
// iodepth 8 at most 8 are outstanding and the job ends at 256/8 × 100 µs = 3.2 ms; two
// copies (numjobs 2) keep 16 outstanding and also end at 3.2 ms.
func TestIODepthHonoured(t *testing.T) {
	us := sim.Microsecond
	for _, c := range []struct{ numjobs, want int64 }{{1, 8}, {2, 16}} {
		dev := &fakeDev{lat: [3]sim.Time{100 * us, 100 * us, 0}}
		res, err := runJobs(t, dev, []Job{job(func(j *Job) {
			j.RW, j.IODepth, j.NumJobs, j.Size = RandRead, 8, c.numjobs, 1<<20
		})})
		require.NoError(t, err)
		require.Equal(t, int(c.want), dev.max)
		require.Equal(t, 256*c.numjobs, res[0].Read.IOs)
		require.Equal(t, (1<<20)*c.numjobs, res[0].Read.Bytes)
		require.Equal(t, 3200*us, res[0].End)
		require.Equal(t, int64(100*us), res[0].Read.Lat.Max())
	}
	// Two jobs run side by side: iodepth 4 + iodepth 2 = 6 outstanding.
	dev := &fakeDev{lat: [3]sim.Time{100 * us, 100 * us, 0}}
	_, err := runJobs(t, dev, []Job{
		job(func(j *Job) { j.Name, j.IODepth, j.Size = "a", 4, 1<<20 }),
		job(func(j *Job) { j.Name, j.RW, j.IODepth, j.Size = "b", Write, 2, 1<<20 }),
	})
	require.NoError(t, err)
	require.Equal(t, 6, dev.max)
}

// TestRampExcluded: writes take 100 µs, flushes 10 µs, iodepth 1, fsync 5, ramp 0.5 ms,
// runtime 1 ms (so IOs may start until 1.5 ms). By hand: W×5 at 0–0.4 ms (ramp, not
// counted); F at 0.5; W×5 at 0.51–0.91; F at 1.01; W×5 at 1.02–1.42, the last ending at
// 1.52; the flush then due would start at 1.52 ≥ 1.5 ms, so the job stops. Counted: 10
// writes (40 KiB) and 2 flushes; end 1.52 ms.
func TestRampExcluded(t *testing.T) {
	us := sim.Microsecond
	dev := &fakeDev{lat: [3]sim.Time{0, 100 * us, 10 * us}}
	res, err := runJobs(t, dev, []Job{job(func(j *Job) {
		j.RW, j.Runtime, j.RampTime, j.Fsync = Write, sim.Millisecond, 500*us, 5
	})})
	require.NoError(t, err)
	r := res[0]
	require.Equal(t, int64(10), r.Write.IOs)
	require.Equal(t, int64(10*4096), r.Write.Bytes)
	require.Equal(t, int64(2), r.Flush.IOs)
	require.Equal(t, 1520*us, r.End)
	require.Equal(t, int64(0), r.Read.IOs)
}

// TestIOErrorStopsTheJob: two jobs, 1 µs reads at iodepth 1, side by side; the 5th IO the
// device sees (job a's third, as the jobs alternate a, b, a, b, a: it runs from 2 to 3 µs)
// fails with an I/O error. Job a stops there, as fio stops a job at its first error: its 2
// reads done before are counted, the error is recorded in words with its errno (61) and
// when it came (3 µs after the job started); job b reads its 256 (1 MiB of 4 KiB); Run
// returns no error.
func TestIOErrorStopsTheJob(t *testing.T) {
	dev := &fakeDev{lat: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}, ioAt: 5}
	res, err := runJobs(t, dev, []Job{
		job(func(j *Job) { j.Name, j.Size = "a", 1<<20 }),
		job(func(j *Job) { j.Name, j.Size = "b", 1<<20 }),
	})
	require.NoError(t, err)
	require.Equal(t, int64(2), res[0].Read.IOs)
	require.Equal(t, "critical medium error on read of 4096 bytes at sector 16: bad", res[0].Err)
	require.Equal(t, 61, res[0].Errno)
	require.Equal(t, 3*sim.Microsecond, res[0].ErrAt)
	require.Empty(t, res[1].Err)
	require.Equal(t, int64(256), res[1].Read.IOs)
	rep := Report([]Job{{Name: "a"}, {Name: "b"}}, res, "test")
	require.Equal(t, 61, rep.Jobs[0].Error, "fio's JSON error is the errno")
	require.Zero(t, rep.Jobs[1].Error)
}

func TestRunErrors(t *testing.T) {
	dev := &fakeDev{lat: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}, failAt: 3}
	_, err := runJobs(t, dev, []Job{job(func(j *Job) { j.Size = 1 << 20 })})
	require.ErrorContains(t, err, "job t: read of 4096 B at 8192: media error")
	_, err = runJobs(t, dev, []Job{job(func(j *Job) { j.IODepth = 0 })})
	require.ErrorContains(t, err, "iodepth: 0 is not in [1, 65536]")
}

func Example() {
	jobs, err := Decode(strings.NewReader(`
global:
  bs: 4k
  size: 4m
jobs:
  - name: mixed
    rw: randrw
    rwmixread: 75
    iodepth: 4
    io_size: 1m
`), "example.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	// A fake device: reads 80 µs, writes 20 µs.
	dev := &fakeDev{lat: [3]sim.Time{80 * sim.Microsecond, 20 * sim.Microsecond, 0}}
	eng := sim.NewEngine()
	eng.Spawn("fio", func(p *sim.Proc) {
		res, err := Run(p, dev, 1<<30, jobs)
		if err != nil {
			fmt.Println(err)
			return
		}
		r := res[0]
		fmt.Printf("%s: %d reads, %d writes, %d outstanding at most\n", r.Name, r.Read.IOs, r.Write.IOs, dev.max)
	})
	eng.Run()
	// Output: mixed: 192 reads, 64 writes, 4 outstanding at most
}

func BenchmarkRun(b *testing.B) {
	j := job(func(j *Job) { j.RW, j.IODepth, j.Size = RandRW, 8, 4<<20 })
	b.ReportAllocs()
	for b.Loop() {
		dev := &fakeDev{lat: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}}
		eng := sim.NewEngine()
		eng.Spawn("fio", func(p *sim.Proc) { _, _ = Run(p, dev, gib, []Job{j}) })
		eng.Run()
	}
}
