package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/buildinfo"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner/comparerun"
	"github.com/stretchr/testify/require"
)

// runStdout runs the command line and returns standard output alone (warnings go to
// standard error and are returned apart).
func runStdout(args ...string) (stdout, stderr string, err error) {
	root := newRoot()
	var o, e bytes.Buffer
	root.SetOut(&o)
	root.SetErr(&e)
	root.SetArgs(args)
	err = root.Execute()
	return o.String(), e.String(), err
}

// run runs the command line and returns standard output and standard error together.
func run(args ...string) (string, error) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestVersion(t *testing.T) {
	out, err := run("version")
	require.NoError(t, err)
	first, rest, _ := strings.Cut(out, "\n")
	require.Equal(t, "fastdrain "+version, first)
	// go test stamps no VCS revision, so the program reads it from its source tree: the
	// revision git names there, independently of the program's code path.
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		require.Contains(t, rest, "revision: "+strings.TrimSpace(string(head))+" (")
		require.Contains(t, rest, "read from the source tree at start")
	} else {
		require.Contains(t, rest, "revision: not stamped")
	}
	require.Contains(t, rest, "go: "+runtime.Version()+"\n")
}

func TestVersionFromBuildInfo(t *testing.T) {
	// What "go build" in a git checkout stamps (the keys of runtime/debug.BuildSetting).
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "a88f27e0123"},
		{Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	var b strings.Builder
	require.NoError(t, buildinfo.Of(bi).Write(&b, version))
	require.Equal(t, "fastdrain "+version+"\n"+
		"revision: a88f27e0123 (2026-12-01T10:00:00Z), with uncommitted changes\n"+
		"module: (devel)\ngo: go1.26.0\n", b.String())
}

func TestFlashbenchSmall(t *testing.T) {
	out, err := run("flashbench", "--channels", "2", "--ways", "2", "--ops", "500", "--qd", "8")
	require.NoError(t, err)
	require.Contains(t, out, "flashbench: 2 channels × 2 dies")
	require.Contains(t, out, "channel bus utilization")
	require.Contains(t, out, "ssd.ch[1].die[1]")

	out, _, err = runStdout("flashbench", "--channels", "1", "--ways", "1", "--ops", "100", "--format", "json")
	require.NoError(t, err)
	var j map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &j))
	require.Contains(t, j, "iops")
}

func TestDefaultActionIsTheComparison(t *testing.T) {
	dir := t.TempDir()
	out, err := run("--duration", "200ms", "--scenarios", "apache-u+ungzip", "--variants", "vanilla,fd", "--out", dir)
	require.NoError(t, err)
	require.Contains(t, out, "FastDrain comparison on fastdrain-tlc: 1 scenarios × 2 variants")
	require.Contains(t, out, "fd/vanilla")
	// The header before the runs (on standard error) and the summary after the tables.
	require.True(t, strings.HasPrefix(out, "FastDrain comparison on fastdrain-tlc: fd against vanilla (the baseline), "+
		"1 co-location scenario (each latency-critical app beside ungzip), 200ms simulated each: 2 runs; "), out)
	require.Contains(t, out, "Lower is better.")
	require.Contains(t, out, "results written to "+filepath.Join(dir, "compare", "fastdrain-tlc-200ms")+"\n")
	for _, f := range []string{"p99.csv", "mean.csv", "p99.png", "p99.svg", "summary.json", "apache-u+ungzip/vanilla/result.json", "apache-u+ungzip/fd/config.yaml"} {
		_, err := os.Stat(filepath.Join(dir, "compare", "fastdrain-tlc-200ms", f))
		require.NoError(t, err, f)
	}
	// summary.json: one cell per app and variant, numbers only; the baseline's p99_norm is
	// 1 and the other's is the ratio of the two p99s.
	b, err := os.ReadFile(filepath.Join(dir, "compare", "fastdrain-tlc-200ms", "summary.json"))
	require.NoError(t, err)
	var sum comparerun.Summary
	require.NoError(t, json.Unmarshal(b, &sum))
	require.Equal(t, "vanilla", sum.Baseline)
	require.Equal(t, 0.2, sum.Seconds)
	require.Len(t, sum.Cells, 2)
	van, fd := sum.Cells[0], sum.Cells[1]
	require.Equal(t, []string{"apache-u", "vanilla", "apache-u", "fd"}, []string{van.App, van.Variant, fd.App, fd.Variant})
	require.Positive(t, van.Requests)
	require.Equal(t, 1.0, van.P99Norm)
	require.InDelta(t, fd.At(99)/van.At(99), fd.P99Norm, 1e-12)
	require.LessOrEqual(t, van.At(50), van.At(99))
	require.LessOrEqual(t, van.At(99), van.MaxUs)
	require.Positive(t, van.CorunnerMBps)

	help, err := run("compare", "--help")
	require.NoError(t, err)
	require.NotContains(t, help, "--variant ", "compare refuses --variant, so its help does not offer it")
	require.Contains(t, help, "--variants")
}

