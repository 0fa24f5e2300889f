package figures

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestCells: each cell's two renderings, worked by hand.
func TestCells(t *testing.T) {
	// 4,815,000,000 ps = 4.815 ms (report.Duration: 3 decimals under 10) = 4815 µs.
	require.Equal(t, cell{"4.815ms", []string{"4815"}}, durC(4_815_000_000))
	// 190,600,000 ps = 190.6 µs (1 decimal from 100); the fraction of a ps is dropped as dur does.
	require.Equal(t, cell{"190.6us", []string{"190.6"}}, durC(190_600_000.7))
	require.Equal(t, cell{"-", []string{""}}, durC(math.NaN()))
	// 2/3: "0.67" to two decimals, exact as the number.
	require.Equal(t, cell{"0.67", []string{"0.6666666666666666"}}, ratioC(2.0/3))
	// 291.4 and 305.6 MB/s joined: "291/306", two numeric cells.
	require.Equal(t, cell{"291/306", []string{"291.4", "305.6"}}, joined(mbsC(291.4, true), mbsC(305.6, true)))
	require.Equal(t, cell{"-", []string{""}}, mbsC(0, false))
	d := newDual("t")
	d.textCol("app", "app")
	d.col("MB/s (a/b)", "a_mb_per_s", "b_mb_per_s")
	d.append(str("x"), joined(mbsC(1.5, true), mbsC(0, false)))
	nt := d.numTable()
	require.Equal(t, []string{"app", "a_mb_per_s", "b_mb_per_s"}, nt.Header)
	require.Equal(t, [][]any{{"x", 1.5, nil}}, nt.Rows)
	require.Equal(t, []string{"x", "2/-"}, d.text.Rows[0])
}

// TestClaimJSON: the claim's numbers, its kind and its verdict by name.
func TestClaimJSON(t *testing.T) {
	// |48 − 34| = 14 ≤ 15: reproduced.
	j := Claim{ID: "5-fdbuf", Figure: "5", Unit: "%", Paper: 34, Tolerance: 15, Measured: 48}.JSON()
	require.Equal(t, "about", j.Kind)
	require.Equal(t, "reproduced", j.Verdict)
	require.Equal(t, 48.0, *j.Measured)
	// 4 < 5 − 0: not reproduced.
	j = Claim{Unit: "apps", Paper: 5, Kind: AtLeast, Measured: 4}.JSON()
	require.Equal(t, "at_least", j.Kind)
	require.Equal(t, "not reproduced", j.Verdict)
	j = Claim{Missing: true, Measured: 3}.JSON()
	require.Nil(t, j.Measured)
	require.Equal(t, "not run", j.Verdict)
	j = Claim{Measured: math.NaN()}.JSON()
	require.Nil(t, j.Measured, "NaN is null, not an encoding error")
	c := Claim{Measured: 1, Paper: 1, NotEngaged: "fd: no dirty-ratio switch"}
	require.Equal(t, "not engaged", c.JSON().Verdict)
	require.Equal(t, "fd: no dirty-ratio switch", c.JSON().NotEngaged)
	require.Equal(t, "not engaged: fd: no dirty-ratio switch", c.Verdict())
	require.Equal(t, "tie", Claim{Tie: true}.JSON().Verdict)
}

// textValue parses a text table's number: a report.Duration ("4.815ms", "0") in µs or a
// plain decimal or a percentage ("12.3 %", as a fraction), with half a unit of its last digit
// as the tolerance.
func textValue(t *testing.T, s string) (v, tol float64) {
	scale := 1.0
	for _, u := range []struct {
		suffix string
		us     float64
	}{{" %", 0.01}, {"ms", 1e3}, {"us", 1}, {"ns", 1e-3}, {"ps", 1e-6}, {"s", 1e6}} {
		if strings.HasSuffix(s, u.suffix) {
			s, scale = strings.TrimSuffix(s, u.suffix), u.us
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, "text cell %q", s)
	digits := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		digits = len(s) - i - 1
	}
	return v * scale, 0.5 * math.Pow(10, -float64(digits)) * scale
}

