package fio

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fakeMachine opens a fakeDev per name and records every open.
type fakeMachine struct {
	lat   [3]sim.Time
	devs  map[string]*fakeDev
	opens []TargetSpec
	sizes map[string]int64
}

func newFakeMachine(lat [3]sim.Time) *fakeMachine {
	return &fakeMachine{lat: lat, devs: map[string]*fakeDev{}, sizes: map[string]int64{}}
}

func (m *fakeMachine) Open(_ *sim.Proc, s TargetSpec) (Target, int64, error) {
	m.opens = append(m.opens, s)
	d := m.devs[s.Name]
	if d == nil {
		d = &fakeDev{lat: m.lat}
		m.devs[s.Name] = d
	}
	if isDevice(s.Name) {
		return d, gib, nil
	}
	m.sizes[s.Name] = max(m.sizes[s.Name], s.Size)
	return d, m.sizes[s.Name], nil
}
func (m *fakeMachine) Capacity() int64                 { return gib }
func (m *fakeMachine) BlockSize() int64                { return 512 }
func (m *fakeMachine) FreeBytes() int64                { return gib }
func (m *fakeMachine) Unlink(*sim.Proc, string) error  { return nil }
func (m *fakeMachine) DataMismatches() (int64, string) { return 0, "" }

func runMachine(t *testing.T, m Machine, doc string) ([]Job, []JobResult) {
	t.Helper()
	jobs, err := decodeINIString(doc)
	require.NoError(t, err)
	eng := sim.NewEngine()
	var res []JobResult
	eng.Spawn("fio", func(p *sim.Proc) { res, err = RunMachine(p, m, jobs) })
	eng.Run()
	require.NoError(t, err)
	return jobs, res
}

// TestBufferedAsyncIsDepthOne: Linux queues only direct I/O for libaio (fio HOWTO, iodepth:
// buffered I/O "is not async on that OS"): a buffered libaio job at iodepth 16 keeps one
// I/O in flight. With every I/O taking 100 µs, io_size=1600k of 4 KiB blocks = 400 I/Os:
// buffered, 400 × 100 µs = 40 ms, at most 1 outstanding; direct, 16 in flight, 400/16 × 100
// µs = 2.5 ms. io_uring and posixaio are mapped the same; psync ignores iodepth either way.
func TestBufferedAsyncIsDepthOne(t *testing.T) {
	us := sim.Microsecond
	for _, c := range []struct {
		engine    string
		direct    int
		maxOut    int
		elapsedUs sim.Time
	}{
		{"libaio", 0, 1, 40000}, {"libaio", 1, 16, 2500}, {"io_uring", 0, 1, 40000}, {"io_uring", 1, 16, 2500},
		{"posixaio", 0, 1, 40000}, {"psync", 1, 1, 40000}, {"sync", 0, 1, 40000}, {"pvsync2", 1, 1, 40000},
	} {
		m := newFakeMachine([3]sim.Time{100 * us, 100 * us, 0})
		doc := "[a]\nrw=randread\nsize=1600k\niodepth=16\nioengine=" + c.engine + "\ndirect=" + string(rune('0'+c.direct)) + "\n"
		_, res := runMachine(t, m, doc)
		require.Equal(t, int64(400), res[0].Read.IOs, c.engine)
		require.Equal(t, c.maxOut, m.devs["a.0.0"].max, "%s direct=%d", c.engine, c.direct)
		require.Equal(t, c.elapsedUs*us, res[0].End-res[0].Start, "%s direct=%d", c.engine, c.direct)
	}
}