func TestRunCommand(t *testing.T) {
	dir := t.TempDir()
	tl := filepath.Join(dir, "tl.json")
	out, err := run("run", "--variant", "fd", "--scenario", "db-s+ungzip", "--duration", "200ms", "--out", dir,
		"--timeline", tl, "--timeline-window", "100ms:110ms", "--plot-dpi", "48")
	defer func() { require.NoError(t, report.SetPNGDPI(report.DefaultPNGDPI)) }()
	require.NoError(t, err)
	require.Contains(t, out, "fd on fastdrain-tlc: scenario db-s+ungzip")
	require.Contains(t, out, "dies utilization (fd)")
	var doc map[string]any
	b, err := os.ReadFile(tl)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &doc), "the timeline is valid JSON")
	require.Contains(t, doc, "traceEvents")
	// --plot-dpi 48: the 6 × 4-inch CDF is 288 × 192 pixels (96 DPI would be 576 × 384).
	f, err := os.Open(filepath.Join(dir, "run", "fastdrain-tlc-fd-db-s+ungzip-200ms", "latency-cdf.png"))
	require.NoError(t, err)
	pc, err := png.DecodeConfig(f)
	f.Close()
	require.NoError(t, err)
	require.Equal(t, [2]int{288, 192}, [2]int{pc.Width, pc.Height})
	for _, p := range []string{"heatmap-channels", "heatmap-dies", "throughput", "tail"} {
		for _, ext := range []string{".png", ".svg"} {
			_, err = os.Stat(filepath.Join(dir, "run", "fastdrain-tlc-fd-db-s+ungzip-200ms", p+ext))
			require.NoError(t, err)
		}
	}
	// Plot titles carry the preset, the variant and the duration.
	svg, err := os.ReadFile(filepath.Join(dir, "run", "fastdrain-tlc-fd-db-s+ungzip-200ms", "latency-cdf.svg"))
	require.NoError(t, err)
	require.Contains(t, string(svg), "response time CDF (fastdrain-tlc, fd, 200ms)")
	// run.yaml says what produced the directory.
	b, err = os.ReadFile(filepath.Join(dir, "run", "fastdrain-tlc-fd-db-s+ungzip-200ms", "run.yaml"))
	require.NoError(t, err)
	for _, want := range []string{"preset: fastdrain-tlc\n", "variant: fd\n", "scenario: db-s+ungzip\n", "seed: 1\n",
		"duration: 200ms\n", "version: " + version + "\n", "config: config.yaml\n"} {
		require.Contains(t, string(b), want)
	}

	_, err = run("run", "--scenario", "nope", "--duration", "-1s", "--format", "xml")
	require.ErrorContains(t, err, "--scenario")
	require.ErrorContains(t, err, "--duration")
	require.ErrorContains(t, err, "--format")
	_, err = run("run", "--quick", "--full")
	require.ErrorContains(t, err, "exclude each other")
	_, err = run("run", "--plot-dpi", "0", "--no-files")
	require.ErrorContains(t, err, "--plot-dpi 0: want 24 to 1200 dots per inch")
	_, err = run("compare", "--plot-dpi", "5000", "--no-files")
	require.ErrorContains(t, err, "--plot-dpi 5000")
}

func TestScenarios(t *testing.T) {
	out, err := run("scenarios")
	require.NoError(t, err)
	require.Contains(t, out, "apache-u+ungzip")
}

func TestBadFlagsNameTheFlag(t *testing.T) {
	_, err := run("flashbench", "--flash", "plc", "--onfi", "ddr9", "--mix", "1/x/0", "--policy", "lifo",
		"--format", "xml", "--ways", "0", "--qd", "0")
	require.Error(t, err)
	for _, s := range []string{"--flash", "--onfi", "--mix", "--policy", "--format", "--ways", "qd:"} {
		require.ErrorContains(t, err, s)
	}
	_, err = run("flashbench", "--onfi", "nv-ddr", "--onfi-mode", "9")
	require.ErrorContains(t, err, "--onfi-mode")
	// Issue 38: a page of 5000 bytes is not whole sectors; it ran.
	_, err = run("flashbench", "--page-size", "5000", "--ops", "10")
	require.EqualError(t, err, "--page-size: die.page_size: 5000 is not a positive multiple of the 512-byte sector")
	_, err = run("flashbench", "extra-arg")
	require.Error(t, err)
}

func TestFlashbenchPreset(t *testing.T) {
	out, err := run("flashbench", "--preset", "mqsim-ref", "--ops", "200", "--qd", "4")
	require.NoError(t, err)
	require.Contains(t, out, "8 channels × 4 dies × 2 planes × 2048 blocks × 256 pages of 8192 B, slc")
	// An explicit flag overrides the preset.
	out, err = run("flashbench", "--preset", "mqsim-ref", "--channels", "2", "--ops", "200")
	require.NoError(t, err)
	require.Contains(t, out, "flashbench: 2 channels × 4 dies")
	// --ways and --dies too: mqsim-ref has 4 ways of 1 die; 2 ways of 3 dies is 6 dies a channel.
	out, err = run("flashbench", "--preset", "mqsim-ref", "--ways", "2", "--dies", "3", "--ops", "200")
	require.NoError(t, err)
	require.Contains(t, out, "8 channels × 6 dies")
	out, err = run("flashbench", "--preset", "mqsim-ref", "--dies", "2", "--ops", "200")
	require.NoError(t, err)
	require.Contains(t, out, "8 channels × 8 dies", "4 ways of the preset × 2 dies given")
	_, err = run("flashbench", "--preset", "nope")
	require.ErrorContains(t, err, "--preset")
}

