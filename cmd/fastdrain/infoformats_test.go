package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// infoOut runs a command that prints what it describes in --format format and returns standard output
// alone, which must hold only the document.
func infoOut(t *testing.T, format string, args ...string) string {
	t.Helper()
	out, _, err := runStdout(append(args, "--format", format)...)
	require.NoError(t, err, "%v", args)
	return out
}

// tableJSON is report.Table's JSON form.
type tableJSON struct {
	Title  string     `json:"title"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
}

// TestScenariosFormats: scenarios in JSON and CSV lists every built-in scenario
// (apps.Scenarios) with its applications.
func TestScenariosFormats(t *testing.T) {
	var es []struct {
		Name string   `json:"name"`
		Apps []string `json:"apps"`
	}
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "scenarios")), &es))
	want := apps.Scenarios()
	require.Len(t, es, len(want))
	require.Equal(t, want[0].Name, es[0].Name)
	require.Equal(t, want[0].Apps, es[0].Apps)
	hdr, rows := readCSV(t, infoOut(t, "csv", "scenarios"))
	require.Equal(t, []string{"scenario", "apps"}, hdr)
	require.Len(t, rows, len(want))
	require.Equal(t, "apache-u+ungzip", rows[1]["scenario"])
	require.Equal(t, "apache-u, ungzip", rows[1]["apps"])
}

// TestVersionFormats: version's JSON and CSV carry the version the text's first line gives.
func TestVersionFormats(t *testing.T) {
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "version")), &doc))
	require.Equal(t, version, doc["version"])
	require.Len(t, doc, 7)
	hdr, rows := readCSV(t, infoOut(t, "csv", "version"))
	require.Equal(t, []string{"key", "value"}, hdr)
	require.Len(t, rows, 7)
	require.Equal(t, map[string]string{"key": "version", "value": version}, rows[0])
}

// TestConfigListFormats: one row a preset (with its description) and a variant.
func TestConfigListFormats(t *testing.T) {
	hdr, rows := readCSV(t, infoOut(t, "csv", "config", "list"))
	require.Equal(t, []string{"kind", "name", "description"}, hdr)
	require.Len(t, rows, len(platforms.Presets())+len(platforms.Variants()))
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	require.Contains(t, rows, map[string]string{"kind": "preset", "name": "tiny", "description": c.Description})
	require.Equal(t, map[string]string{"kind": "variant", "name": platforms.Variants()[0], "description": ""},
		rows[len(platforms.Presets())])
	var doc tableJSON
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "config", "list")), &doc))
	require.Equal(t, hdr, doc.Header)
	require.Len(t, doc.Rows, len(rows))
}

// TestConfigDiffFormats: tiny against tiny/fd-ftl differs in the firmware's policy fields
// only; the text's lines, the CSV's rows and the JSON's rows are the same changes.
func TestConfigDiffFormats(t *testing.T) {
	text, err := run("config", "diff", "tiny", "tiny/fd-ftl")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	hdr, rows := readCSV(t, infoOut(t, "csv", "config", "diff", "tiny", "tiny/fd-ftl"))
	require.Equal(t, []string{"path", "a", "b"}, hdr)
	require.NotEmpty(t, rows)
	require.Len(t, rows, len(lines))
	for i, r := range rows {
		require.Equal(t, r["path"]+": "+r["a"]+" → "+r["b"], lines[i])
	}
	var doc tableJSON
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "config", "diff", "tiny", "tiny/fd-ftl")), &doc))
	require.Len(t, doc.Rows, len(rows))
	// No differences: a header and no rows, an empty JSON list of rows.
	hdr, rows = readCSV(t, infoOut(t, "csv", "config", "diff", "tiny", "tiny"))
	require.Equal(t, []string{"path", "a", "b"}, hdr)
	require.Empty(t, rows)
}

// TestConfigShowFormats: config show's JSON is the configuration the YAML text holds, and
// its CSV one row per scalar of it, by dotted path.
func TestConfigShowFormats(t *testing.T) {
	var fromYAML, fromJSON map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(infoOut(t, "text", "config", "show", "tiny")), &fromYAML))
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "config", "show", "tiny")), &fromJSON))
	c, err := platforms.Load(platforms.Options{Preset: "tiny"})
	require.NoError(t, err)
	require.EqualValues(t, c.Flash.Channels, fromJSON["flash"].(map[string]any)["channels"])
	require.Equal(t, fromYAML["description"], fromJSON["description"])
	require.Equal(t, len(fromYAML), len(fromJSON))
	var scalars func(v any) int
	scalars = func(v any) int {
		n := 0
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				n += scalars(e)
			}
		case []any:
			for _, e := range v {
				n += scalars(e)
			}
		default:
			n = 1
		}
		return n
	}
	hdr, rows := readCSV(t, infoOut(t, "csv", "config", "show", "tiny"))
	require.Equal(t, []string{"key", "value"}, hdr)
	require.Len(t, rows, scalars(fromYAML))
	require.Contains(t, rows, map[string]string{"key": "flash.channels", "value": "2"})
	require.Contains(t, rows, map[string]string{"key": "energy.peak_windows[0]", "value": "1ms"})
}

// TestConfigValidateFormats: validate's JSON and CSV carry the memory estimate, its parts
// summing to its totals.
func TestConfigValidateFormats(t *testing.T) {
	var doc struct {
		OK     bool `json:"ok"`
		Memory struct {
			Parts []struct {
				What       string `json:"what"`
				BuildBytes int64  `json:"build_bytes"`
				PeakBytes  int64  `json:"peak_bytes"`
			} `json:"parts"`
			BuildBytes        int64 `json:"build_bytes"`
			PeakBytes         int64 `json:"peak_bytes"`
			WriteBytesPerPage int64 `json:"write_bytes_per_page"`
		} `json:"memory"`
	}
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "config", "validate", "--preset", "tiny")), &doc))
	require.True(t, doc.OK)
	var build, peak int64
	for _, p := range doc.Memory.Parts {
		build += p.BuildBytes
		peak += p.PeakBytes
	}
	require.Equal(t, doc.Memory.BuildBytes, build)
	require.Equal(t, doc.Memory.PeakBytes, peak)
	// 8 B of stamps and 4 B of each of the two maps a 4 KiB page (TestConfigValidateMemory).
	require.EqualValues(t, 16, doc.Memory.WriteBytesPerPage)
	hdr, rows := readCSV(t, infoOut(t, "csv", "config", "validate", "--preset", "tiny"))
	require.Equal(t, []string{"what", "build_bytes", "peak_bytes"}, hdr)
	require.Len(t, rows, len(doc.Memory.Parts)+1)
	require.Equal(t, "total", rows[len(rows)-1]["what"])
	require.Equal(t, "flash dies (4 × 2 planes × 32 blocks × 64 pages)", rows[1]["what"])
}

// TestConfigImportFormats: import mqsim's JSON holds every setting and the YAML layer
// (which decodes), its CSV one row per setting; with -o the layer goes to the file and
// standard output holds only the JSON. mqsim-workload's JSON and CSV list the scenarios.
func TestConfigImportFormats(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mq.yaml")
	js := infoOut(t, "json", "config", "import", "mqsim", "../../examples/mqsim/ssdconfig.xml", "-o", out)
	var doc struct {
		Settings []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
			From  string `json:"from"`
		} `json:"settings"`
		Notes []struct {
			Element string `json:"element"`
		} `json:"notes"`
		YAML string `json:"yaml"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(b), doc.YAML)
	require.Contains(t, doc.YAML, "channels: 8 # MQSim Flash_Channel_Count = 8")
	var layer map[string]any
	require.NoError(t, yaml.Unmarshal(b, &layer))
	require.NotEmpty(t, doc.Notes)
	hdr, rows := readCSV(t, infoOut(t, "csv", "config", "import", "mqsim", "../../examples/mqsim/ssdconfig.xml"))
	require.Equal(t, []string{"key", "value", "from"}, hdr)
	require.Len(t, rows, len(doc.Settings))
	require.Contains(t, rows, map[string]string{"key": "flash.channels", "value": "8", "from": "Flash_Channel_Count = 8"})

	// The test workload (TestConfigImportMQSimWorkload): scenario 1 two synthetic flows,
	// scenario 2 a trace flow and no file.
	dir := t.TempDir()
	hdr, rows = readCSV(t, infoOut(t, "csv", "config", "import", "mqsim-workload",
		"../../platforms/mqsim/testdata/workload.xml", "--preset", "tiny", "-o", dir))
	require.Equal(t, []string{"scenario", "file", "flows", "notes"}, hdr)
	require.Len(t, rows, 2)
	require.Equal(t, filepath.Join(dir, "scenario-1.yaml"), rows[0]["file"])
	require.Equal(t, "2", rows[0]["flows"])
	require.Equal(t, map[string]string{"scenario": "2", "file": "", "flows": "0", "notes": rows[1]["notes"]}, rows[1])
	var scs []struct {
		Scenario int    `json:"scenario"`
		File     string `json:"file"`
		Flows    int    `json:"flows"`
	}
	require.NoError(t, json.Unmarshal([]byte(infoOut(t, "json", "config", "import", "mqsim-workload",
		"../../platforms/mqsim/testdata/workload.xml", "--preset", "tiny", "-o", dir)), &scs))
	require.Len(t, scs, 2)
	require.Equal(t, 2, scs[0].Flows)
}