// checkTables: every numeric cell is a number, empty, or in a text column; and each equals
// its text table's value to the text's precision ("-" is empty).
func checkTables(t *testing.T, f *Figure) {
	d := f.d
	require.Len(t, d.textCols, len(d.num.Header), f.Name)
	require.Len(t, d.spans, len(d.text.Header), f.Name)
	require.Equal(t, len(d.text.Rows), len(d.num.Rows), f.Name)
	for i, row := range d.num.Rows {
		require.Len(t, row, len(d.num.Header), "%s row %d", f.Name, i)
		for j, s := range row {
			if d.textCols[j] || s == "" {
				continue
			}
			_, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err, "%s row %d column %s", f.Name, i, d.num.Header[j])
		}
		k := 0
		for j, text := range d.text.Rows[i] {
			nums := row[k : k+d.spans[j]]
			k += d.spans[j]
			where := f.Name + " row " + strconv.Itoa(i) + " column " + d.text.Header[j]
			switch {
			case f.Name == "sensitivity" && j >= 2:
				// "✓ 77 %", "✗ 10 %", "n.e.", "tie", "-" beside the measured value and verdict.
				want := map[string]string{"✓": "reproduced", "✗": "not reproduced", "n.e.": "not engaged", "tie": "tie"}[strings.Fields(text)[0]]
				if text == "-" { // not run, or no measured value (the verdict may still say why)
					require.Empty(t, nums[0], where)
					continue
				}
				require.Equal(t, want, nums[1], where)
			case d.textCols[k-1]:
				require.Equal(t, text, nums[0], where)
			default:
				parts := []string{text}
				if len(nums) > 1 {
					parts = strings.Split(text, "/")
				}
				require.Len(t, parts, len(nums), where)
				for p, part := range parts {
					if part == "-" || part == "" {
						require.Empty(t, nums[p], where)
						continue
					}
					want, tol := textValue(t, part)
					got, err := strconv.ParseFloat(nums[p], 64)
					require.NoError(t, err, where)
					require.InDelta(t, want, got, tol+1e-9, "%s: text %q, number %s", where, part, nums[p])
				}
			}
		}
		require.Equal(t, len(row), k, f.Name)
	}
}

// TestNumericTables runs every default figure at 50 ms on the quick platform (a few seconds)
// and checks the numeric tables against the text ones, the files WriteDir writes and the
// summary; then the regime map on the same runs, with the default runs standing in for one
// sensitivity point.
func TestNumericTables(t *testing.T) {
	set, err := Run(Quick(Options{Duration: 50 * sim.Millisecond, Apps: apps.DefaultSpec()}))
	require.NoError(t, err)
	figs := set.Figures()
	require.Len(t, figs, 9, "8 figures and the engagement table")
	require.Equal(t, []string{"paper", "linux6"}, set.Hosts())
	var nClaims int
	for _, f := range figs {
		checkTables(t, f)
		require.Len(t, f.Others, 1, f.Name)
		require.Equal(t, f.Name+"-linux6", f.Others[0].Name)
		checkTables(t, f.Others[0])
		nClaims += len(f.Claims)
		for _, c := range f.Claims {
			require.Equal(t, "paper", c.Host)
			require.Len(t, c.Hosts, 1)
			require.Equal(t, "linux6", c.Hosts[0].Host)
		}
	}
	checkReport(t, set, figs)
	// The regime map: one point whose runs are the default ones.
	p := point{label: "test", short: "same", sweep: "test"}
	set.points = append(set.points, p)
	for k, r := range set.runs {
		if k.extra == "" {
			set.runs[key{host: k.host, scenario: k.scenario, variant: k.variant, extra: p.label}] = r
		}
	}
	set.Options.Only = []string{"sensitivity"}
	sens := set.Figures()
	require.Len(t, sens, 1)
	checkTables(t, sens[0])
	require.Len(t, sens[0].Numbers.Rows, 2, "default and the test point")

	dir := t.TempDir()
	require.NoError(t, WriteDir(dir, figs))
	b, err := os.ReadFile(filepath.Join(dir, "summary.csv"))
	require.NoError(t, err)
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 2*nClaims+1, "a row per claim and host")
	for _, row := range rows[1:] {
		for j, s := range row {
			if summaryTextCols[rows[0][j]] || s == "" {
				continue
			}
			_, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err, "summary.csv column %s: %q", rows[0][j], s)
		}
	}
	var doc Document
	b, err = os.ReadFile(filepath.Join(dir, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Len(t, doc.Claims, nClaims)
	tl := doc.Tally
	require.Equal(t, nClaims, tl.Reproduced+tl.NotReproduced+tl.NotEngaged+tl.Tie+tl.NotRun)
	require.Len(t, doc.HostTallies, 1)
	require.Equal(t, "linux6", doc.HostTallies[0].Host)
	i := 0
	for _, f := range figs {
		for _, c := range f.Claims {
			require.Equal(t, c.ID, doc.Claims[i].ID)
			row := rows[2*i+1]
			require.Equal(t, c.ID, row[0])
			require.Equal(t, "paper", row[1])
			require.Equal(t, "linux6", rows[2*i+2][1])
			require.Equal(t, c.Outcome(), doc.Claims[i].Verdict)
			require.Equal(t, c.Outcome(), row[9])
			if m := c.measured(); math.IsNaN(m) {
				require.Nil(t, doc.Claims[i].Measured)
				require.Empty(t, row[8])
			} else {
				require.Equal(t, m, *doc.Claims[i].Measured, c.ID)
				require.Equal(t, strconv.FormatFloat(m, 'g', -1, 64), row[8])
			}
			i++
		}
	}
	// NAME.csv is the numeric table; NAME.json holds it with numbers.
	b, err = os.ReadFile(filepath.Join(dir, "fig1a.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "app,mean_us,p99_us,p99_per_mean\n"), string(b))
	var fj struct {
		Table NumTable `json:"table"`
	}
	b, err = os.ReadFile(filepath.Join(dir, "fig1a.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &fj))
	_, isNum := fj.Table.Rows[0][2].(float64)
	require.True(t, isNum, "fig1a.json p99_us is a JSON number: %v", fj.Table.Rows[0][2])
}
