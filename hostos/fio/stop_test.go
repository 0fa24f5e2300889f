package fio

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// cutDev serves every IO in lat, except that an IO that would complete after cutAt never
// completes: a power cut at cutAt, after which the simulated host's I/Os hang (the
// engine goes idle with them outstanding).
type cutDev struct {
	lat   sim.Time
	cutAt sim.Time
	never sim.Signal
}

func (d *cutDev) Do(p *sim.Proc, _ uflip.Op, _, _ int64) (sim.Time, error) {
	if p.Now()+d.lat > d.cutAt {
		p.Wait(&d.never)
	}
	p.Sleep(d.lat)
	return d.lat, nil
}

// TestResultsAtACut: a randread job at iodepth 4 of 100 µs reads, the device cut at
// 1.05 ms. By hand: the reads go in batches of 4 ending at 100, 200, …, 1000 µs: 10
// batches, 40 reads, completed; the 11th batch, submitted at 1000 µs, would end at 1100 µs,
// after the cut, and never completes. The run never finishes; its results as of the cut are
// the 40 reads ending at 1 ms, with 4 IOs in flight.
func TestResultsAtACut(t *testing.T) {
	us := sim.Microsecond
	dev := &cutDev{lat: 100 * us, cutAt: 1050 * us}
	eng := sim.NewEngine()
	x, err := Start(eng, dev, gib, []Job{job(func(j *Job) { j.RW, j.IODepth, j.Size = RandRead, 4, 1<<20 })})
	require.NoError(t, err)
	eng.Run()
	require.False(t, x.Finished())
	require.True(t, x.Started())
	require.Equal(t, 4, x.InFlight())
	res := x.Results()
	require.Equal(t, int64(40), res[0].Read.IOs)
	require.Equal(t, 1000*us, res[0].End)
	require.Len(t, res[0].Copies, 1)
}

// hangMachine is a machine whose files never finish opening (a cut while a file is laid
// out): Open blocks for good.
type hangMachine struct {
	fakeMachine
	never sim.Signal
}

func (m *hangMachine) Open(p *sim.Proc, _ TargetSpec) (Target, int64, error) {
	p.Wait(&m.never)
	return nil, 0, nil
}

// TestCutBeforeTheJobsStarted: a cut while the job's file is laid out (Open never returns)
// leaves a run that has not started: no IOs, none in flight, Started false, so a command
// says that no job had started.
func TestCutBeforeTheJobsStarted(t *testing.T) {
	jobs, err := decodeINIString("[a]\nrw=read\nsize=1m\n")
	require.NoError(t, err)
	eng := sim.NewEngine()
	x, err := StartMachine(eng, &hangMachine{}, jobs)
	require.NoError(t, err)
	eng.Run()
	require.False(t, x.Finished())
	require.False(t, x.Started())
	require.Zero(t, x.InFlight())
	res := x.Results()
	require.Zero(t, res[0].Read.IOs)
	require.Zero(t, res[0].End-res[0].Start)
}

// TestExitAllOnError: as TestIOErrorStopsTheJob (the 5th IO, job a's third, fails at
// 3 µs), but job a has exitall_on_error: when a ends in error, fio ends the other jobs of
// its group (backend.c: fio_terminate_threads under exitall_error when td->error). At
// 3 µs a's failed read returns first (it was submitted first), then b's third read
// completes and b submits its fourth; then a's job ends and stops b, whose fourth read
// completes at 4 µs: b reads 4, not 256 (TestIOErrorStopsTheJob, without the option), and
// has no error of its own.
func TestExitAllOnError(t *testing.T) {
	dev := &fakeDev{lat: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}, ioAt: 5}
	res, err := runJobs(t, dev, []Job{
		job(func(j *Job) { j.Name, j.Size, j.ExitAllOnError = "a", 1<<20, true }),
		job(func(j *Job) { j.Name, j.Size = "b", 1<<20 }),
	})
	require.NoError(t, err)
	require.Equal(t, int64(2), res[0].Read.IOs)
	require.Equal(t, 61, res[0].Error)
	require.Equal(t, int64(4), res[1].Read.IOs)
	require.Equal(t, 4*sim.Microsecond, res[1].End)
	require.Zero(t, res[1].Error)
}

// dataDev is a fakeDev that carries data versions and returns none (every page reads as
// never written): each verified read fails verification.
type dataDev struct{ fakeDev }

func (d *dataDev) DoData(p *sim.Proc, op uflip.Op, off, size int64, _ []uint64) (sim.Time, error) {
	return d.Do(p, op, off, size)
}

// TestIOErrorAfterVerifyFailures: a read job with verify checks what it reads; on this
// device every page reads as never written, so its first two reads fail verification (the
// job goes on: verify_fatal=0) and set its error to 84 (EILSEQ); the third read fails with
// an I/O error (ENODATA, 61) at 3 µs, which stops the job. fio keeps a job's first error
// (td_verror), so the JSON's error stays 84, while the I/O error is kept with its errno.
func TestIOErrorAfterVerifyFailures(t *testing.T) {
	dev := &dataDev{fakeDev{lat: [3]sim.Time{sim.Microsecond, sim.Microsecond, 0}, ioAt: 3}}
	jobs := []Job{job(func(j *Job) { j.Name, j.Size, j.Verify = "a", 1<<20, "crc32c" })}
	res, err := runJobs(t, dev, jobs)
	require.NoError(t, err)
	r := res[0]
	require.Equal(t, int64(2), r.Read.IOs)
	require.Equal(t, int64(2), r.VerifyFailures)
	require.Equal(t, eilseq, r.Error)
	require.Equal(t, 61, r.Errno)
	require.Equal(t, 3*sim.Microsecond, r.ErrAt)
	require.Equal(t, eilseq, Report(jobs, res, "test").Jobs[0].Error)
}
