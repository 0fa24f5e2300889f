package figures

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// checkReport writes set's results with Set.WriteDir and checks the fidelity report
// against values taken here from the figures and the runs: the scale line with the number
// of runs made, every claim's row on both hosts, the tally, one engagement share worked
// out from the runs, every figure's rows per host; and that the report rendered again from
// the directory (LoadReport) is the same bytes.
func checkReport(t *testing.T, set *Set, figs []*Figure) {
	dir := filepath.Join(t.TempDir(), "run")
	require.NoError(t, set.WriteDir(dir, figs))
	b, err := os.ReadFile(filepath.Join(dir, ReportFile))
	require.NoError(t, err)
	md := string(b)
	require.True(t, strings.HasPrefix(md, fmt.Sprintf("**Scale.** Preset `%s`, %v simulated per run, the default seed (the never-draining Oracle on three); "+
		"host profiles paper, linux6 (the first is the headline); %d runs.\n", QuickPreset, set.Options.Duration, len(set.runs))), md[:min(len(md), 300)])
	for _, f := range figs {
		for _, c := range f.Claims {
			require.NotEmpty(t, claimNeeds[c.ID], "claim %s names the mechanisms it needs", c.ID)
			l := c.Hosts[0]
			require.Contains(t, md, "| "+strings.Join([]string{c.ID, c.Text, c.PaperText(), c.BandText(),
				c.MeasuredText(), "-", c.Outcome(), l.MeasuredText(), "-", l.Outcome()}, " | ")+" |\n")
		}
		for i, g := range append([]*Figure{f}, f.Others...) {
			for _, row := range g.Table.Rows {
				require.Contains(t, md, "| "+set.Hosts()[i]+" | "+strings.Join(row, " | ")+" |\n", g.Name)
			}
		}
	}
	require.Contains(t, md, "Verdicts on the paper host (the headline): "+Tally(figs)+".\n")
	require.Contains(t, md, "Verdicts on the linux6 host: "+Tally(hostFigs(figs, 0))+".\n")
	// 1a needs Vanilla's buffer full in every app's run: the lowest share over the six, and
	// how many reached 1 %, from the runs themselves.
	for _, h := range set.Hosts() {
		lo, ok := 1.0, 0
		for _, a := range apps.LatencyCritical() {
			v := fullShare(set.onHost(h).result(a, "vanilla", ""))
			lo = min(lo, v)
			if v >= EngagedShare {
				ok++
			}
		}
		require.Contains(t, md, fmt.Sprintf("%s (%d of 6)", pct(lo), ok), h)
	}
	require.Contains(t, md, "| 1a | vanilla: buffer full | every app | ")
	require.Contains(t, md, "| 6a-ftl | fd-ftl: foreground eviction | apache-u | ")
	r, err := LoadReport(dir)
	require.NoError(t, err)
	require.Equal(t, md, r.Markdown())
}

// TestDocBlock: the block between the markers, read and replaced, and the errors.
func TestDocBlock(t *testing.T) {
	doc := "# Page\n\nprose\n" + DocBegin + "\nold 1\nold 2\n" + DocEnd + "\nafter\n"
	b, err := DocBlock([]byte(doc))
	require.NoError(t, err)
	require.Equal(t, "old 1\nold 2\n", string(b))
	out, err := ReplaceDocBlock([]byte(doc), []byte("new\n"))
	require.NoError(t, err)
	require.Equal(t, "# Page\n\nprose\n"+DocBegin+"\nnew\n"+DocEnd+"\nafter\n", string(out))
	empty := DocBegin + "\n" + DocEnd + "\n"
	b, err = DocBlock([]byte(empty))
	require.NoError(t, err)
	require.Empty(t, b)
	for _, bad := range []string{"no markers\n", DocBegin + "\nx\n", "x\n" + DocEnd + "\n", DocEnd + "\n" + DocBegin + "\n",
		empty + empty} {
		_, err := DocBlock([]byte(bad))
		require.Error(t, err, bad)
	}
}

