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
	doc := readGzipTrace(t, path)
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

func TestRunTimelineFlowsFilteredAndGzipped(t *testing.T) {
	// 10 ms of apache-u+ungzip on fastdrain-tlc, gzip-compressed, without the DRAM track:
	// the commands' spans are on the controller slot tracks, their flows end on the dies
	// and channels only (a write's DRAM insert has no track to end on, so it is dropped),
	// and every flow has its start and its end with the same id.
	path := filepath.Join(t.TempDir(), "tl.json.gz")
	_, err := run("run", "--preset", "fastdrain-tlc", "--scenario", "apache-u+ungzip", "--duration", "120ms",
		"--no-files", "--timeline", path, "--timeline-window", "100ms:110ms", "--timeline-tracks=-dram")
	require.NoError(t, err)
	doc := readGzipTrace(t, path)
	type key struct{ pid, tid int }
	tracks := map[key]string{}
	starts, ends := map[int]string{}, map[int]string{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				tracks[key{e.Pid, e.Tid}] = e.Args["name"].(string)
			}
		case "s":
			starts[e.ID] = tracks[key{e.Pid, e.Tid}]
		case "f":
			ends[e.ID] = tracks[key{e.Pid, e.Tid}]
		}
	}
	require.NotEmpty(t, starts)
	require.Equal(t, len(starts), len(ends))
	for id, from := range starts {
		require.True(t, strings.HasPrefix(from, "nvme.slot["), "flow %d starts on %s", id, from)
		to, ok := ends[id]
		require.True(t, ok, "flow %d has an end", id)
		require.True(t, strings.HasPrefix(to, "ch["), "flow %d ends on %s", id, to)
	}
}

func TestRunTimelineOfTheSlotTracksOnly(t *testing.T) {
	// --timeline-tracks nvme keeps no resource (none is named with "nvme") but keeps the
	// controller's command slot tracks, ssd.nvme.slot[K]: the file has command slices on
	// them and no other thread track, and the command does not warn that the filter kept
	// nothing. apache-u+ungzip issues its first read within the first 10 µs, so 20 ms hold
	// some commands.
	path := filepath.Join(t.TempDir(), "tl.json.gz")
	out, err := run("run", "--preset", "fastdrain-tlc", "--scenario", "apache-u+ungzip", "--duration", "20ms",
		"--no-files", "--timeline", path, "--timeline-window", "0s:20ms", "--timeline-tracks", "nvme")
	require.NoError(t, err)
	require.False(t, strings.Contains(out, "kept no track"), "the filter kept the slot tracks")
	doc := readGzipTrace(t, path)
	threads, slices := 0, 0
	for _, e := range doc.TraceEvents {
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			threads++
			require.True(t, strings.HasPrefix(e.Args["name"].(string), "nvme.slot["), e.Args["name"])
		case e.Ph == "X":
			slices++
		}
	}
	require.Positive(t, threads)
	require.Positive(t, slices)
}

// gzipTrace is the part of a trace-event file the timeline tests read.
type gzipTrace struct {
	TraceEvents []struct {
		Ph   string         `json:"ph"`
		Name string         `json:"name"`
		ID   int            `json:"id"`
		Pid  int            `json:"pid"`
		Tid  int            `json:"tid"`
		Args map[string]any `json:"args"`
	} `json:"traceEvents"`
}

// readGzipTrace decodes the gzip-compressed trace-event file at path.
func readGzipTrace(t *testing.T, path string) gzipTrace {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	var doc gzipTrace
	require.NoError(t, json.NewDecoder(zr).Decode(&doc))
	return doc
}
