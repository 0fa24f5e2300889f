package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFlashbenchTimelineTruncatedAndFiltered(t *testing.T) {
	// 2 channels × 2 dies, 3,000 operations: far more than 100 intervals in the first 10 ms,
	// so the cap truncates, the file marks where and the command warns. Only the two channel
	// buses are kept (-die[ drops the four dies).
	path := filepath.Join(t.TempDir(), "tl.json.gz")
	out, err := run("flashbench", "--channels", "2", "--ways", "2", "--ops", "3000",
		"--timeline", path, "--timeline-max", "100", "--timeline-tracks", "-die[")
	require.NoError(t, err)
	require.Contains(t, out, "warning: the timeline reached --timeline-max 100 intervals at ")
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	var doc struct {
		TraceEvents []struct {
			Ph   string         `json:"ph"`
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.NewDecoder(zr).Decode(&doc))
	var xs, marks int
	tracks := map[string]bool{}
	for _, e := range doc.TraceEvents {
		switch {
		case e.Ph == "X":
			xs++
		case e.Ph == "i":
			marks++
			require.True(t, strings.HasPrefix(e.Name, "timeline truncated: "), e.Name)
		case e.Ph == "M" && e.Name == "thread_name":
			tracks[e.Args["name"].(string)] = true
		}
	}
	require.Equal(t, 100, xs)
	require.Equal(t, 1, marks)
	require.Equal(t, map[string]bool{"ch[0]": true, "ch[1]": true}, tracks)
}
