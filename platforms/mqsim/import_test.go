package mqsim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// importFile imports path and writes the layer to a temporary file, returned.
func importFile(t *testing.T, path string, edit func(string) string) (string, *Result) {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(b)
	if edit != nil {
		text = edit(text)
	}
	r, err := Import(strings.NewReader(text), filepath.Base(path))
	require.NoError(t, err)
	y, err := r.YAML(filepath.Base(path))
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "imported.yaml")
	require.NoError(t, os.WriteFile(out, y, 0o644))
	return out, r
}

// field reads a dotted key of a configuration through its YAML form (the names users see).
func field(t *testing.T, c platforms.Config, key string) string {
	b, err := yaml.Marshal(c)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, yaml.Unmarshal(b, &m))
	var v any = m
	for _, k := range strings.Split(key, ".") {
		mm, ok := v.(map[string]any)
		require.True(t, ok, key)
		v = mm[k]
	}
	out, err := yaml.Marshal(v)
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

func TestImportMQSimDefault(t *testing.T) {
	layer, r := importFile(t, "../../examples/mqsim/ssdconfig.xml", nil)
	c, err := platforms.Decode(platforms.Source{Name: "preset", Data: mustPreset(t, "fastdrain-tlc")}, platforms.Source{Name: layer, Data: mustRead(t, layer)})
	require.NoError(t, err)
	// Each value worked from the file by hand:
	for key, want := range map[string]string{
		"flash.channels":                 "8",   // Flash_Channel_Count
		"flash.ways":                     "4",   // Chip_No_Per_Channel
		"flash.dies_per_package":         "2",   // Die_No_Per_Chip
		"flash.die.planes":               "2",   // Plane_No_Per_Die
		"flash.die.cell":                 "mlc", // Flash_Technology
		"flash.die.t_read.lsb":           "75us",
		"flash.die.t_prog.msb":           "750us", // 750000 ns
		"flash.die.t_erase":              "3.8ms", // 3800000 ns
		"flash.onfi.mode":                "6",     // NV-DDR2 at 333 MT/s is timing mode 6 (docs/sources.md §3.1)
		"flash.die.page_size":            "8192",  // Page_Capacity
		"firmware.buffer.pages":          "65536", // 268435456 B / 4096 B
		"firmware.ftl.gc_threshold":      "103",   // ⌈0.05 × 2048⌉ = ⌈102.4⌉
		"firmware.ftl.gc_reserve":        "11",    // ⌈0.005 × 2048⌉ = ⌈10.24⌉
		"firmware.ftl.over_provisioning": "0.07",
		"dram.t_ck":                      "20ns", // DDR at 100 MT/s: two transfers per 20 ns clock
		"dram.t_rcd":                     "13ns",
		"seed":                           "321",
		"pcie.lanes":                     "4",
		"pcie.gen":                       "3", // 0.1 GB/s per lane matches no generation: the preset's is kept
	} {
		require.Equal(t, want, field(t, c, key), key)
	}
	// Every element of the file is accounted for: set, or noted with a reason.
	accounted := map[string]bool{}
	for _, s := range r.Settings {
		accounted[strings.SplitN(s.From, " ", 2)[0]] = true
	}
	for _, n := range r.Notes {
		accounted[n.Element] = true
		require.NotEmpty(t, n.Why, n.Element)
	}
	for _, e := range []string{"Memory_Type", "HostInterface_Type", "Address_Mapping"} {
		accounted[e] = true // checked and valued as fastdrain is (FLASH, NVME, PAGE_LEVEL): nothing to set
	}
	raw := string(mustRead(t, "../../examples/mqsim/ssdconfig.xml"))
	n := 0
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "<") || strings.HasPrefix(line, "</") || strings.HasPrefix(line, "<?") || strings.HasPrefix(line, "<!") || !strings.Contains(line, "</") {
			continue
		}
		name := line[1:strings.Index(line, ">")]
		require.True(t, accounted[name], "element %s is neither set nor noted", name)
		n++
	}
	require.Equal(t, 59, n, "leaf elements in MQSim's default file: 4 host, 37 device, 18 flash")

	// 8 KiB pages: two 4 KiB mapping units a page (sub-page mapping), whole-system runs
	// validate; the flash array runs.
	_, err = platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Files: []string{layer}})
	require.NoError(t, err)
	fb := flashbench.DefaultConfig()
	fb.Channels, fb.Channel, fb.Ops = c.Flash.Channels, c.Flash.ChannelSpec(), 2000
	res, err := flashbench.Run(fb)
	require.NoError(t, err)
	require.Positive(t, res.IOPS())
}

