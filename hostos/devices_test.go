package hostos_test

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestUFLIPOnRawDevice runs a small uFLIP plan end to end on the tiny machine: Granularity at
// 4, 8 and 16 KiB for the four bases (SR, RR, SW, RW), 16 IOs per run, one run per point, no
// format. By hand: 4 bases × 3 sizes = 12 runs of 16 IOs = 192 synchronous IOs, each one bio
// of its point's size, 48 per base.
func TestUFLIPOnRawDevice(t *testing.T) {
	m, raw := tiny(t)
	spec := uflip.DefaultPlanSpec()
	spec.Benches = []uflip.Bench{uflip.BenchGranularity}
	spec.IOSizes = []int64{4096, 8192, 16384}
	spec.IOCount = uflip.BaseCounts{SR: 16, RR: 16, SW: 16, RW: 16}
	spec.IOIgnore = uflip.BaseCounts{}
	spec.NbRun = 1
	spec.RunPause = sim.Millisecond
	spec.Format = uflip.FormatNone
	plan, err := uflip.NewPlan(spec, raw.Capacity())
	require.NoError(t, err)
	res := &uflip.Result{}
	run(t, m, func(p *sim.Proc) {
		x := &uflip.Executor{Dev: raw, Seed: 1}
		require.NoError(t, x.RunPlan(p, plan, res))
	})
	require.Len(t, res.Runs, 12)
	require.Len(t, res.IOs, 192)
	perBase := map[uflip.Base]int{}
	for _, io := range res.IOs {
		perBase[io.Base]++
		require.Positive(t, io.Latency)
		require.Contains(t, []int64{4096, 8192, 16384}, io.Sectors*uflip.SectorSize)
		require.Equal(t, io.Base.Op(), io.Op)
	}
	require.Equal(t, map[uflip.Base]int{uflip.SR: 48, uflip.RR: 48, uflip.SW: 48, uflip.RW: 48}, perBase)
	for _, r := range res.Runs {
		require.Equal(t, int64(16), r.IOs, r.Label)
		require.Positive(t, r.Mean, r.Label)
	}
	require.Equal(t, int64(192), raw.IOs())
	st := m.Host.Queue.Stats()
	require.Equal(t, int64(192), st.Bios)
	require.Equal(t, uint64(96), st.BioLatency[blk.OpRead].Count())
	require.Equal(t, uint64(96), st.BioLatency[blk.OpWrite].Count())
}

// twoJobs is a fio job file: a random reader and a random writer side by side, 1 MiB each
// in 4 KiB blocks at iodepth 4, direct.
const twoJobs = `
global:
  bs: 4k
  iodepth: 4
  size: 1m
  direct: 1
jobs:
  - name: reader
    rw: randread
  - name: writer
    rw: randwrite
    offset: 4m
`

// TestFioOnRawDevice runs the two-job file on the tiny machine's raw device. By hand: each
// job visits every 4 KiB block of its 1 MiB region once, so 256 IOs and 1 MiB per job, each
// one bio.
func TestFioOnRawDevice(t *testing.T) {
	m, raw := tiny(t)
	jobs, err := fio.Decode(strings.NewReader(twoJobs), "two.yaml")
	require.NoError(t, err)
	var res []fio.JobResult
	run(t, m, func(p *sim.Proc) {
		res, err = fio.Run(p, raw, raw.Capacity(), jobs)
		require.NoError(t, err)
	})
	require.Len(t, res, 2)
	require.Equal(t, int64(256), res[0].Read.IOs)
	require.Equal(t, int64(1<<20), res[0].Read.Bytes)
	require.Zero(t, res[0].Write.IOs)
	require.Equal(t, int64(256), res[1].Write.IOs)
	require.Equal(t, int64(1<<20), res[1].Write.Bytes)
	require.Zero(t, res[1].Read.IOs)
	require.Equal(t, int64(512), raw.IOs())
	require.Equal(t, int64(512), m.Host.Queue.Stats().Bios)
}

// TestFioOnFile runs a buffered random writer with fsync every 16 writes on a 256 KiB file.
// By hand: 64 writes of 4 KiB, so 64 / 16 = 4 fsyncs, each a flush of the file's dirty
// pages; after the last fsync the file has no dirty page.
func TestFioOnFile(t *testing.T) {
	m, _ := tiny(t)
	jobs, err := fio.Decode(strings.NewReader("jobs:\n  - name: w\n    rw: randwrite\n    fsync: 16\n"), "w.yaml")
	require.NoError(t, err)
	var res []fio.JobResult
	var f *hostos.FileDevice
	run(t, m, func(p *sim.Proc) {
		f, err = hostos.NewFileDevice(p, m.Host, "fio.w", 256<<10, false)
		require.NoError(t, err)
		res, err = fio.Run(p, f, f.Capacity(), jobs)
		require.NoError(t, err)
	})
	require.Equal(t, int64(64), res[0].Write.IOs)
	require.Equal(t, int64(4), res[0].Flush.IOs)
	require.Zero(t, f.File().DirtyPages())
	require.Equal(t, uint64(4), m.Host.Queue.Stats().BioLatency[blk.OpFlush].Count())
}
