package main

import (
	"encoding/json"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/stretchr/testify/require"
)

// TestUflip2008FindingsLong: uFLIP's findings on uflip-2008 at a reduced scale
// (testdata/uflip2008-ci.yaml: the points each check reads, automatic counts capped at
// 2,048, one run a point, a flush between runs, the sequential format, a 256 MiB span). The
// verdicts are those of the full-scale run in docs/uflip.md, each for the mechanism given
// there: five held (sequential: switch against full merges; alignment: nine pages for eight;
// erases: full merges of 30.5 ms; partitions: 8 log blocks a die; pause: a bus-bound back
// end behind a faster link), locality not held (merges copy over the bus: 2.2–2.5 × SW
// against the 2 × threshold, which the locality finding's mechanism names) and parallel not
// held (the NVMe queue keeps the dies busy).
func TestUflip2008FindingsLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "uFLIP's findings on a BAST drive take minutes of merges")
	out, stderr, err := runStdout("uflip", "--preset", "uflip-2008", "--findings", "--plan", "testdata/uflip2008-ci.yaml",
		"--span", "256MiB", "--out", t.TempDir(), "--format", "json")
	require.NoError(t, err, stderr)
	var doc struct {
		Devices []struct {
			Findings []struct {
				ID        string
				Verdict   string
				Mechanism string
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	got := map[string]string{}
	for _, f := range doc.Devices[0].Findings {
		got[f.ID] = f.Verdict
		if f.ID == "locality" {
			require.Contains(t, f.Mechanism, "no copy-back", "the log-block mechanism, not the page-mapped one")
		}
	}
	require.Equal(t, map[string]string{"sequential": "held", "locality": "not held", "alignment": "held", "erases": "held",
		"partitions": "held", "parallel": "not held", "pause": "held"}, got)
}
