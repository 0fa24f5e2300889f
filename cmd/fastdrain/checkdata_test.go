package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunCheckDataFlag: run --check-data reports how many pages it read back as written
// (docs/reliability.md); a 4 MiB SSD buffer sends the written data to flash within the
// 300 ms run.
func TestRunCheckDataFlag(t *testing.T) {
	out, err := run("run", "--preset", "fastdrain-small", "--variant", "fd", "--scenario", "db-s+ungzip",
		"--duration", "300ms", "--no-files", "--check-data", "--set", "firmware.buffer.pages=1024")
	require.NoError(t, err)
	require.Regexp(t, `data check: [1-9][0-9]* pages read back from the device as written\n`, out)
}
