package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/figures"

	"github.com/stretchr/testify/require"
)

// TestFiguresQuickPlatform: --quick runs on the scaled platform and says so under the
// headline; naming a preset keeps it and drops the note. One 200 ms Vanilla run each (Fig.
// 1b needs only Apache-U's).
func TestFiguresQuickPlatform(t *testing.T) {
	out, err := run("figures", "--quick", "--duration", "200ms", "--only", "fig1b", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "FastDrain paper reproduction on fastdrain-tlc-8x, 200ms simulated per experiment\n")
	require.Contains(t, out, "quick mode: fastdrain-tlc-8x is fastdrain-tlc scaled down 8× as a whole")
	out, err = run("figures", "--quick", "--preset", "fastdrain-small", "--duration", "200ms", "--only", "fig1b", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "FastDrain paper reproduction on fastdrain-small, 200ms")
	require.NotContains(t, out, "quick mode:")
	// --full: every claim on three seeds (a shorter --duration leaves out the 10 s check);
	// both host profiles unless --set names one.
	out, err = run("figures", "--full", "--preset", "fastdrain-small", "--duration", "100ms", "--only", "fig1b", "--no-files",
		"--set", "host.profile=linux6")
	require.NoError(t, err)
	require.Contains(t, out, "on 3 seeds")
	require.Contains(t, out, "verdicts on the linux6 host (the headline)")
	require.NotContains(t, out, "paper host")
	require.NotContains(t, out, "not at 10s")
	_, err = run("figures", "--quick", "--variant", "fd", "--no-files")
	require.ErrorContains(t, err, "--variant is not allowed")
}

// TestFiguresFormats: --format json prints the summary document with the preset, the
// simulated time per run (200 ms = 0.2 s) and the figures' numeric tables, each figure on
// both host profiles; --format csv prints summary.csv, a row per claim and host. One 200 ms
// Vanilla run (Fig. 1b) on each host.
func TestFiguresFormats(t *testing.T) {
	out, err := run("figures", "--quick", "--duration", "200ms", "--only", "fig1b", "--no-files", "--format", "json")
	require.NoError(t, err)
	var doc figures.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	require.Equal(t, "fastdrain-tlc-8x", doc.Preset)
	require.Equal(t, 0.2, *doc.DurationS)
	require.Len(t, doc.Claims, 1)
	require.Equal(t, "1b", doc.Claims[0].ID)
	require.Equal(t, "at_least", doc.Claims[0].Kind)
	require.Contains(t, []string{"reproduced", "not reproduced", "not engaged", "tie", "not run"}, doc.Claims[0].Verdict)
	require.Equal(t, "paper", doc.Claims[0].Host)
	require.Len(t, doc.Claims[0].Hosts, 1)
	require.Equal(t, "linux6", doc.Claims[0].Hosts[0].Host)
	require.Len(t, doc.HostTallies, 1)
	require.Len(t, doc.Figures, 2)
	require.Equal(t, "fig1b", doc.Figures[0].Name)
	require.Equal(t, "fig1b-linux6", doc.Figures[1].Name)
	require.Equal(t, []string{"window", "response_time_us"}, doc.Figures[0].Table.Header)
	out, err = run("figures", "--quick", "--duration", "200ms", "--only", "fig1b", "--no-files", "--format", "csv")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	require.Equal(t, "id,host,figure,claim,unit,paper,tolerance,kind,measured,verdict,not_engaged,note,band,seeds,seeds_ok,short_measured,short_verdict", lines[0])
	require.True(t, strings.HasPrefix(lines[1], "1b,paper,1b,"), lines[1])
	require.True(t, strings.HasPrefix(lines[2], "1b,linux6,1b,"), lines[2])
}
