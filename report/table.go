package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is a titled grid of strings, rendered as a terminal table, CSV or JSON.
type Table struct {
	Title  string     `json:"title"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
}

// Append adds one row; it must have as many cells as the header.
func (t *Table) Append(cells ...string) {
	if len(cells) != len(t.Header) {
		panic(fmt.Sprintf("report: table %q row has %d cells, header has %d", t.Title, len(cells), len(t.Header)))
	}
	t.Rows = append(t.Rows, cells)
}

// WriteText renders the table for a terminal, with its title on the line above.
func (t *Table) WriteText(w io.Writer) error {
	if t.Title != "" {
		if _, err := fmt.Fprintln(w, t.Title); err != nil {
			return err
		}
	}
	tab := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignment(tw.AlignRight),
	)
	tab.Header(t.Header)
	if err := tab.Bulk(t.Rows); err != nil {
		return err
	}
	return tab.Render()
}

// WriteCSV writes the header and rows as CSV (the title is not included).
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	return cw.Error()
}

// WriteJSON writes the table as an indented JSON object.
func (t *Table) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// SaveCSV writes the table as CSV to the file at path, creating its directory.
func (t *Table) SaveCSV(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := t.WriteCSV(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
