package calibrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestLoadUflip reads testdata/uflip-small.json (a format and three runs of a fastdrain
// uflip document on tiny): every run becomes a point with its label, repetition, measured
// mean and the parameters it ran with, the format none (preconditioning stands for it); the
// document's capacity, pause, settle and seed become the Set's.
func TestLoadUflip(t *testing.T) {
	s, err := Load([]string{"testdata/uflip-small.json"}, "")
	require.NoError(t, err)
	require.Len(t, s.Points, 3)
	require.Equal(t, int64(16<<20), s.Capacity)
	require.Equal(t, 100*sim.Millisecond, s.RunPause)
	require.Equal(t, uflip.SettlePause, s.Settle)
	require.Equal(t, uint64(1), s.Seed)
	p := s.Points[0]
	require.Equal(t, "granularity/SR/io_size=512 rep 0", p.Name)
	require.Equal(t, "uflip granularity SR", p.Pattern)
	require.InDelta(t, 137.187479125, p.Measured, 1e-9)
	require.Equal(t, uflip.Pattern{Base: uflip.SR, IOSize: 512, TargetSize: 8192, Incr: 1}, p.uflip.run.Pattern)
	require.Equal(t, int64(16), p.uflip.count)
	par := s.Points[1] // the plan's reads come before its random writes
	require.Equal(t, int64(8), par.uflip.run.ParallelDegree)
	require.Equal(t, uflip.RR, par.uflip.run.Base)
	groups := map[int]bool{}
	for _, p := range s.Points {
		groups[p.Group] = true
	}
	require.Len(t, groups, 3, "each uFLIP run is a group of its own")
}

// TestLoadUflipFill: a run's "fill" (a read-back run: its target written before it ran)
// reaches the replayed run, absent means false (documents written before the read-back
// points), and on a write run it is refused naming the run and the field.
func TestLoadUflipFill(t *testing.T) {
	b, err := os.ReadFile("testdata/uflip-small.json")
	require.NoError(t, err)
	doc := string(b)
	// The second "burst" is the SR run's (the first is the format's).
	i := strings.Index(doc, `"burst": 0`)
	j := i + 1 + strings.Index(doc[i+1:], `"burst": 0`)
	filled := doc[:j] + `"burst": 0, "fill": true` + doc[j+len(`"burst": 0`):]
	s := &Set{}
	require.NoError(t, s.add([]byte(filled), "uflip.json", ""))
	require.True(t, s.Points[0].uflip.run.Fill, s.Points[0].Name)
	require.False(t, s.Points[1].uflip.run.Fill, s.Points[1].Name)
	k := strings.LastIndex(doc, `"burst": 0`) // the RW run's
	bad := doc[:k] + `"burst": 0, "fill": true` + doc[k+len(`"burst": 0`):]
	err = (&Set{}).add([]byte(bad), "uflip.json", "")
	require.ErrorContains(t, err, "granularity/RW/io_size=32768")
	require.ErrorContains(t, err, "fill: applies only to a plain read run")
}

// TestLoadFio reads fastdrain fio's report of testdata/jobs.fio (three jobs of one group):
// one point per job direction, the group kept, each job's IO amount what it moved.
func TestLoadFio(t *testing.T) {
	s, err := Load([]string{"testdata/fio-small.json"}, "")
	require.NoError(t, err)
	require.Len(t, s.Points, 3)
	for _, p := range s.Points {
		require.Equal(t, 0, p.Group, "fio ran the three jobs side by side")
		require.True(t, p.fio.job.Direct)
	}
	require.Equal(t, "fio randread-qd1 read", s.Points[0].Name)
	require.Equal(t, "fio randread bs=4096 qd=1", s.Points[0].Pattern)
	require.Equal(t, int64(512<<10), s.Points[0].fio.job.IOSize)
	require.Equal(t, int64(8), s.Points[1].fio.job.IODepth)
	require.Equal(t, uflip.OpWrite, s.Points[2].fio.dir)
	require.Equal(t, fio.Write, s.Points[2].fio.job.RW)
	require.Equal(t, int64(4<<20), s.Points[2].fio.job.IOSize)
	require.Equal(t, int64(16<<20), s.Capacity, "the jobs' region, size=16m")
}

// TestLoadFio3x reads a report in fio 3.x's own shape (written by hand for this test: the
// global options apart, a job's options only those its job file gave, so iodepth comes from
// the job and everything else from [global] or fio's defaults); the point is the read
// direction's clat mean, 612,345.5 ns = 612.3455 µs.
func TestLoadFio3x(t *testing.T) {
	s, err := Load([]string{"testdata/fio-3.x.json"}, "")
	require.NoError(t, err)
	require.Len(t, s.Points, 1)
	p := s.Points[0]
	require.InDelta(t, 612.3455, p.Measured, 1e-9)
	j := p.fio.job
	require.Equal(t, fio.RandRead, j.RW)
	require.Equal(t, int64(4096), j.BS)
	require.Equal(t, int64(16), j.IODepth)
	require.Equal(t, int64(2<<20), j.IOSize)
	require.Equal(t, int64(16<<20), j.Size)
	require.Equal(t, "libaio", j.IOEngine)
}

// TestLoadFioReal: fio 3.33's own JSON report (testdata/fio-3.33-real.json, of
// testdata/jobs.fio run on a file on this project's build machine, docs/calibrate.md) reads
// as it is: three jobs of one group, each measured by its direction's clat_ns mean, 482,861.703125,
// 1,387,311.726563 and 2,080,567.6875 ns (the report's numbers, not lat_ns's 533,954 and so
// on, which add the submission), with the job options as jobs.fio gives them.
func TestLoadFioReal(t *testing.T) {
	s, err := Load([]string{"testdata/fio-3.33-real.json"}, "")
	require.NoError(t, err)
	require.Len(t, s.Points, 3)
	for i, want := range []struct {
		rw             fio.RW
		bs, depth, amt int64
		us             float64
	}{{fio.RandRead, 4096, 1, 512 << 10, 482.861703125}, {fio.RandRead, 4096, 8, 1 << 20, 1387.311726563},
		{fio.Write, 128 << 10, 1, 4 << 20, 2080.5676875}} {
		p := s.Points[i]
		require.InDelta(t, want.us, p.Measured, 1e-9, p.Name)
		require.Equal(t, s.Points[0].Group, p.Group, "one fio group runs side by side")
		j := p.fio.job
		require.Equal(t, want.rw, j.RW, p.Name)
		require.Equal(t, want.bs, j.BS, p.Name)
		require.Equal(t, want.depth, j.IODepth, p.Name)
		require.Equal(t, want.amt, j.IOSize, p.Name)
		require.Equal(t, int64(16<<20), j.Size, p.Name)
	}
}

// write returns a file holding text in a temporary directory.
func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// edit returns testdata file f with old replaced by new (which must be there).
func edit(t *testing.T, f, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	require.NoError(t, err)
	require.Contains(t, string(b), old)
	return strings.Replace(string(b), old, new, 1)
}

// TestLoadErrors: every bad input is refused with the file, the place and what is wrong.
func TestLoadErrors(t *testing.T) {
	u, f3 := "testdata/uflip-small.json", "testdata/fio-3.x.json"
	cases := []struct{ name, text, want string }{
		{"empty.json", "", "not a JSON document"},
		{"broken.json", "{\"format\": \n", "line 2: unexpected end of JSON input"},
		{"array.json", "[1, 2]", "not a JSON document"},
		{"other.json", `{"hello": 1}`, `neither a fastdrain uflip.json (no "format") nor a fio JSON report (no "jobs")`},
		{"v2.json", edit(t, u, `"fastdrain-uflip/1"`, `"fastdrain-uflip/2"`), `format "fastdrain-uflip/2" is not "fastdrain-uflip/1"`},
		{"old.json", edit(t, u, `"settle": "pause",`, ``), "no settle (written by fastdrain uflip since issue 36"},
		{"nomean.json", edit(t, u, `"mean_us": 137.187479125,`, ``), "runs[1] (granularity/SR/io_size=512): no mean_us"},
		{"negmean.json", edit(t, u, `"mean_us": 137.187479125`, `"mean_us": -1`), "mean_us -1 is not a positive latency"},
		{"type.json", edit(t, u, `"mean_us": 137.187479125`, `"mean_us": "fast"`), "line 60: field devices.runs.mean_us: string where a number is wanted"},
		{"base.json", edit(t, u, `"base": "SR"`, `"base": "XR"`), `pattern: base "XR" is not one of SR, RR, SW, RW`},
		{"bench.json", edit(t, u, `"bench": "granularity"`, `"bench": "speed"`), "bench:"},
		{"past.json", edit(t, u, `"target_size_bytes": 8192`, `"target_size_bytes": 33554432`), "past capacity_bytes 16777216"},
		{"badrun.json", edit(t, u, `"io_size_bytes": 512,`, `"io_size_bytes": 1000,`), "io_size"},
		{"nodev.json", edit(t, u, `"devices": [`, `"devices": [], "x": [`), "no devices"},
		{"fiojobs.json", `{"jobs": []}`, "the report has no jobs"},
		{"fioerr.json", edit(t, f3, `"error": 0`, `"error": 5`), "jobs[0] (rr4k): the job failed (error 5)"},
		{"fioopts.json", edit(t, f3, `"job options"`, `"job_options"`), `no "job options"`},
		{"fiodirect.json", edit(t, f3, `"direct": "1"`, `"direct": "0"`), "direct=0: a buffered job measures the host's page cache"},
		{"fionj.json", edit(t, f3, `"iodepth": "16"`, `"iodepth": "16", "numjobs": "2"`), "numjobs=2 without group_reporting"},
		{"fiounk.json", edit(t, f3, `"iodepth": "16"`, `"iodepth": "16", "read_beyond_wp": "1"`), "read_beyond_wp"},
		{"fiobs.json", edit(t, f3, `"bs": "4k"`, `"bs": "4000"`), "bs"},
		{"fioclat.json", edit(t, f3, `"mean": 612345.5`, `"mean": -1`), "mean latency -1 ns is not positive"},
		{"fioname.json", edit(t, f3, `"jobname": "rr4k"`, `"jobname": "a]b"`), `jobname "a]b" cannot name a job section`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, c.name, c.text)
			_, err := Load([]string{p}, "")
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.Contains(t, err.Error(), c.name, "the error names the file")
		})
	}
	_, err := Load(nil, "")
	require.ErrorContains(t, err, "no measurement files")
	_, err = Load([]string{"testdata/missing.json"}, "")
	require.ErrorContains(t, err, "testdata/missing.json")
	_, err = Load([]string{u}, "ssd")
	require.ErrorContains(t, err, `no device "ssd" (devices: tiny)`)
	two := write(t, "two.json", edit(t, u, `"devices": [`, `"devices": [{"name": "a", "simulated": true, "runs": []}, `))
	_, err = Load([]string{two}, "")
	require.ErrorContains(t, err, "2 devices (a, tiny): name the one to fit with --device")
}