// TestPerJobFiles: fio makes up a file per job copy, $jobname.$jobnum.$filenum (fio HOWTO,
// filename_format), so [a] with numjobs=2 opens a.0.0 and a.1.0 and [b] opens b.0.0: no two
// jobs share a file unless filename= says so. Files a job reads are laid out before it runs
// (fio writes them first); a write-only job's are not. With nrfiles=2 and size=2m each file
// is 2m/2 = 1 MiB; directory=d1:d2 deals the directories to the copies in turn.
func TestPerJobFiles(t *testing.T) {
	m := newFakeMachine([3]sim.Time{sim.Microsecond, sim.Microsecond, 0})
	runMachine(t, m, "[global]\nsize=1m\n[a]\nrw=randread\nnumjobs=2\n[b]\nrw=write\n"+
		"[c]\nrw=read\nnrfiles=2\nsize=2m\ndirectory=d1:d2\nnumjobs=2\n[d]\nrw=read\nfilename=shared\nnumjobs=2\n")
	got := map[string]TargetSpec{}
	var names []string
	for _, s := range m.opens {
		if _, ok := got[s.Name]; !ok {
			names = append(names, s.Name)
		}
		got[s.Name] = s
	}
	require.ElementsMatch(t, []string{"a.0.0", "a.1.0", "b.0.0", "d1/c.0.0", "d1/c.0.1", "d2/c.1.0", "d2/c.1.1", "shared"}, names)
	for _, n := range names {
		want := int64(1 << 20)
		require.Equal(t, want, got[n].Size, n)
		require.Equal(t, !strings.HasPrefix(n, "b."), got[n].Layout, "%s: read jobs' files are laid out", n)
	}
	require.True(t, strings.HasPrefix(fileNames(Job{Name: "c", Directory: "d1:d2"}, 0)[0], "d1/"))
	require.True(t, strings.HasPrefix(fileNames(Job{Name: "c", Directory: "d1:d2"}, 1)[0], "d2/"))
	// A job named after a device uses the device (fio: "exists_and_not_regfile").
	require.Equal(t, []string{"/dev/sdb"}, fileNames(Job{Name: "/dev/sdb"}, 0))
	// filename takes ':'-separated names, "\:" being a colon in a name.
	require.Equal(t, []string{"/dev/a:b", "c"}, fileNames(Job{Name: "x", Filename: `/dev/a\:b:c`}, 0))
}

// TestStonewallAndWaitFor: [a] 10 reads of 100 µs = 1 ms; [b] with stonewall starts when
// [a] ends (1 ms) and takes 2 ms; [c] with wait_for=a starts at 1 ms too, alongside [b];
// [d] has neither and runs from 0. Reporting groups: a and d in 0, b (stonewall) opens 1
// and c stays in it.
func TestStonewallAndWaitFor(t *testing.T) {
	us := sim.Microsecond
	m := newFakeMachine([3]sim.Time{100 * us, 100 * us, 0})
	_, res := runMachine(t, m, "[global]\nrw=read\nsize=1m\n[a]\nio_size=40k\n[b]\nstonewall\nio_size=80k\n"+
		"[c]\nwait_for=a\nio_size=40k\n[d]\nio_size=40k\n")
	require.Equal(t, [4]sim.Time{0, 1000 * us, 1000 * us, 0}, [4]sim.Time{res[0].Start, res[1].Start, res[2].Start, res[3].Start})
	require.Equal(t, 3000*us, res[1].End)
	require.Equal(t, [4]int{0, 1, 1, 1}, [4]int{res[0].GroupID, res[1].GroupID, res[2].GroupID, res[3].GroupID})
}

// TestRateAndThinktime: rate_iops=1000 spaces reads 1 ms apart: 5 reads of 10 µs start at
// 0, 1, 2, 3, 4 ms and the job ends at 4.01 ms. thinktime=500 (µs) after each read of 10
// µs: 5 reads end at 4 × 510 + 10 = 2050 µs. rate=4k (4096 B/s) with bs=4k is one read a
// second: 2 reads end at 1 s + 10 µs.
func TestRateAndThinktime(t *testing.T) {
	us := sim.Microsecond
	for _, c := range []struct {
		opts string
		end  sim.Time
	}{
		{"rate_iops=1000\nio_size=20k\n", 4010 * us},
		{"thinktime=500\nio_size=20k\n", 2050 * us},
		{"rate=4k\nio_size=8k\n", sim.Second + 10*us},
	} {
		m := newFakeMachine([3]sim.Time{10 * us, 10 * us, 0})
		_, res := runMachine(t, m, "[a]\nrw=read\nsize=1m\n"+c.opts)
		require.Equal(t, c.end, res[0].End, c.opts)
	}
}

