package replay

import (
	"bufio"
	"io"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// RecordsHeader is the first line of the per-request CSV: the trace line, the request's
// trace time (after scaling), its submission time and latency in picoseconds (submission
// relative to the start of the replay), the operation, the byte offset and size, and
// "late" (1 if issued after its trace time) and "error" (1 if the device failed it).
const RecordsHeader = "line,trace_time_ps,issue_ps,op,offset,size,latency_ps,late,error\n"

// recorder writes per-request CSV lines through a buffer, reusing one line buffer, so a
// record costs no allocation. The first write error is kept and reported at the end.
type recorder struct {
	w    *bufio.Writer
	line []byte
	err  error
}

func newRecorder(w io.Writer) *recorder {
	r := &recorder{w: bufio.NewWriterSize(w, 64<<10), line: make([]byte, 0, 128)}
	_, r.err = r.w.WriteString(RecordsHeader)
	return r
}

// record writes one line.
func (r *recorder) record(req *trace.Request, issue, latency sim.Time, late, failed bool) {
	if r.err != nil {
		return
	}
	b := r.line[:0]
	b = strconv.AppendInt(b, int64(req.Line), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(req.Time), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(issue), 10)
	b = append(b, ',')
	b = append(b, req.Op.String()...)
	b = append(b, ',')
	b = strconv.AppendInt(b, req.Offset, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, req.Size, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(latency), 10)
	b = append(b, ',', flag(late), ',', flag(failed), '\n')
	r.line = b
	_, r.err = r.w.Write(b)
}

// flush writes out the buffer and returns the first error.
func (r *recorder) flush() error {
	if r.err == nil {
		r.err = r.w.Flush()
	}
	return r.err
}

func flag(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}
