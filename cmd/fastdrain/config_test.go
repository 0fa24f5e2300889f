package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err, "run go test -update to create %s", p)
	require.Equal(t, string(want), got)
}

func TestConfigShowGolden(t *testing.T) {
	out, err := run("config", "show", "tiny", "--variant", "fd")
	require.NoError(t, err)
	golden(t, "config-show-tiny-fd.yaml", out)
}

func TestConfigDiff(t *testing.T) {
	out, err := run("config", "diff", "tiny/vanilla", "tiny/fd")
	require.NoError(t, err)
	// Vanilla and FD differ exactly in the three mechanisms of docs/design.md's variant table.
	require.Equal(t, "firmware.buffer.policy: vanilla → fastdrain\n"+
		"firmware.ftl.allocator: sequential → latency-aware\n"+
		"host.pagecache.fastdrain.adaptive: false → true\n", out)
	out, err = run("config", "diff", "tiny", "tiny")
	require.NoError(t, err)
	require.Equal(t, "no differences\n", out)
}

func TestConfigValidate(t *testing.T) {
	out, err := run("config", "validate", "--preset", "tiny")
	require.NoError(t, err)
	require.Equal(t, "ok\n", out)
	f := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(f, []byte("flash:\n  channels: 0\n  dies_per_packge: 2\n"), 0o644))
	_, err = run("config", "validate", "--preset", "tiny", f)
	require.ErrorContains(t, err, "bad.yaml: line 3: unknown key flash.dies_per_packge (did you mean flash.dies_per_package?)")
	_, err = run("config", "show", "--preset", "nope")
	require.ErrorContains(t, err, "no preset named")
}

func TestConfigList(t *testing.T) {
	out, err := run("config", "list")
	require.NoError(t, err)
	require.Contains(t, out, "fastdrain-tlc")
	require.Contains(t, out, "lsb-only")
}

// TestRunGolden pins the whole text report of a short run: any change in the model's
// behaviour or the report's format shows up here (regenerate with go test -update after
// checking the difference is intended).
func TestRunGolden(t *testing.T) {
	out, err := run("run", "--preset", "fastdrain-small", "--variant", "fd", "--scenario", "db-s+ungzip",
		"--duration", "200ms", "--no-files")
	require.NoError(t, err)
	golden(t, "run-small-fd.txt", out)
}

func TestConfigImportMQSim(t *testing.T) {
	// MQSim's default file: 8 KiB pages, two 4 KiB mapping units a page (sub-page mapping),
	// so the layer validates for whole-system runs; the flash array it describes (8 channels
	// × 4 chips × 2 dies) runs through --config.
	out := filepath.Join(t.TempDir(), "mq.yaml")
	msg, err := run("config", "import", "mqsim", "../../examples/mqsim/ssdconfig.xml", "-o", out)
	require.NoError(t, err)
	require.Contains(t, msg, "on preset fastdrain-tlc it validates for whole-system runs")
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(b), "channels: 8 # MQSim Flash_Channel_Count = 8")
	msg, err = run("flashbench", "--config", out, "--ops", "500")
	require.NoError(t, err)
	require.Contains(t, msg, "flashbench: 8 channels × 8 dies × 2 planes × 2048 blocks × 256 pages of 8192 B, mlc")
	_, err = run("config", "import", "simplessd", "x.cfg")
	require.ErrorContains(t, err, "the known sources are mqsim (ssdconfig.xml) and mqsim-workload")
}

func TestConfigImportMQSimWorkload(t *testing.T) {
	// The test workload on tiny: scenario 1's two flows become jobs that fio runs; scenario
	// 2 is a trace flow and gets no file.
	dir := t.TempDir()
	msg, err := run("config", "import", "mqsim-workload", "../../platforms/mqsim/testdata/workload.xml", "--preset", "tiny", "-o", dir)
	require.NoError(t, err)
	require.Contains(t, msg, "scenario-1.yaml: 2 jobs")
	require.Contains(t, msg, "scenario 2: no synthetic flow")
	_, err = os.Stat(filepath.Join(dir, "scenario-2.yaml"))
	require.True(t, os.IsNotExist(err))
	out, err := run("fio", filepath.Join(dir, "scenario-1.yaml"), "--preset", "tiny")
	require.NoError(t, err)
	require.Contains(t, out, "flow0 │ write")
	require.Contains(t, out, "flow1 │  read")
}

// TestConfigValidateMemory: --memory prints the guard's estimate part by part before "ok";
// a limit below it is refused naming limits.memory (the tiny preset needs about 25 MiB at
// its peak, most of it the program, docs/reliability.md), and what a run's flash writes add
// is given apart: 8 B of stamps and 4 B of each map a 4 KiB page, 16 B, 4 MiB a GiB.
func TestConfigValidateMemory(t *testing.T) {
	out, err := run("config", "validate", "--preset", "tiny", "--memory")
	require.NoError(t, err)
	require.Contains(t, out, "flash dies (4 × 2 planes × 32 blocks × 64 pages)")
	require.Contains(t, out, "firmware (FTL maps of 12288 logical and 16384 physical pages as preconditioned, buffer, per-die state)")
	require.Contains(t, out, "a run adds up to 16 B for each flash page it programs on a block not programmed before (4.0 MiB for each GiB written)")
	require.Regexp(t, "\nok\n$", out)
	_, err = run("config", "validate", "--preset", "tiny", "--set", "limits.memory=1MiB")
	require.ErrorContains(t, err, "limits.memory: the configuration needs an estimated")
}