func TestSeedChangesTheRun(t *testing.T) {
	args := []string{"run", "--preset", "fastdrain-small", "--scenario", "db-s+ungzip", "--duration", "100ms", "--no-files", "--format", "json"}
	a, err := run(args...)
	require.NoError(t, err)
	b, err := run(args...)
	require.NoError(t, err)
	require.Equal(t, a, b, "same seed, same bytes")
	c, err := run(append(args, "--seed", "7")...)
	require.NoError(t, err)
	require.NotEqual(t, a, c, "another seed, another run")
}

// TestCPUProfile: --cpuprofile writes a profile pprof can read (a gzipped protobuf: it
// starts with gzip's magic bytes), for any command; an unwritable path names the flag.
func TestCPUProfile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cpu.prof")
	_, err := run("--cpuprofile", p, "flashbench", "--channels", "1", "--ways", "1", "--ops", "100")
	require.NoError(t, err)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(b), 2)
	require.Equal(t, []byte{0x1f, 0x8b}, b[:2])
	_, err = run("--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof"), "version")
	require.ErrorContains(t, err, "--cpuprofile")
}

func TestCompareAndRunMachineFormats(t *testing.T) {
	// compare --format json prints summary.json's document alone on standard output;
	// --format csv its cells; run --format csv the apps table of numbers.
	dir := t.TempDir()
	args := []string{"compare", "--duration", "100ms", "--scenarios", "apache-u+ungzip", "--variants", "vanilla,fd", "--out", dir}
	out, _, err := runStdout(append(args, "--format", "json")...)
	require.NoError(t, err)
	var sum comparerun.Summary
	require.NoError(t, json.Unmarshal([]byte(out), &sum))
	require.Len(t, sum.Cells, 2)
	b, err := os.ReadFile(filepath.Join(dir, "compare", "fastdrain-tlc-100ms", "summary.json"))
	require.NoError(t, err)
	require.Equal(t, string(b), out, "the file and standard output are the same document")
	out, _, err = runStdout(append(args, "--format", "csv", "--no-files")...)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3)
	require.True(t, strings.HasPrefix(lines[0], "scenario,app,variant,requests,mean_us,"), lines[0])
	require.True(t, strings.HasPrefix(lines[1], "apache-u+ungzip,apache-u,vanilla,"), lines[1])
	out, _, err = runStdout("run", "--scenario", "apache-u", "--duration", "100ms", "--no-files", "--format", "csv")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(out, "app,requests,req_per_s,mb_per_s,mean_us,stdev_us,min_us,p50_us"), out)
}

func TestFlashbenchCSVAndOut(t *testing.T) {
	// --format csv prints the operations table as numbers; --out writes it and the JSON.
	dir := t.TempDir()
	out, _, err := runStdout("flashbench", "--channels", "1", "--ways", "1", "--ops", "100", "--format", "csv", "--out", dir)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Equal(t, "op,count,pages,mean_us,stdev_us,min_us,p50_us,p90_us,p99_us,p999_us,max_us", lines[0])
	require.Len(t, lines, 5) // read, program, erase, all
	b, err := os.ReadFile(filepath.Join(dir, "flashbench", "1ch-1dies", "flashbench.csv"))
	require.NoError(t, err)
	require.Equal(t, out, string(b))
	_, err = os.Stat(filepath.Join(dir, "flashbench", "1ch-1dies", "flashbench.json"))
	require.NoError(t, err)
}

// TestFlashbenchSLCFlags: --slc with --slc-times programs in pSLC mode (the die
// utilization table gains program-slc); --slc without SLC times, and malformed times, are
// refused naming the flag; --independent-plane-reads and --cache-program are accepted.
func TestFlashbenchSLCFlags(t *testing.T) {
	out, err := run("flashbench", "--channels", "1", "--ways", "1", "--ops", "200", "--mix", "50/50/0",
		"--slc", "--slc-times", "25us/300us", "--independent-plane-reads", "--cache-program", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "program-slc")
	_, err = run("flashbench", "--slc", "--no-files")
	require.ErrorContains(t, err, "--slc: slc: the tlc die has no SLC mode")
	_, err = run("flashbench", "--slc-times", "25us", "--no-files")
	require.ErrorContains(t, err, `--slc-times: "25us": want tR/tPROG`)
	_, err = run("flashbench", "--slc-times", "25us/-3us", "--no-files")
	require.ErrorContains(t, err, `is not a positive duration`)
}
