package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// A figure's table is built once, from the same values, in two renderings: the text table
// people read ("4.815ms", "0.62", "291/305") and its numeric twin for NAME.csv and
// NAME.json (issue 23 item 2), whose cells are numbers with the unit in the column name
// (`p99_us`, `wasted_frac`, `ungzip_mb_per_s`) or text in the columns marked as text (an
// app's name, a window, a sweep). A joined text cell ("291/305") is one numeric column per
// part. A value the text table shows as "-" (not run, no samples) is an empty numeric cell.

// cell is one value in both renderings: its text and its numeric cell(s).
type cell struct {
	text string
	nums []string
}

// num formats v exactly ("" when NaN).
func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// str is a text value, the same in both renderings.
func str(s string) cell { return cell{s, []string{s}} }

// durC is a duration in ps: dur's text, microseconds as the number.
func durC(ps float64) cell {
	if math.IsNaN(ps) {
		return cell{dur(ps), []string{""}}
	}
	return cell{dur(ps), []string{num(float64(int64(ps)) / float64(sim.Microsecond))}}
}

// ratioC is a ratio or a fraction: two decimals as text, exact as the number.
func ratioC(v float64) cell { return cell{f2(v), []string{num(v)}} }

// countC is a count.
func countC(n int64) cell { s := fmt.Sprint(n); return cell{s, []string{s}} }

// blank is a cell empty in both renderings.
var blank = cell{"", []string{""}}

// mbsC is a throughput in 10⁶ B/s ("-" / empty when ok is false): no decimals as text.
func mbsC(v float64, ok bool) cell {
	if !ok {
		return cell{"-", []string{""}}
	}
	return cell{fmt.Sprintf("%.0f", v), []string{num(v)}}
}

// joined is one text cell of cs' texts joined by "/", and their numeric cells side by side.
func joined(cs ...cell) cell {
	var texts, nums []string
	for _, c := range cs {
		texts = append(texts, c.text)
		nums = append(nums, c.nums...)
	}
	return cell{strings.Join(texts, "/"), nums}
}

// dual is a figure's text table and its numeric twin, built together.
type dual struct {
	text, num *report.Table
	textCols  []bool // per numeric column: holds text, not numbers
	spans     []int  // per text column: how many numeric columns it renders as
}

func newDual(title string) *dual {
	return &dual{text: &report.Table{Title: title}, num: &report.Table{Title: title}}
}

// col adds one text column and its numeric columns (numbers, with the unit in the name).
func (d *dual) col(text string, nums ...string) {
	d.text.Header = append(d.text.Header, text)
	d.num.Header = append(d.num.Header, nums...)
	d.spans = append(d.spans, len(nums))
	for range nums {
		d.textCols = append(d.textCols, false)
	}
}

// textCol adds a column that holds text in both renderings, named num in the numeric one.
func (d *dual) textCol(text, num string) {
	d.text.Header = append(d.text.Header, text)
	d.num.Header = append(d.num.Header, num)
	d.spans = append(d.spans, 1)
	d.textCols = append(d.textCols, true)
}

// append adds one row.
func (d *dual) append(cs ...cell) {
	t, n := split(cs)
	d.text.Append(t...)
	d.num.Append(n...)
}

// extend adds cells to the end of row i (after columns were added).
func (d *dual) extend(i int, cs ...cell) {
	t, n := split(cs)
	d.text.Rows[i] = append(d.text.Rows[i], t...)
	d.num.Rows[i] = append(d.num.Rows[i], n...)
}

func split(cs []cell) (text, nums []string) {
	for _, c := range cs {
		text = append(text, c.text)
		nums = append(nums, c.nums...)
	}
	return text, nums
}

// NumTable is a figure's numeric table as JSON: numbers as JSON numbers, an empty cell as
// null, the text columns' cells as strings.
type NumTable struct {
	Title  string   `json:"title"`
	Header []string `json:"header"`
	Rows   [][]any  `json:"rows"`
}

// numTable renders the numeric table as JSON values.
func (d *dual) numTable() NumTable {
	nt := NumTable{Title: d.num.Title, Header: d.num.Header, Rows: [][]any{}}
	for _, row := range d.num.Rows {
		out := make([]any, len(row))
		for j, s := range row {
			switch {
			case d.textCols[j]:
				out[j] = s
			case s == "":
				out[j] = nil
			default:
				// Every builder writes numbers through num; TestNumericTables checks that
				// every cell parses, so the string fallback is never taken.
				if v, err := strconv.ParseFloat(s, 64); err == nil {
					out[j] = v
				} else {
					out[j] = s
				}
			}
		}
		nt.Rows = append(nt.Rows, out)
	}
	return nt
}

// unitName is a claim unit as it appears in a column name.
func unitName(u string) string {
	switch u {
	case "%":
		return "pct"
	case "×":
		return "ratio"
	}
	return u
}
