package hostos_test

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// runFio runs an INI job file on a fresh tiny machine and returns the results.
func runFio(t *testing.T, doc string, wrap func(fio.Machine) fio.Machine) ([]fio.Job, []fio.JobResult, error) {
	t.Helper()
	m, raw := tiny(t)
	jobs, err := fio.Decode(strings.NewReader(doc), "t.fio")
	require.NoError(t, err)
	fm, err := hostos.NewFioMachine(m.Host, raw, fio.NeedsDataCheck(jobs))
	require.NoError(t, err)
	var mach fio.Machine = fm
	if wrap != nil {
		mach = wrap(fm)
	}
	var res []fio.JobResult
	var runErr error
	run(t, m, func(p *sim.Proc) { res, runErr = fio.RunMachine(p, mach, jobs) })
	return jobs, res, runErr
}

// TestFioBufferedLibaioDepth: on the simulated host, a buffered libaio job at iodepth 16
// gives exactly the results of the same job at iodepth 1 (Linux completes buffered I/O
// inside io_submit), while the direct job at iodepth 16 keeps 16 reads in flight and
// finishes the same 256 reads sooner than at depth 1.
func TestFioBufferedLibaioDepth(t *testing.T) {
	job := func(direct, depth string) string {
		return "[a]\nioengine=libaio\nrw=randread\nbs=4k\nsize=1m\ndirect=" + direct + "\niodepth=" + depth + "\n"
	}
	_, b1, err := runFio(t, job("0", "1"), nil)
	require.NoError(t, err)
	_, b16, err := runFio(t, job("0", "16"), nil)
	require.NoError(t, err)
	require.Equal(t, int64(256), b1[0].Read.IOs)
	require.Equal(t, b1[0].Read.IOs, b16[0].Read.IOs)
	require.Equal(t, b1[0].End-b1[0].Start, b16[0].End-b16[0].Start, "buffered depth 16 runs as depth 1")
	require.Equal(t, b1[0].Depths, b16[0].Depths, "every submission with 1 in flight")
	_, d1, err := runFio(t, job("1", "1"), nil)
	require.NoError(t, err)
	_, d16, err := runFio(t, job("1", "16"), nil)
	require.NoError(t, err)
	require.Less(t, d16[0].End-d16[0].Start, d1[0].End-d1[0].Start)
	require.Positive(t, d16[0].Depths[4], "submissions with 16–31 in flight")
}

// TestFioFileLaidOut: a read job's file is written in full before the job runs (fio's
// layout), so its 1 MiB (256 pages) reach the SSD as 1 MiB of O_DIRECT writes, and the
// job's buffered reads then miss the (invalidated) page cache and read the SSD. A
// write-only job's file is only allocated.
func TestFioFileLaidOut(t *testing.T) {
	m, raw := tiny(t)
	fm, err := hostos.NewFioMachine(m.Host, raw, false)
	require.NoError(t, err)
	run(t, m, func(p *sim.Proc) {
		_, size, err := fm.Open(p, fio.TargetSpec{Name: "r.0.0", Size: 1 << 20, Layout: true})
		require.NoError(t, err)
		require.Equal(t, int64(1<<20), size)
		require.Equal(t, int64(1<<20), m.Host.Cache.Stats().DirectWriteBytes)
		_, _, err = fm.Open(p, fio.TargetSpec{Name: "w.0.0", Size: 1 << 20})
		require.NoError(t, err)
		require.Equal(t, int64(1<<20), m.Host.Cache.Stats().DirectWriteBytes, "not laid out")
		_, _, err = fm.Open(p, fio.TargetSpec{Name: "new"})
		require.ErrorContains(t, err, "no size given and the file does not exist")
	})
}

// TestFioVerify: write-and-verify on the namespace (basic-verify.fio's shape, 64 blocks)
// reads back every block with the data version it wrote: no failure. A read job with
// verify over blocks this run never wrote fails as fio does (bad header): EILSEQ (84).
// With a device that loses the third write's data, the verify phase finds that block.
func TestFioVerify(t *testing.T) {
	_, res, err := runFio(t, "[w]\nrw=randwrite\nbs=4k\ndirect=1\nioengine=libaio\niodepth=16\nverify=crc32c\nfilename=/dev/nvme0n1\nsize=256k\n", nil)
	require.NoError(t, err)
	require.Equal(t, int64(64), res[0].Write.IOs)
	require.Equal(t, int64(64), res[0].Read.IOs, "the verify phase reads every block back")
	require.Zero(t, res[0].Error)
	require.Zero(t, res[0].VerifyFailures)

	_, res, err = runFio(t, "[r]\nrw=read\nbs=4k\ndirect=1\nverify=md5\nfilename=/dev/nvme0n1\nsize=16k\n", nil)
	require.NoError(t, err)
	require.Equal(t, 84, res[0].Error)
	require.Equal(t, int64(4), res[0].VerifyFailures)
	require.Contains(t, res[0].VerifyErrors[0], "never wrote")

	_, res, err = runFio(t, "[w]\nrw=write\nbs=4k\ndirect=1\nverify=crc32c\nfilename=/dev/nvme0n1\nsize=64k\n",
		func(m fio.Machine) fio.Machine { return &lossyMachine{Machine: m, lose: 3} })
	require.NoError(t, err)
	require.Equal(t, int64(1), res[0].VerifyFailures)
	require.Contains(t, res[0].VerifyErrors[0], "offset 8192")
}

// lossyMachine's namespace drops the data of its lose-th write (it reaches the SSD
// without the new version): a lost write for verify to find.
type lossyMachine struct {
	fio.Machine
	lose, n int
}

func (m *lossyMachine) Open(p *sim.Proc, s fio.TargetSpec) (fio.Target, int64, error) {
	t, n, err := m.Machine.Open(p, s)
	if dt, ok := t.(fio.DataTarget); ok {
		return &lossyTarget{DataTarget: dt, m: m}, n, err
	}
	return t, n, err
}

type lossyTarget struct {
	fio.DataTarget
	m *lossyMachine
}

func (t *lossyTarget) DoData(p *sim.Proc, op uflip.Op, off, size int64, stamps []uint64) (sim.Time, error) {
	if op == uflip.OpWrite {
		t.m.n++
		if t.m.n == t.m.lose {
			return t.DataTarget.DoData(p, op, off, size, make([]uint64, len(stamps)))
		}
	}
	return t.DataTarget.DoData(p, op, off, size, stamps)
}
