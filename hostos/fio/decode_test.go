package fio

import (
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestDecodeFile: testdata/mixed.yaml resolved by hand: fio defaults (rw read, bs 4k,
// iodepth 1, numjobs 1, rwmixread 50), then global, then each job.
func TestDecodeFile(t *testing.T) {
	f, err := os.Open("testdata/mixed.yaml")
	require.NoError(t, err)
	defer f.Close()
	jobs, err := Decode(f, "mixed.yaml")
	require.NoError(t, err)
	for i := range jobs { // direct YAML jobs without a filename work on the namespace
		require.Equal(t, "/dev/nvme0n1", jobs[i].Filename)
		require.NotEmpty(t, jobs[i].Options)
		jobs[i].Filename, jobs[i].Options = "", nil
	}
	require.Equal(t, []Job{
		{Name: "db", RW: RandRW, BS: 16384, IODepth: 8, NumJobs: 1, Size: 1 << 30, Offset: 1 << 20,
			RWMixRead: 70, Runtime: 2 * sim.Second, Direct: true, RandSeed: 42},
		{Name: "log", RW: Write, BS: 4096, IODepth: 1, NumJobs: 2, RWMixRead: 50, Runtime: 2 * sim.Second,
			IOSize: 64 << 20, Direct: true, Fsync: 1, RampTime: 500 * sim.Millisecond, RandSeed: 42},
	}, jobs)
}

func decodeString(s string) ([]Job, error) { return Decode(strings.NewReader(s), "jobs.yaml") }

func TestDecodeDefaultsAndNames(t *testing.T) {
	jobs, err := decodeString("jobs:\n  - {}\n  - rw: randread\n")
	require.NoError(t, err)
	require.Equal(t, "fio.data", jobs[0].Filename, "buffered YAML jobs share one file")
	jobs[0].Filename, jobs[0].Options = "", nil
	require.Equal(t, Job{Name: "job0", RW: Read, BS: 4096, IODepth: 1, NumJobs: 1, RWMixRead: 50}, jobs[0])
	require.Equal(t, "job1", jobs[1].Name)
	require.Equal(t, RandRead, jobs[1].RW)
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"unknown key in a job", "jobs:\n  - name: a\n    rw: read\n    zonemode: zbd\n",
			[]string{`jobs.yaml:4: unknown key "zonemode"`}},
		{"unknown key in global", "global:\n  stonewall: 1\njobs:\n  - {}\n",
			[]string{`jobs.yaml:2: unknown key "stonewall"`}},
		{"shared key, bad value", "jobs:\n  - ioengine: spdx\n", []string{`jobs.yaml:2: jobs[0].ioengine: "spdx" is not an I/O engine fio has`}},
		{"shared key, refused engine", "jobs:\n  - ioengine: spdk\n", []string{`jobs.yaml:2: jobs[0].ioengine: ioengine=spdk: SPDK's user-space NVMe driver`}},
		{"unknown top-level key", "job:\n  - {}\n", []string{`jobs.yaml:1: unknown key "job"`}},
		{"bs not a multiple", "jobs:\n  - rw: read\n  - rw: write\n    bs: 3000\n",
			[]string{"jobs.yaml:4: jobs[1].bs: 3000 is not a multiple of 512"}},
		{"inherited", "global:\n  bs: 1000\njobs:\n  - rw: read\n",
			[]string{"jobs.yaml:2: jobs[0].bs (inherited from global): 1000 is not a multiple of 512"}},
		{"bad values, all reported", "global:\n  runtime: 5x\njobs:\n  - rw: trimm\n    bs: 4q\n    rwmixread: 120\n    iodepth: 0\n    direct: yes\n",
			[]string{"jobs.yaml:2: global.runtime:", "jobs.yaml:4: jobs[0].rw:", "jobs.yaml:5: jobs[0].bs:",
				"jobs.yaml:6: jobs[0].rwmixread: 120 is not a percentage", "jobs.yaml:7: jobs[0].iodepth: 0 is not in [1, 65536]",
				"jobs.yaml:8: jobs[0].direct:"}},
		{"list value", "jobs:\n  - bs: [4k, 8k]\n", []string{"jobs.yaml:2: jobs[0].bs: want a single value, not a list"}},
		{"duplicate key", "jobs:\n  - bs: 4k\n    bs: 8k\n", []string{`jobs.yaml:3: mapping key "bs" already defined at line 2`}},
		{"global name", "global:\n  name: x\njobs:\n  - {}\n", []string{"jobs.yaml:2: global.name"}},
		{"no jobs", "global:\n  bs: 4k\n", []string{"no jobs"}},
		{"empty", "", []string{"empty job file"}},
		{"size below bs", "jobs:\n  - bs: 8k\n    size: 4k\n", []string{"jobs.yaml:3: jobs[0].size: 4096 is smaller than bs 8192"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeString(c.doc)
			require.Error(t, err)
			for _, w := range c.want {
				require.Contains(t, err.Error(), w)
			}
		})
	}
}

// FuzzDecode: the decoder never panics, and whatever it accepts is valid.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("jobs:\n  - rw: randrw\n    bs: 4k\n"))
	f.Add([]byte("global:\n  bs: 1m\njobs:\n  - {}\n"))
	f.Add([]byte("jobs: [[]]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := Decode(strings.NewReader(string(data)), "fuzz.yaml")
		if err != nil {
			return
		}
		require.NotEmpty(t, jobs)
		for _, j := range jobs {
			require.NoError(t, j.Validate())
		}
	})
}

// TestDecodeSharedKeys: the INI reader's options in YAML, with YAML's size convention
// (KiB = 1024): blocksize 8k = 8192; bssplit 4k/50:8KiB/50 = 4096 and 8192 at 50 % each,
// bs the smallest (4096); psync is synchronous, so iodepth 8 becomes 1; rwmixwrite 20 ⇒
// rwmixread 80.
func TestDecodeSharedKeys(t *testing.T) {
	jobs, err := decodeString("global:\n  ioengine: psync\n  time_based: true\n  runtime: 1\njobs:\n" +
		"  - blocksize: 8k\n    iodepth: 8\n    readwrite: randrw\n    rwmixwrite: 20\n" +
		"  - bssplit: 4k/50:8KiB/50\n    group_reporting: 1\n    percentile_list: 50:99\n")
	require.NoError(t, err)
	require.Equal(t, int64(8192), jobs[0].BS)
	require.Equal(t, int64(1), jobs[0].IODepth)
	require.Equal(t, RandRW, jobs[0].RW)
	require.Equal(t, int64(80), jobs[0].RWMixRead)
	require.True(t, jobs[0].TimeBased)
	require.Equal(t, []BSShare{{4096, 50}, {8192, 50}}, jobs[1].BSSplit)
	require.Equal(t, int64(4096), jobs[1].BS)
	require.True(t, jobs[1].GroupReporting)
	require.Equal(t, []float64{50, 99}, jobs[1].Percentiles)
}