// TestPresetDuration: a figures results directory's name read back.
func TestPresetDuration(t *testing.T) {
	for _, c := range []struct {
		name, preset string
		d            sim.Time
	}{{"fastdrain-tlc-30s", "fastdrain-tlc", 30 * sim.Second}, {"fastdrain-tlc-30s-2", "fastdrain-tlc", 30 * sim.Second},
		{"fastdrain-tlc-8x-50ms", "fastdrain-tlc-8x", 50 * sim.Millisecond}} {
		p, d, err := presetDuration(c.name)
		require.NoError(t, err, c.name)
		require.Equal(t, c.preset, p)
		require.Equal(t, c.d, d)
	}
	for _, bad := range []string{"results", "fastdrain-tlc", "-30s"} {
		_, _, err := presetDuration(bad)
		require.Error(t, err, bad)
	}
}

var (
	fidelityDir    = flag.String("fidelity.dir", "", "a finished `figures --full` results directory: check docs/fidelity.md's report against it (bench/fidelity.sh)")
	fidelityUpdate = flag.Bool("fidelity.update", false, "with -fidelity.dir: write the report into docs/fidelity.md instead of checking it")
)

// TestFidelityDoc is docs/fidelity.md's checker (bench/fidelity.sh runs it): the report
// between the page's markers must be byte for byte the report of the figures --full run
// in -fidelity.dir, rendered from that run's files (and equal to the report the run wrote
// itself, when it wrote one). With -fidelity.update it writes the report into the page.
// Without -fidelity.dir it has nothing to compare against and is skipped: a --full run
// is 420 simulations, tens of minutes on two cores.
func TestFidelityDoc(t *testing.T) {
	if *fidelityDir == "" {
		t.Skip("no -fidelity.dir (bench/fidelity.sh runs figures --full and passes its results directory)")
	}
	r, err := LoadReport(*fidelityDir)
	require.NoError(t, err)
	// The page's block is the paper's scale: `figures --full` on the paper's platform.
	require.Equal(t, "fastdrain-tlc", r.Preset, "not a figures --full run")
	require.Empty(t, r.Sets, "not a figures --full run")
	require.Equal(t, []sim.Time{30 * sim.Second, 10 * sim.Second}, []sim.Time{r.Duration, r.Short}, "not a figures --full run")
	require.Equal(t, 3, r.Seeds, "not a figures --full run")
	md := r.Markdown()
	if own, err := os.ReadFile(filepath.Join(*fidelityDir, ReportFile)); err == nil {
		require.Equal(t, string(own), md, "the run's own report and the one rendered from its files differ")
	}
	path := filepath.Join("..", "docs", "fidelity.md")
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	if *fidelityUpdate {
		out, err := ReplaceDocBlock(doc, []byte(md))
		require.NoError(t, err, path)
		require.NoError(t, os.WriteFile(path, out, 0o644))
		t.Logf("%s: report written from %s", path, *fidelityDir)
		return
	}
	block, err := DocBlock(doc)
	require.NoError(t, err, path)
	if d := firstDifference(string(block), md); d != "" {
		t.Fatalf("docs/fidelity.md's report is not the run's in %s (bench/fidelity.sh --update %s writes it):\n%s", *fidelityDir, *fidelityDir, d)
	}
}

// firstDifference describes the first line where the page's block and the run's report
// differ, and how many lines differ ("" when they are the same bytes).
func firstDifference(page, run string) string {
	if page == run {
		return ""
	}
	pl, rl := strings.Split(page, "\n"), strings.Split(run, "\n")
	first, n := -1, 0
	for i := range max(len(pl), len(rl)) {
		a, b := "(none)", "(none)"
		if i < len(pl) {
			a = pl[i]
		}
		if i < len(rl) {
			b = rl[i]
		}
		if a != b {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	line := func(ls []string) string {
		if first < len(ls) {
			return ls[first]
		}
		return "(none)"
	}
	return fmt.Sprintf("%d lines differ; the first, line %d of the block:\n  page: %s\n  run:  %s", n, first+1, line(pl), line(rl))
}
