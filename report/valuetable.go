package report

// ValueTable is a table whose cells are numbers with the text people read for them: one model
// rendered as a text table (Text) and as a table of numbers for CSV and JSON (Numbers), so
// a table is built once, not written twice. A column may appear in one form only.
type ValueTable struct {
	Title    string   // the text table's title
	NumTitle string   // the numbers table's title ("" = Title)
	Columns  []Column // in order
	Rows     [][]Cell // each as long as Columns
}

// Column is one column of a ValueTable: its header in the text table and its name in the numbers
// table, the unit in the name ("app", "vanilla_p99_us"). An empty Text leaves the column
// out of the text table; an empty Name out of the numbers.
type Column struct {
	Text string
	Name string
}

// Cell is one value of a ValueTable: a label, or a number with its text form, or nothing ("-"
// in the text table, empty in the numbers).
type Cell struct {
	Label string  // a label column's text, the same in both forms
	Num   float64 // the number, written exactly in the numbers table
	Text  string  // the number as people read it ("1.234ms", "0.85")
	kind  cellKind
}

type cellKind uint8

const (
	cellNone cellKind = iota
	cellLabel
	cellNum
)

// Label returns a label cell.
func Label(s string) Cell { return Cell{Label: s, kind: cellLabel} }

// Num returns a number cell: v in the numbers, text in the text table.
func Num(v float64, text string) Cell { return Cell{Num: v, Text: text, kind: cellNum} }

// None returns an empty cell.
func None() Cell { return Cell{} }

// AddRow appends a row; it must have a cell per column.
func (g *ValueTable) AddRow(cells ...Cell) {
	if len(cells) != len(g.Columns) {
		panic("report: value table " + g.Title + " row has the wrong number of cells")
	}
	g.Rows = append(g.Rows, cells)
}

// Text renders the grid for people: the columns with a Text header.
func (g *ValueTable) Text() *Table {
	t := &Table{Title: g.Title}
	var cols []int
	for i, c := range g.Columns {
		if c.Text != "" {
			cols = append(cols, i)
			t.Header = append(t.Header, c.Text)
		}
	}
	for _, r := range g.Rows {
		row := make([]string, 0, len(cols))
		for _, i := range cols {
			switch c := r[i]; c.kind {
			case cellLabel:
				row = append(row, c.Label)
			case cellNum:
				row = append(row, c.Text)
			default:
				row = append(row, "-")
			}
		}
		t.Append(row...)
	}
	return t
}

// Numbers renders the grid as numbers for CSV and JSON: the columns with a Name, each
// number written exactly (Exact), an empty cell as "".
func (g *ValueTable) Numbers() *Table {
	t := &Table{Title: g.NumTitle}
	if t.Title == "" {
		t.Title = g.Title
	}
	var cols []int
	for i, c := range g.Columns {
		if c.Name != "" {
			cols = append(cols, i)
			t.Header = append(t.Header, c.Name)
		}
	}
	for _, r := range g.Rows {
		row := make([]string, 0, len(cols))
		for _, i := range cols {
			switch c := r[i]; c.kind {
			case cellLabel:
				row = append(row, c.Label)
			case cellNum:
				row = append(row, Exact(c.Num))
			default:
				row = append(row, "")
			}
		}
		t.Append(row...)
	}
	return t
}