// TestRWSuffixes: rw=write:112k with bs=16k writes 16k every 128k (fio HOWTO: the suffix
// is added after each I/O); rw=read:-8k with bs=4k reads backwards from 8k before the
// region's end (each I/O starts 8k before the end of the last); rw=randread:4 takes a new
// random offset every 4 I/Os, the 3 after it following on.
func TestRWSuffixes(t *testing.T) {
	K := int64(1024)
	g, err := NewGenerator(job(func(j *Job) { j.RW, j.BS, j.RWSuffix, j.Size = Write, 16*K, 112*K, 1<<20 }), gib, 0)
	require.NoError(t, err)
	var offs []int64
	for _, io := range drain(t, g) {
		offs = append(offs, io.Offset)
	}
	require.Equal(t, []int64{0, 128 * K, 256 * K, 384 * K, 512 * K, 640 * K, 768 * K, 896 * K}, offs)

	g, err = NewGenerator(job(func(j *Job) { j.RW, j.BS, j.RWSuffix, j.Size, j.IOSize = Read, 4*K, -8*K, 64*K, 16*K }), gib, 0)
	require.NoError(t, err)
	offs = nil
	for _, io := range drain(t, g) {
		offs = append(offs, io.Offset)
	}
	require.Equal(t, []int64{56 * K, 52 * K, 48 * K, 44 * K}, offs)

	g, err = NewGenerator(job(func(j *Job) { j.RW, j.BS, j.RWSuffix, j.Size, j.IOSize = RandRead, 4*K, 4, 1<<20, 64*K }), gib, 0)
	require.NoError(t, err)
	ios := drain(t, g)
	require.Len(t, ios, 16)
	for i := 0; i < 16; i += 4 {
		for k := 1; k < 4; k++ {
			require.Equal(t, ios[i].Offset+int64(k)*4*K, ios[i+k].Offset, "run from %d", ios[i].Offset)
		}
	}
}

// TestTrimWriteAndPerDirection: trimwrite trims a block, then writes the same block;
// bs=4k,16k gives reads 4 KiB and writes 16 KiB in a mixed job.
func TestTrimWriteAndPerDirection(t *testing.T) {
	g, err := NewGenerator(job(func(j *Job) { j.RW, j.Size, j.IOSize = TrimWrite, 1<<20, 16<<10 }), gib, 0)
	require.NoError(t, err)
	ios := drain(t, g)
	require.Len(t, ios, 8)
	for i := 0; i < 8; i += 2 {
		require.Equal(t, [2]int64{ios[i].Offset, ios[i].Size}, [2]int64{ios[i+1].Offset, ios[i+1].Size})
		require.Equal(t, "trim", ios[i].Op.String())
		require.Equal(t, "write", ios[i+1].Op.String())
	}
	jobs, err := decodeINIString("[a]\nrw=randrw\nbs=4k,16k\nsize=1m\n")
	require.NoError(t, err)
	g, err = NewGenerator(jobs[0], gib, 0)
	require.NoError(t, err)
	for _, io := range drain(t, g) {
		want := map[string]int64{"read": 4096, "write": 16384}[io.Op.String()]
		require.Equal(t, want, io.Size)
	}
}

// TestZonedDistribution: random_distribution=zoned:50/5:30/15:20/ (rand-zones.fio) sends
// 50 % of I/Os to the first 5 % of the region, 30 % to the next 15 %, 20 % to the rest.
// Over 20,000 draws the first zone's count is binomial, mean 10,000 and standard deviation
// √(20000 · 0.5 · 0.5) ≈ 71: 10,000 ± 400 is beyond 5σ.
func TestZonedDistribution(t *testing.T) {
	jobs, err := decodeINIString("[a]\nrw=randread\nnorandommap\nsize=100m\nrandom_distribution=zoned:50/5:30/15:20/\n")
	require.NoError(t, err)
	jobs[0].IOSize = 1 << 40
	g, err := NewGenerator(jobs[0], gib, 0)
	require.NoError(t, err)
	var zone [3]int
	region := int64(100 << 20)
	for range 20000 {
		io, _ := g.Next(0)
		switch {
		case io.Offset < region*5/100:
			zone[0]++
		case io.Offset < region*20/100:
			zone[1]++
		default:
			zone[2]++
		}
	}
	require.InDelta(t, 10000, zone[0], 400)
	require.InDelta(t, 6000, zone[1], 400)
	require.InDelta(t, 4000, zone[2], 400)
}
