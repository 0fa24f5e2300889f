package fiorun

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestParseOutputFormat: fio's names map onto --format (normal is text, json+ is json with
// the bins); without the flag --format stands; a disagreeing --format and terse are refused.
func TestParseOutputFormat(t *testing.T) {
	for _, c := range []struct {
		of, format string
		set        bool
		want       string
		plus       bool
	}{{"", "csv", true, "csv", false}, {"normal", "text", false, "text", false}, {"json+", "text", false, "json", true},
		{"json", "json", true, "json", false}, {"csv", "text", false, "csv", false}} {
		got, plus, err := ParseOutputFormat(c.of, c.format, c.set)
		require.NoError(t, err, c.of)
		require.Equal(t, c.want, got, c.of)
		require.Equal(t, c.plus, plus, c.of)
	}
	_, _, err := ParseOutputFormat("json", "csv", true)
	require.EqualError(t, err, `--format "csv" and --output-format "json" disagree; give one`)
	_, _, err = ParseOutputFormat("terse", "text", false)
	require.ErrorContains(t, err, `--output-format "terse": fio's terse (semicolon) format is not written`)
}

// TestApplyFlags: --runtime 2 is fio's 2 seconds, capping a 10 s job at 2 × 10^12 ps;
// --percentiles replaces every job's list; a bad --runtime is named.
func TestApplyFlags(t *testing.T) {
	jobs := []fio.Job{{Name: "a", Runtime: 10 * sim.Second, TimeBased: true}, {Name: "b"}}
	require.NoError(t, ApplyFlags(jobs, "2", report.Percentiles{50, 99}))
	require.Equal(t, sim.Time(2_000_000_000_000), jobs[0].Runtime)
	require.Equal(t, []float64{50, 99}, jobs[1].Percentiles)
	require.EqualError(t, ApplyFlags(jobs, "0", nil), `--runtime "0": want a positive time such as 10s`)
}

// FuzzParseOutputFormat: any pair of format names gives a format or an error naming a
// flag — never a panic; json+ always means the bins.
func FuzzParseOutputFormat(f *testing.F) {
	f.Add("json+", "text", false)
	f.Add("", "", true)
	f.Add("terse", "terse", true)
	f.Fuzz(func(t *testing.T, of, format string, set bool) {
		got, plus, err := ParseOutputFormat(of, format, set)
		if err != nil && !strings.HasPrefix(err.Error(), "--") {
			t.Fatalf("error names no flag: %v", err)
		}
		if err == nil && plus != (of == "json+") || plus && got != "json" {
			t.Fatalf("%q, %q: got %q, plus %v", of, format, got, plus)
		}
	})
}