// FuzzLoad: any bytes, as a uflip.json or a fio report, load or are refused; never a panic,
// and whatever loads can be replayed: every point has a positive measured latency and a
// valid run or job.
func FuzzLoad(f *testing.F) {
	for _, p := range []string{"testdata/uflip-small.json", "testdata/fio-small.json", "testdata/fio-3.x.json", "testdata/fio-3.33-real.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format": "fastdrain-uflip/1"}`))
	if b, err := os.ReadFile("testdata/uflip-small.json"); err == nil {
		f.Add([]byte(strings.ReplaceAll(string(b), `"burst": 0`, `"burst": 0, "fill": true`)))
	}
	f.Add([]byte(`{"jobs": [{"jobname": "x", "job options": {"direct": "1"}, "read": {"total_ios": 1, "io_bytes": 4096, "clat_ns": {"mean": 5, "N": 1}}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &Set{}
		if err := s.add(b, "fuzz.json", ""); err != nil {
			return
		}
		for _, p := range s.Points {
			if !(p.Measured > 0) {
				t.Fatalf("%s: measured %v", p.Name, p.Measured)
			}
			switch {
			case p.uflip != nil:
				if err := p.uflip.run.Validate(); err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
			case p.fio != nil:
				if err := p.fio.job.Validate(); err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
			default:
				t.Fatalf("%s: neither a run nor a job", p.Name)
			}
		}
	})
}
