package report

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValueTable: one table, two renderings. The text keeps the columns with a text header
// and shows each number as given and an empty cell as "-"; the numbers keep the columns
// with a name and write each number exactly (1/3 as 0.3333333333333333) and an empty cell
// as "".
func TestValueTable(t *testing.T) {
	v := &ValueTable{Title: "p99 per variant (text)", NumTitle: "p99 per variant",
		Columns: []Column{{Text: "app", Name: "app"}, {Name: "scenario"}, {Text: "a p99", Name: "a_p99_us"}, {Text: "b/a", Name: "b_p99_norm"}}}
	v.AddRow(Label("db-s"), Label("db-s+ungzip"), Num(1234.5, "1.234ms"), Num(1.0/3, "0.33"))
	v.AddRow(Label("apache-u"), Label("apache-u+ungzip"), None(), None())
	text := v.Text()
	require.Equal(t, "p99 per variant (text)", text.Title)
	require.Equal(t, []string{"app", "a p99", "b/a"}, text.Header)
	require.Equal(t, [][]string{{"db-s", "1.234ms", "0.33"}, {"apache-u", "-", "-"}}, text.Rows)
	num := v.Numbers()
	require.Equal(t, "p99 per variant", num.Title)
	require.Equal(t, []string{"app", "scenario", "a_p99_us", "b_p99_norm"}, num.Header)
	require.Equal(t, [][]string{{"db-s", "db-s+ungzip", "1234.5", "0.3333333333333333"}, {"apache-u", "apache-u+ungzip", "", ""}}, num.Rows)
	require.Panics(t, func() { v.AddRow(Label("short")) })
}
