package uflip

import (
	"encoding/csv"
	"io"
	"strconv"
)

// IOHeader is the header row of the per-IO CSV. Times are integer picoseconds.
var IOHeader = []string{"label", "bench", "rep", "stream", "seq", "pattern", "base", "op",
	"lba", "sectors", "submit_ps", "latency_ps", "ignored"}

// RunHeader is the header row of the per-run CSV. Times are picoseconds; mean and std-dev
// have one decimal. The auto_* columns are what the automatic IOIgnore/IOCount rule chose
// (IOIgnore, IOCount per stream, relative precision with 4 decimals, converged); they are
// empty with fixed counts.
var RunHeader = []string{"label", "bench", "point", "rep", "start_ps", "end_ps", "ios",
	"counted", "mean_ps", "min_ps", "max_ps", "stddev_ps", "auto_io_ignore", "auto_io_count",
	"auto_precision", "auto_converged"}

// IOWriter writes per-IO records as CSV; its Write method can serve as an Executor's
// IOSink. Call Flush at the end and check its error.
type IOWriter struct {
	w   *csv.Writer
	row []string
	hdr bool
}

// NewIOWriter returns an IOWriter on w; the header is written before the first record.
func NewIOWriter(w io.Writer) *IOWriter {
	return &IOWriter{w: csv.NewWriter(w), row: make([]string, len(IOHeader))}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// Write writes one record (errors surface in Flush).
func (w *IOWriter) Write(r IORecord) {
	if !w.hdr {
		_ = w.w.Write(IOHeader)
		w.hdr = true
	}
	w.row[0], w.row[1], w.row[2] = r.Label, r.Bench.String(), itoa(int64(r.Rep))
	w.row[3], w.row[4], w.row[5] = itoa(int64(r.Stream)), itoa(r.Seq), itoa(int64(r.Pattern))
	w.row[6], w.row[7], w.row[8] = r.Base.String(), r.Op.String(), itoa(r.LBA)
	w.row[9], w.row[10], w.row[11] = itoa(r.Sectors), itoa(int64(r.Submit)), itoa(int64(r.Latency))
	w.row[12] = strconv.FormatBool(r.Ignored)
	_ = w.w.Write(w.row)
}

// Flush writes any buffered data (and the header if nothing was written) and returns the
// first error met.
func (w *IOWriter) Flush() error {
	if !w.hdr {
		_ = w.w.Write(IOHeader)
		w.hdr = true
	}
	w.w.Flush()
	return w.w.Error()
}

// WriteIOCSV writes recs as CSV with IOHeader.
func WriteIOCSV(w io.Writer, recs []IORecord) error {
	iw := NewIOWriter(w)
	for _, r := range recs {
		iw.Write(r)
	}
	return iw.Flush()
}

// WriteRunCSV writes per-run statistics as CSV with RunHeader.
func WriteRunCSV(w io.Writer, runs []RunStats) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(RunHeader)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	for _, r := range runs {
		auto := []string{"", "", "", ""}
		if a := r.Auto; a != nil {
			auto = []string{itoa(a.IOIgnore), itoa(a.IOCount), strconv.FormatFloat(a.Precision, 'f', 4, 64),
				strconv.FormatBool(a.Converged)}
		}
		_ = cw.Write(append([]string{r.Label, r.Bench.String(), itoa(int64(r.Point)), itoa(int64(r.Rep)),
			itoa(int64(r.Start)), itoa(int64(r.End)), itoa(r.IOs), itoa(r.Counted), f(r.Mean),
			itoa(int64(r.Min)), itoa(int64(r.Max)), f(r.StdDev)}, auto...))
	}
	cw.Flush()
	return cw.Error()
}
