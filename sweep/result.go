package sweep

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/report"
)

// FormatVersion identifies the JSON layout of a Result.
const FormatVersion = "fastdrain-sweep/1"

// Result is the outcome of a sweep or of one shard of it.
type Result struct {
	Format  string   `json:"format"`  // FormatVersion
	Spec    Spec     `json:"spec"`    // the sweep, with digests filled in
	Shard   Shard    `json:"shard"`   // the part of the grid the rows cover
	Points  int      `json:"points"`  // points in the whole grid
	Columns []string `json:"columns"` // metric names, Spec.Columns()
	Rows    []Row    `json:"rows"`    // the shard's points, ascending
}

// Row is one grid point's outcome: the axis values and the metrics in Columns order, or
// the error that stopped the point's simulation (and no metrics).
type Row struct {
	Point   int       `json:"point"`
	Values  []string  `json:"values"`
	Metrics []float64 `json:"metrics,omitempty"`
	// Latency holds the point's latency distributions (dist.go); files written before it
	// existed have none and still read.
	Latency []Distribution `json:"latency_ps,omitempty"`
	Error   string         `json:"error,omitempty"`
}

// Failed returns the number of rows whose simulation failed.
func (r *Result) Failed() int {
	n := 0
	for _, w := range r.Rows {
		if w.Error != "" {
			n++
		}
	}
	return n
}

// Table returns the rows as a table: point, one column per axis, one per metric (exact
// shortest decimal form) and, if any point failed, an error column.
func (r *Result) Table() *report.Table { return r.table(-1) }

// TextTable is Table with metrics rounded to six significant digits, for terminals.
func (r *Result) TextTable() *report.Table { return r.table(6) }

func (r *Result) table(digits int) *report.Table {
	title := fmt.Sprintf("sweep (%s, shard %s)", r.Spec.Kind, r.Shard)
	h := append(append([]string{"point"}, r.Spec.Axes.Keys()...), r.Columns...)
	errCol := r.Failed() > 0
	if errCol {
		h = append(h, "error")
	}
	t := &report.Table{Title: title, Header: h}
	for _, w := range r.Rows {
		row := append([]string{strconv.Itoa(w.Point)}, w.Values...)
		for i := range r.Columns {
			if i < len(w.Metrics) {
				row = append(row, strconv.FormatFloat(w.Metrics[i], 'g', digits, 64))
			} else {
				row = append(row, "")
			}
		}
		if errCol {
			row = append(row, w.Error)
		}
		t.Append(row...)
	}
	return t
}

// WriteCSV writes Table as CSV, one line per point.
func (r *Result) WriteCSV(w io.Writer) error { return r.Table().WriteCSV(w) }

// WriteJSON writes the result as JSON: the header fields indented, one row per line.
// ReadJSON reads it back to an equal Result, and writing that again gives the same bytes.
func (r *Result) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	field := func(name string, v any, indent bool, last bool) error {
		var b []byte
		var err error
		if indent {
			b, err = json.MarshalIndent(v, "  ", "  ")
		} else {
			b, err = json.Marshal(v)
		}
		if err != nil {
			return err
		}
		sep := ","
		if last {
			sep = ""
		}
		fmt.Fprintf(bw, "  %q: %s%s\n", name, b, sep)
		return nil
	}
	bw.WriteString("{\n")
	for _, f := range []struct {
		name   string
		v      any
		indent bool
	}{{"format", r.Format, false}, {"spec", r.Spec, true}, {"shard", r.Shard, false},
		{"points", r.Points, false}, {"columns", r.Columns, false}} {
		if err := field(f.name, f.v, f.indent, false); err != nil {
			return err
		}
	}
	bw.WriteString("  \"rows\": [")
	for i, row := range r.Rows {
		b, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("sweep: point %d: %w", row.Point, err)
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		bw.Write(b)
	}
	if len(r.Rows) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// ReadJSON reads a result written by WriteJSON, strictly (unknown fields are errors), and
// checks it is consistent: the format version, the spec, the shard, the columns, and every
// row's point, shard and axis values. Errors start with name.
func ReadJSON(rd io.Reader, name string) (*Result, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Result
	if err := dec.Decode(&r); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s:%d: %w", name, lineAt(data, se.Offset), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s:%d: %w", name, lineAt(data, te.Offset), err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", name)
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &r, nil
}

// ReadFile reads a result file with ReadJSON.
func ReadFile(path string) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadJSON(f, path)
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// check reports the first inconsistencies of a result read from outside.
func (r *Result) check() error {
	if r.Format != FormatVersion {
		return fmt.Errorf("format %q is not %q", r.Format, FormatVersion)
	}
	if err := r.Spec.Validate(); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	if err := r.Shard.Validate(); err != nil {
		return err
	}
	if r.Points != r.Spec.Size() {
		return fmt.Errorf("points: %d, but the grid has %d", r.Points, r.Spec.Size())
	}
	if !slices.Equal(r.Columns, r.Spec.Columns()) {
		return fmt.Errorf("columns %v are not the columns of a %s sweep", r.Columns, r.Spec.Kind)
	}
	var errs []error
	prev := -1
	for i, w := range r.Rows {
		switch {
		case w.Point < 0 || w.Point >= r.Points:
			errs = append(errs, fmt.Errorf("rows[%d]: point %d is not in the grid of %d", i, w.Point, r.Points))
			continue
		case w.Point <= prev:
			errs = append(errs, fmt.Errorf("rows[%d]: point %d is not after point %d", i, w.Point, prev))
		case !r.Shard.Owns(w.Point):
			errs = append(errs, fmt.Errorf("rows[%d]: point %d is not in shard %s", i, w.Point, r.Shard))
		}
		prev = w.Point
		if want := r.Spec.Axes.Point(w.Point).Values; !slices.Equal(w.Values, want) {
			errs = append(errs, fmt.Errorf("rows[%d]: point %d has values %q, the grid has %q", i, w.Point, w.Values, want))
		}
		if w.Error == "" && len(w.Metrics) != len(r.Columns) {
			errs = append(errs, fmt.Errorf("rows[%d]: point %d has %d metrics for %d columns", i, w.Point, len(w.Metrics), len(r.Columns)))
		}
		if err := checkDistributions(w.Latency); err != nil {
			errs = append(errs, fmt.Errorf("rows[%d]: point %d: %w", i, w.Point, err))
		}
	}
	if want := len(r.Shard.Points(r.Points)); len(r.Rows) != want && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("rows: %d, but shard %s of %d points has %d", len(r.Rows), r.Shard, r.Points, want))
	}
	return errors.Join(errs...)
}

// FileBase returns the base name of the result's files: "sweep" for the whole grid,
// "shard-I-of-N" for shard I/N.
func (r *Result) FileBase() string {
	if r.Shard.Count <= 1 {
		return "sweep"
	}
	return fmt.Sprintf("shard-%d-of-%d", r.Shard.Index, r.Shard.Count)
}

// WriteFiles writes dir/FileBase().json and dir/FileBase().csv (dir is created if needed)
// and returns their paths.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range []struct {
		ext   string
		write func(io.Writer) error
	}{{".json", r.WriteJSON}, {".csv", r.WriteCSV}} {
		p := filepath.Join(dir, r.FileBase()+f.ext)
		if err := report.WriteFile(p, f.write); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
