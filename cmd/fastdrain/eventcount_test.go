package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFioCountEvents: --count-events adds the event table, and events.csv under --out. The
// counts that the protocol fixes, by hand for testdata/jobs.yaml (TestFioCSV's counts:
// 1434 reads and 614 writes of db, 1024 writes and 64 flushes of log, 3136 host I/Os):
// each read or write is one NVMe command, and so is each flush when the device has a
// volatile write cache; without one the block layer completes an empty flush at once
// (blk_insert_flush, policy 0: an instantDone event). So the controller posts one
// completion entry (cqe-post) per command and the firmware starts one task (start) per
// command, and cqe-post + instantDone = 3136. Each read's one 4 KiB page is sensed once
// (array-done 1434). Without the flag the run prints no table and writes no events.csv.
func TestFioCountEvents(t *testing.T) {
	dir := t.TempDir()
	_, status, err := runStdout("fio", "--format", "csv", "--count-events", "--out", dir, "testdata/jobs.yaml")
	require.NoError(t, err)
	require.Contains(t, status, "events and processor bookings per host I/O (3136 I/Os)")
	_, rows := readCSV(t, mustRead(t, filepath.Join(dir, "fio", "events.csv")))
	count := func(handler, kind string) int {
		for _, r := range rows {
			if r["handler"] == handler && r["kind"] == kind {
				n, err := strconv.Atoi(r["count"])
				require.NoError(t, err)
				return n
			}
		}
		return 0
	}
	cmds := count("nvmectrl.Controller", "cqe-post")
	require.Equal(t, 3136, cmds+count("hostos/blk.instantDone", ""))
	require.GreaterOrEqual(t, cmds, 3072)
	require.Equal(t, cmds, count("firmware.worker", "start"))
	require.Equal(t, 1434, count("channel.Channel", "array-done"))

	dir2 := t.TempDir()
	_, status, err = runStdout("fio", "--format", "csv", "--out", dir2, "testdata/jobs.yaml")
	require.NoError(t, err)
	require.NotContains(t, status, "events and processor bookings")
	require.NoFileExists(t, filepath.Join(dir2, "fio", "events.csv"))
}

// mustRead returns the file's contents.
func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
