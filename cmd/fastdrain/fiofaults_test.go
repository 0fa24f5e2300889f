package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFioIOErrorStopsItsJob: on tiny with program failures (1.2 % of programs) the drive
// runs out of spare blocks and goes read-only while job w writes 40 MiB at random: its
// next write fails with an I/O error, which stops w as fio stops a job at its first error
// (fio.json: w's error is the errno, 61, and w wrote fewer than its 10,240 blocks), while
// job r, reading, goes on to its 1,024 reads (4 MiB of 4 KiB) with no error. The text
// output's faults section names w's error and the read-only drive.
func TestFioIOErrorStopsItsJob(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "e.fio")
	require.NoError(t, os.WriteFile(jobs, []byte("[w]\nrw=randwrite\nbs=4k\ndirect=1\nsize=16m\nio_size=40m\nfilename=/dev/nvme0n1\n\n"+
		"[r]\nrw=randread\nbs=4k\ndirect=1\nsize=16m\nio_size=4m\nfilename=/dev/nvme0n1\n"), 0o644))
	args := []string{"fio", jobs, "--preset", "tiny", "--out", "", "--set", "flash.die.faults.program_fail=0.012"}
	js, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var doc fioDoc
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.Len(t, doc.Jobs, 2)
	w, r := doc.Jobs[0], doc.Jobs[1]
	require.Equal(t, 61, w.Error)
	require.Positive(t, w.Write.IOs)
	require.Less(t, w.Write.IOs, int64(10240))
	require.Zero(t, r.Error)
	require.Equal(t, int64(1024), r.Read.IOs)
	out, err := run(args...)
	require.NoError(t, err)
	require.Contains(t, out, "faults (fio)")
	require.Contains(t, out, "- job w stopped at its first I/O error, ")
	require.Contains(t, out, "as fio stops a job (errno 61): critical medium error on write of 4096 bytes")
	require.Contains(t, out, "- The drive went read-only at ")
	require.NotContains(t, out, "job r stopped")
}
