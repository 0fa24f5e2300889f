package fiorun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/stretchr/testify/require"
)

// TestRunSequentialWrite runs one job writing 1 MiB in 4 KiB blocks on the raw device of
// the tiny preset: 1 MiB / 4 KiB = 256 write IOs and 1,048,576 bytes, no reads; the CSV
// row of the job says the same, and the SSD's statistics come with the result.
func TestRunSequentialWrite(t *testing.T) {
	m, jobs := openJob(t, platforms.Options{Preset: "tiny"}, "[w]\nioengine=libaio\ndirect=1\nrw=write\nbs=4k\nsize=1m\nfilename=/dev/nvme0n1\n")
	r, err := Run(m, jobs, Options{})
	require.NoError(t, err)
	require.Len(t, r.Results, 1)
	require.Equal(t, int64(256), r.Results[0].Write.IOs)
	require.Equal(t, int64(1<<20), r.Results[0].Write.Bytes)
	require.Zero(t, r.Results[0].Read.IOs)
	require.Equal(t, int64(256), r.IOs())
	var b strings.Builder
	require.NoError(t, r.CSV().WriteCSV(&b))
	require.Contains(t, b.String(), "\nw,write,256,1048576,")
	require.NotNil(t, r.SSD.Stats)
	require.Nil(t, r.SSD.PowerLoss)
	require.False(t, r.CutBeforeJobs)
}

// openJob builds the machine of o (closed when the test ends) and decodes the fio job file
// text against its host, as the fio command does.
func openJob(t *testing.T, o platforms.Options, text string) (*runner.Machine, []fio.Job) {
	t.Helper()
	job := filepath.Join(t.TempDir(), "job.fio")
	require.NoError(t, os.WriteFile(job, []byte(text), 0o644))
	c, err := platforms.Load(o)
	require.NoError(t, err)
	m, err := runner.Open(c)
	require.NoError(t, err)
	t.Cleanup(m.Close)
	jobs, err := DecodeFile(job, m.Host.Cache.Spec())
	require.NoError(t, err)
	return m, jobs
}
