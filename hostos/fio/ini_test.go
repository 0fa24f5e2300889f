package fio

import (
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func decodeINIFile(t *testing.T, path string) []Job {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	jobs, err := Decode(f, path)
	require.NoError(t, err)
	for i := range jobs { // the options as written are checked apart (TestINIOptionsAsWritten)
		jobs[i].Options, jobs[i].GlobalOptions, jobs[i].KBBase = nil, nil, 0
	}
	return jobs
}

// TestINIRandRead: testdata/randread-qd32.fio resolved by hand. [global] gives libaio,
// direct, bs=4k = 4096 (fio's default kb_base=1024), iodepth 32, randread, time_based with
// runtime 2 s, filename and group_reporting; the job section adds size=1g = 2^30 and
// numjobs 2 and is named after its header. rwmixread keeps fio's default 50.
func TestINIRandRead(t *testing.T) {
	jobs := decodeINIFile(t, "testdata/randread-qd32.fio")
	require.Equal(t, []Job{{
		Name: "randread-qd32", RW: RandRead, BS: 4096, IODepth: 32, NumJobs: 2, Size: 1 << 30,
		RWMixRead: 50, Runtime: 2 * sim.Second, Direct: true, TimeBased: true, IOEngine: "libaio",
		Filename: "/dev/nvme0n1", GroupReporting: true,
	}}, jobs)
}

// TestINIMixed: testdata/mixed-randrw.fio resolved by hand.
//   - [db] sets kb_base=1000, so 16KiB = 16·1024 = 16384, 64MiB = 64·1024² = 67108864
//     and 512k = 512·1000 = 512000; rwmixwrite=30 ⇒ rwmixread = 100−30 = 70; readwrite
//     and blocksize are fio's aliases of rw and bs.
//   - [log] keeps kb_base=1024: bs=4k = 4096, io_size=4m = 4194304; io_uring is
//     asynchronous, so iodepth stays fio's default 1; startdelay 100 ms, ramp_time 10 ms.
//   - both inherit io_uring, direct, randseed 7 and percentile_list 50:99:99.9.
func TestINIMixed(t *testing.T) {
	jobs := decodeINIFile(t, "testdata/mixed-randrw.fio")
	pct := []float64{50, 99, 99.9}
	require.Equal(t, []Job{
		{Name: "db", RW: RandRW, BS: 16384, IODepth: 8, NumJobs: 1, Size: 67108864, Offset: 512000,
			RWMixRead: 70, Direct: true, RandSeed: 7, NoRandomMap: true, IOEngine: "io_uring", Percentiles: pct},
		{Name: "log", RW: Write, BS: 4096, IODepth: 1, NumJobs: 1, RWMixRead: 50, IOSize: 4194304,
			Direct: true, Fsync: 1, RampTime: 10 * sim.Millisecond, StartDelay: 100 * sim.Millisecond,
			RandSeed: 7, IOEngine: "io_uring", WriteLatLog: "log", Percentiles: pct},
	}, jobs)
}

func decodeINIString(s string) ([]Job, error) { return Decode(strings.NewReader(s), "jobs.fio") }

// TestINISemantics: fio rules worked by hand, one per case.
func TestINISemantics(t *testing.T) {
	// fio's default engine is psync, a synchronous engine: iodepth=32 has no effect (1).
	j, err := decodeINIString("[a]\niodepth=32\n")
	require.NoError(t, err)
	require.Equal(t, int64(1), j[0].IODepth)
	require.Equal(t, "psync", j[0].IOEngine)
	// Compatibility mode (kb_base=1024): KiB is 1000 bytes, so 512KiB = 512000 = 1000·512.
	j, err = decodeINIString("[a]\nbs=512KiB\n")
	require.NoError(t, err)
	require.Equal(t, int64(512000), j[0].BS)
	// A later [global] affects only the jobs after it; name= overrides the section name.
	j, err = decodeINIString("[global]\nbs=8k\n[a]\n[global]\nbs=16k\n[b]\nname=bee\n")
	require.NoError(t, err)
	require.Equal(t, int64(8192), j[0].BS)
	require.Equal(t, int64(16384), j[1].BS)
	require.Equal(t, "bee", j[1].Name)
	// A bare boolean means 1; an explicit 0 turns an inherited 1 off. Comments anywhere.
	j, err = decodeINIString("; c\n[global]\ndirect\n# c\n[a]\ndirect=0\n[b]\n  ; c\n")
	require.NoError(t, err)
	require.False(t, j[0].Direct)
	require.True(t, j[1].Direct)
	// The last of rwmixread/rwmixwrite wins.
	j, err = decodeINIString("[a]\nrw=randrw\nrwmixread=10\nrwmixwrite=25\n")
	require.NoError(t, err)
	require.Equal(t, int64(75), j[0].RWMixRead)
	// Times: a plain number is seconds.
	j, err = decodeINIString("[a]\nruntime=3\ntime_based\nramp_time=1m\n")
	require.NoError(t, err)
	require.Equal(t, 3*sim.Second, j[0].Runtime)
	require.Equal(t, 60*sim.Second, j[0].RampTime)
}

// TestINIDetection: content decides the format, whatever the file name.
func TestINIDetection(t *testing.T) {
	require.True(t, isINI([]byte("\n# comment\n; comment\n  [global]\n")))
	require.False(t, isINI([]byte("# comment\njobs:\n  - {}\n")))
	require.False(t, isINI([]byte("")))
	require.True(t, isINI([]byte("bs=4k\n[a]\n")))
	require.False(t, isINI([]byte("name: a=b\n")))
	_, err := Decode(strings.NewReader("jobs:\n  - rw: read\n"), "x.fio")
	require.NoError(t, err)
}

func TestINIErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"unknown option", "[global]\nbs=4k\n[a]\nzonemodes=zbd\n", []string{"jobs.fio:4: [a] zonemodes: unknown option"}},
		{"refused option", "[global]\nbs=4k\n[a]\nread_beyond_wp=1\nflow=2\n", []string{"jobs.fio:4: [a] read_beyond_wp: refused: reads past a write pointer are not modelled", "(also refused: flow)"}},
		{"refused engine, one line", "[global]\nioengine=http\nhttp_host=x\nfoo=1\n[a]\n", []string{"jobs.fio:2: [global] ioengine: ioengine=http: it talks over a network"}},
		{"engine option of another engine", "[a]\nhostname=x\n", []string{"jobs.fio:2: [a] hostname: refused: an option of net, netsplice, rdma, not of ioengine=psync"}},
		{"bad size", "[a]\nbs=4q\n", []string{`jobs.fio:2: [a] bs: "4q" is not a size`}},
		{"not a multiple", "[a]\n\nbs=3000\n", []string{"jobs.fio:3: [a] bs: 3000 is not a multiple of 512"}},
		{"inherited", "[global]\nbs=1000\n[a]\n", []string{"jobs.fio:2: [global] bs (inherited by [a]): 1000 is not a multiple of 512"}},
		{"bare non-bool", "[a]\niodepth\n", []string{"jobs.fio:2: [a] iodepth: needs a value"}},
		{"before section", "bs=4k\n[a]\n", []string{`jobs.fio:1: "bs=4k" comes before any [section]`}},
		{"bad header", "[a]\n[b\n", []string{`jobs.fio:2: "[b" is not a [section] header`}},
		{"time_based without runtime", "[a]\ntime_based\n", []string{"jobs.fio:2: [a] time_based: needs a runtime"}},
		{"engine", "[a]\nioengine=spdx\n", []string{`jobs.fio:2: [a] ioengine: "spdx" is not an I/O engine fio has`}},
		{"bsrange", "[a]\nbsrange=4k\n", []string{`jobs.fio:2: [a] bsrange: "4k" is not a range`}},
		{"bsrange order", "[a]\nbsrange=16k-4k\n", []string{"jobs.fio:2: [a] bsrange: maximum 4096 is below the minimum 16384"}},
		{"bssplit sum", "[a]\nbssplit=4k/60:8k/50\n", []string{"jobs.fio:2: [a] bssplit: \"4k/60:8k/50\": percentages add up to 110"}},
		{"bssplit short", "[a]\nbssplit=4k/60:8k/30\n", []string{"jobs.fio:2: [a] bssplit: percentages add up to 90, not 100"}},
		{"bs commas", "[a]\nbs=4k,8k,8k,8k\n", []string{"jobs.fio:2: [a] bs: \"4k,8k,8k,8k\" has more than three"}},
		{"percentiles", "[a]\npercentile_list=50:101\n", []string{`jobs.fio:2: [a] percentile_list: "101" is not a percentile`}},
		{"kb_base", "[global]\nkb_base=1023\n[a]\n", []string{`jobs.fio:2: [global] kb_base: "1023" is not 1024 or 1000`}},
		{"no jobs", "[global]\nbs=4k\n", []string{"jobs.fio: no job sections"}},
		{"all reported", "[a]\nrw=r\niodepth=0\ndirect=yes\n", []string{"jobs.fio:2: [a] rw:",
			"jobs.fio:3: [a] iodepth: 0 is not in", "jobs.fio:4: [a] direct:"}},
		{"log name", "[a]\nwrite_lat_log=../x\n", []string{"jobs.fio:2: [a] write_lat_log:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeINIString(c.doc)
			require.Error(t, err)
			for _, w := range c.want {
				require.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestParseSizeBase: fio's two prefix conventions, worked by hand.
func TestParseSizeBase(t *testing.T) {
	for _, c := range []struct {
		s    string
		kb   int64
		want int64
	}{
		{"4k", 1024, 4096}, {"4KB", 1024, 4096}, {"4KiB", 1024, 4000}, {"1m", 1024, 1 << 20},
		{"1MiB", 1024, 1000000}, {"4k", 1000, 4000}, {"4KiB", 1000, 4096}, {"2g", 1000, 2e9},
		{"1t", 1024, 1 << 40}, {"7", 1000, 7}, {"3p", 1024, 3 << 50},
	} {
		got, err := ParseSizeBase(c.s, c.kb)
		require.NoError(t, err, c.s)
		require.Equal(t, c.want, got, "%s with kb_base=%d", c.s, c.kb)
	}
	_, err := ParseSizeBase("9000000p", 1024)
	require.Error(t, err)
}

// TestINIRunCounts: bs=4k with io_size=4m on a 1 GiB device is 4194304/4096 = 1024 writes
// and 4194304 bytes; fsync=1 adds one flush per write, 1024 flushes.
func TestINIRunCounts(t *testing.T) {
	jobs, err := decodeINIString("[global]\nioengine=libaio\n[w]\nrw=write\nbs=4k\nio_size=4m\nfsync=1\nwrite_lat_log=w\n")
	require.NoError(t, err)
	us := sim.Microsecond
	res, err := runJobs(t, &fakeDev{lat: [3]sim.Time{0, 10 * us, 5 * us}}, jobs)
	require.NoError(t, err)
	require.Equal(t, int64(1024), res[0].Write.IOs)
	require.Equal(t, int64(4194304), res[0].Write.Bytes)
	require.Equal(t, int64(1024), res[0].Flush.IOs)
	require.Len(t, res[0].Copies[0].Log, 1024, "fio logs reads, writes and trims, not syncs")
	// The first write completes at 10 µs, then its flush at 15 µs, the second write at 25 µs.
	require.Equal(t, LatRecord{At: 10 * us, Lat: 10 * us, Op: 1, Size: 4096}, res[0].Copies[0].Log[0])
	require.Equal(t, LatRecord{At: 25 * us, Lat: 10 * us, Op: 1, Size: 4096, Offset: 4096}, res[0].Copies[0].Log[1])
	// Every write took 10 µs: standard deviation 0.
	require.InDelta(t, 0, res[0].Write.StddevNs(), 1e-6)
}

// TestNoRandomMapAndTimeBased: with norandommap 256 draws over a 256-block region repeat
// some blocks (the chance of none repeating is 256!/256^256 ≈ 0); time_based keeps a
// 64 KiB job (16 blocks of 4 KiB, 10 µs each at iodepth 1) running for runtime 1 ms:
// 1 ms / 10 µs = 100 I/Os, not 16.
func TestNoRandomMapAndTimeBased(t *testing.T) {
	us := sim.Microsecond
	g, err := NewGenerator(job(func(j *Job) { j.RW, j.Size, j.NoRandomMap = RandRead, 1<<20, true }), gib, 0)
	require.NoError(t, err)
	seen := map[int64]bool{}
	for range 256 {
		io, ok := g.Next(0)
		require.True(t, ok)
		seen[io.Offset] = true
	}
	require.Less(t, len(seen), 256)
	res, err := runJobs(t, &fakeDev{lat: [3]sim.Time{10 * us, 10 * us, 0}}, []Job{job(func(j *Job) {
		j.RW, j.Size, j.TimeBased, j.Runtime = Read, 64<<10, true, sim.Millisecond
	})})
	require.NoError(t, err)
	require.Equal(t, int64(100), res[0].Read.IOs)
}

// FuzzDecodeINI: the INI reader never panics, whatever it accepts is valid, and the
// generator of an accepted job issues IOs inside its region without panicking.
func FuzzDecodeINI(f *testing.F) {
	f.Add([]byte("[global]\nbs=4k\n[a]\nrw=randread\ntime_based\nruntime=1\n"))
	f.Add([]byte("[a]\nkb_base=1000\nbs=4KiB\n"))
	f.Add([]byte("[a\n"))
	f.Add([]byte("[a]\nzonemode=zbd\ndirect=1\nrw=randwrite\nmax_open_zones=2\nzone_reset_threshold=0.5\nzone_reset_frequency=0.1\n"))
	f.Add([]byte("[a]\nioengine=io_uring_cmd\ncmd_type=nvme\nfilename=/dev/ng0n1\nzonemode=zbd\nwrite_mode=zone_append\nwritefua=1\nrw=write\n"))
	f.Add([]byte("[a]\nrw=write\nwrite_hint=short\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := decodeINI(data, "fuzz.fio", DecodeOptions{})
		if err != nil {
			return
		}
		require.NotEmpty(t, jobs)
		for _, j := range jobs {
			require.NoError(t, j.Validate())
			g, err := NewGenerator(j, gib, 0)
			if err != nil {
				continue
			}
			for range 64 {
				io, ok := g.Next(0)
				if !ok {
					break
				}
				require.True(t, io.Offset >= 0 && io.Offset+io.Size <= gib, "%+v", io)
			}
		}
	})
}

// TestINIBlockSizes: bssplit and bsrange resolved by hand. 4k/10:64k/50:32k leaves
// 100−60 = 40 % to 32k; in 4k:8k:16k/41 the two blank entries share 59: 59/2 = 29 each, the
// last taking the remainder 1 (29, 30, 41). bs is the smallest size. A later bs clears them.
func TestINIBlockSizes(t *testing.T) {
	j, err := decodeINIString("[a]\nbssplit=64k/50:4k/10:32k\n[b]\nbssplit=4k:8k:16k/41\n[c]\nbsrange=4k-16k\n[d]\nbsrange=4k-16k\nbs=8k\n")
	require.NoError(t, err)
	require.Equal(t, []BSShare{{65536, 50}, {4096, 10}, {32768, 40}}, j[0].BSSplit)
	require.Equal(t, int64(4096), j[0].BS)
	require.Equal(t, []BSShare{{4096, 29}, {8192, 30}, {16384, 41}}, j[1].BSSplit)
	require.Equal(t, int64(4096), j[2].BS)
	require.Equal(t, int64(16384), j[2].BSRangeMax)
	require.Equal(t, int64(8192), j[3].BS)
	require.Zero(t, j[3].BSRangeMax)
}

// TestVariableSizes: bsrange=4k-16k on a 1 MiB region draws sizes 4k·k, k in 1..4, so each
// is one of 4, 8, 12, 16 KiB; random offsets are multiples of 4 KiB with offset+size ≤ 1 MiB.
// bssplit=4k/10:64k/90 over 20000 random IOs: 4 KiB has mean 2000 and standard deviation
// √(20000·0.1·0.9) ≈ 42, so 2000 ± 300 is beyond 7σ. Sequential writes with sizes
// 4k/50:8k/50 follow each other byte-exactly and io_size=1m stops at the first IO that
// reaches 1 MiB issued.
func TestVariableSizes(t *testing.T) {
	g, err := NewGenerator(job(func(j *Job) { j.RW, j.Size, j.IOSize, j.BS, j.BSRangeMax = RandRead, 1<<20, 1<<40, 4096, 16384 }), gib, 0)
	require.NoError(t, err)
	seen := map[int64]bool{}
	for range 1000 {
		io, ok := g.Next(0)
		require.True(t, ok)
		require.Contains(t, []int64{4096, 8192, 12288, 16384}, io.Size)
		require.Zero(t, io.Offset%4096)
		require.LessOrEqual(t, io.Offset+io.Size, int64(1<<20))
		seen[io.Size] = true
	}
	require.Len(t, seen, 4)

	g, err = NewGenerator(job(func(j *Job) {
		j.RW, j.Size, j.IOSize, j.BS, j.BSSplit = RandWrite, 1<<30, 1<<40, 4096, []BSShare{{4096, 10}, {65536, 90}}
	}), 2*gib, 0)
	require.NoError(t, err)
	small := 0
	for range 20000 {
		io, _ := g.Next(0)
		if io.Size == 4096 {
			small++
		}
	}
	require.InDelta(t, 2000, small, 300)

	g, err = NewGenerator(job(func(j *Job) {
		j.RW, j.Size, j.IOSize, j.BS, j.BSSplit = Write, 1<<20, 1<<20, 4096, []BSShare{{4096, 50}, {8192, 50}}
	}), gib, 0)
	require.NoError(t, err)
	var next, total int64
	for {
		io, ok := g.Next(0)
		if !ok {
			break
		}
		require.Equal(t, next, io.Offset)
		next, total = io.Offset+io.Size, total+io.Size
	}
	require.GreaterOrEqual(t, total, int64(1<<20))
	require.Less(t, total-8192, int64(1<<20))
}