func TestImportedDriveRunsWholeSystem(t *testing.T) {
	// The default file with 4 KiB pages and Gen3-rate lanes (0.985 GB/s ≈ 8 GT/s × 128/130
	// / 8): it validates as a whole machine and runs a short Apache-U on fastdrain-tlc's host.
	layer, _ := importFile(t, "../../examples/mqsim/ssdconfig.xml", func(s string) string {
		s = strings.Replace(s, "<Page_Capacity>8192<", "<Page_Capacity>4096<", 1)
		s = strings.Replace(s, "<Block_No_Per_Plane>2048<", "<Block_No_Per_Plane>256<", 1)
		return strings.Replace(s, "<PCIe_Lane_Bandwidth>0.100000<", "<PCIe_Lane_Bandwidth>0.985<", 1)
	})
	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Files: []string{layer}})
	require.NoError(t, err)
	require.Equal(t, "3", field(t, c, "pcie.gen"))
	require.Equal(t, "13", field(t, c, "firmware.ftl.gc_threshold")) // ⌈0.05 × 256⌉ = ⌈12.8⌉
	sc, err := apps.LookupScenario("apache-u")
	require.NoError(t, err)
	sc.Duration = 20 * sim.Millisecond
	res, err := runner.Run(runner.Options{Config: c, Workload: runner.Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	require.Positive(t, res.App("apache-u").Requests)
}

func TestImportErrors(t *testing.T) {
	good := string(mustRead(t, "../../examples/mqsim/ssdconfig.xml"))
	// The error names the line of the bad element, counted here in the file's text.
	line := 1 + strings.Count(good[:strings.Index(good, "<Flash_Channel_Count>")], "\n")
	for _, tc := range []struct{ name, from, to, err string }{
		{"not a number", "<Flash_Channel_Count>8<", "<Flash_Channel_Count>eight<", fmt.Sprintf(`x.xml:%d: Flash_Channel_Count "eight": not an integer`, line)},
		{"out of range", "<Flash_Channel_Count>8<", "<Flash_Channel_Count>0<", "Flash_Channel_Count \"0\": must be in 1 … 1024"},
		{"twice", "<Seed>321</Seed>", "<Seed>321</Seed><Seed>1</Seed>", "Seed is given twice"},
		{"sata", "<HostInterface_Type>NVME<", "<HostInterface_Type>SATA<", "NVMe host interface only"},
		{"protocol", "<Flash_Comm_Protocol>NVDDR2<", "<Flash_Comm_Protocol>FAST<", "want one of SDR, NVDDR"},
		{"nested", "<Seed>321</Seed>", "<Seed><x>1</x></Seed>", "<x> inside <Seed>"},
		{"root", "<Execution_Parameter_Set>", "<Other>", "root element <Other>"},
		{"not xml", "</Execution_Parameter_Set>", "", "not well-formed XML"},
		{"lanes", "<PCIe_Lane_Count>4<", "<PCIe_Lane_Count>3<", "1, 2, 4, 8 or 16 lanes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, good, tc.from)
			_, err := Import(strings.NewReader(strings.Replace(good, tc.from, tc.to, 1)), "x.xml")
			require.ErrorContains(t, err, tc.err)
		})
	}
	// An element this importer does not know is listed, not dropped.
	r, err := Import(strings.NewReader(strings.Replace(good, "<Seed>321</Seed>", "<Seed>321</Seed><Warp_Drive>9</Warp_Drive>", 1)), "x.xml")
	require.NoError(t, err)
	var found bool
	for _, n := range r.Notes {
		found = found || (n.Element == "Warp_Drive" && strings.Contains(n.Why, "not an element this importer knows"))
	}
	require.True(t, found)
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func mustPreset(t *testing.T, name string) []byte {
	b, err := platforms.PresetYAML("presets", name)
	require.NoError(t, err)
	return b
}
