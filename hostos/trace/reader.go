package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// bufSize is the line buffer; it is also the longest line accepted and how much of the
// file format detection looks at.
const bufSize = 64 << 10

// errLineTooLong rejects a line that does not fit the buffer.
var errLineTooLong = fmt.Errorf("line longer than %d bytes", bufSize)

// LineError is a problem with one line of a trace. Its message is "file:line: what", e.g.
// `tpcc.trace:17: size "-8": negative`.
type LineError struct {
	File string
	Line int
	Err  error
}

// Error formats the error as file:line: message.
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// Stats counts what a Reader has seen so far.
type Stats struct {
	// Lines is the number of lines read.
	Lines int64
	// Requests is the number of requests returned; Reads, Writes, Trims and Flushes split it.
	Requests, Reads, Writes, Trims, Flushes int64
	// ReadBytes and WriteBytes are the bytes of the returned reads and writes, after
	// rounding out to sectors (Options.Unaligned); ReadBytesAsked and WriteBytesAsked are
	// what the trace asked for, before rounding.
	ReadBytes, WriteBytes           int64
	ReadBytesAsked, WriteBytesAsked int64
	// Ignored counts lines that are not requests by design: blank lines, comments,
	// headers, blkparse events of other actions and its summary section, non-I/O SCSI
	// commands.
	Ignored int64
	// Skipped counts malformed lines dropped in lenient mode.
	Skipped int64
	// Rounded counts requests rounded out to sector boundaries; Wrapped those wrapped
	// around the capacity.
	Rounded, Wrapped int64
	// Last is the time of the last request returned.
	Last sim.Time
	// Warnings describes the first Options.MaxWarnings skipped lines ("file:line: why");
	// WarningsDropped counts the rest.
	Warnings        []string
	WarningsDropped int64
}

// raw is a request as parsed from one line, before normalisation.
type raw struct {
	ts     stamp
	tsText []byte // the time field, for messages
	dev    int
	off    int64
	size   int64
	op     Op
	flags  Flags
}

// Reader streams the requests of one trace file. It is not safe for concurrent use (the
// simulator runs one process at a time anyway).
type Reader struct {
	name   string
	opt    Options
	format Format
	unit   int64 // picoseconds per unit of the time column

	br      *bufio.Reader
	line    int
	fs      fieldSet
	cur     raw
	sawData bool // a data line has been seen, so a later non-numeric line is not a header
	summary bool // blkparse: the trailing summary section has started

	started  bool
	base     stamp // timestamp of the first request
	prev     stamp // timestamp of the previous request
	prevLine int

	blkDevs []uint64 // blkparse major<<32|minor, in order of first appearance

	// unordered (ReadSorted's second pass) accepts requests out of time order, their times
	// relative to base, the trace's earliest timestamp, set beforehand.
	unordered bool

	vscsiVer int               // binary vSCSI: the records' version (1 or 2)
	rec      [vscsiV2Size]byte // binary vSCSI: the record being read

	stats Stats
	err   error // sticky: io.EOF or the error that stopped reading
}

// NewReader returns a Reader for the trace read from r; name (usually the file path) is
// used in error messages. The options are validated, and with Format Auto the format is
// detected from the first 64 KiB without consuming them.
func NewReader(r io.Reader, name string, opt Options) (*Reader, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	rd := &Reader{name: name, opt: opt, format: opt.Format, br: bufio.NewReaderSize(r, bufSize)}
	if rd.format == Auto || rd.format == VSCSIBin {
		// Binary vSCSI is told by its first two records' version fields (text never holds
		// the bytes 0x01 or 0x02 where they sit).
		head, err := rd.br.Peek(2 * vscsiV2Size)
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if v := vscsiVersion(head); v > 0 {
			rd.format, rd.vscsiVer = VSCSIBin, v
		} else if rd.format == VSCSIBin {
			return nil, fmt.Errorf("%s: not a binary vSCSI trace: its first two records carry no common version 1 or 2 (high byte of ver at offset 14 of 32-byte or 2 of 40-byte records)", name)
		}
	}
	if rd.format == Auto {
		head, err := rd.br.Peek(bufSize)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err == nil {
			// Only whole lines: the last one may be cut by the peek window.
			if i := lastIndexByte(head, '\n'); i >= 0 {
				head = head[:i+1]
			}
		}
		f, derr := Detect(head)
		if derr != nil {
			return nil, fmt.Errorf("%s: %w", name, derr)
		}
		rd.format = f
	}
	unit := rd.format.nativeUnit()
	if opt.TimeUnit > 0 {
		unit = opt.TimeUnit
	}
	rd.unit = int64(unit)
	return rd, nil
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// Format returns the format being read (the detected one when Options.Format was Auto).
func (r *Reader) Format() Format { return r.format }

// Stats returns the counts so far; after io.EOF they describe the whole trace.
func (r *Reader) Stats() Stats { return r.stats }

// Devices returns the blkparse device names ("8,16") indexed by Request.Device (before any
// merging); it is empty for other formats, whose device numbers are the trace's own.
func (r *Reader) Devices() []string {
	names := make([]string, len(r.blkDevs))
	for i, d := range r.blkDevs {
		names[i] = itoa(int64(d>>32)) + "," + itoa(int64(d&0xffffffff))
	}
	return names
}

// Next returns the next request, or io.EOF after the last one. A malformed line stops
// reading with a *LineError (every later call returns it again) unless Options.Lenient is
// set, in which case the line is skipped and counted.
func (r *Reader) Next() (Request, error) {
	if r.err != nil {
		return Request{}, r.err
	}
	for {
		ok, err := r.nextRaw()
		if err == io.EOF {
			r.err = io.EOF
			return Request{}, io.EOF
		}
		if err == errStop {
			return Request{}, r.err
		}
		r.stats.Lines++
		if err == nil && ok {
			var req Request
			if req, err = r.normalise(); err == nil {
				return req, nil
			}
		}
		if err != nil {
			if ferr := r.skip(err); ferr != nil {
				return Request{}, ferr
			}
			continue
		}
		r.stats.Ignored++
	}
}

// errStop marks a read error that ends the trace (r.err holds it, with its position).
var errStop = errors.New("trace: reading stopped")

// nextRaw reads the next line (or binary record) into r.cur: ok is false for lines that are
// not requests; an error is a malformed line (skipped in lenient mode), io.EOF the end, or
// errStop a read error that ends reading (in r.err).
func (r *Reader) nextRaw() (ok bool, err error) {
	if r.format == VSCSIBin {
		// A truncated last record is an error here and consumed: the next read ends the trace.
		return r.readRecord()
	}
	line, err := r.readLine()
	if err == io.EOF {
		return false, io.EOF
	}
	if err != nil && err != errLineTooLong {
		r.err = fmt.Errorf("%s:%d: %w", r.name, r.line+1, err)
		return false, errStop
	}
	if err != nil {
		return false, err
	}
	return r.parseLine(line)
}

// skip records a malformed line; in strict mode it returns the error that stops reading.
func (r *Reader) skip(err error) error {
	le := &LineError{File: r.name, Line: r.line, Err: err}
	if !r.opt.Lenient {
		r.err = le
		return le
	}
	r.stats.Skipped++
	if len(r.stats.Warnings) < r.opt.MaxWarnings {
		r.stats.Warnings = append(r.stats.Warnings, le.Error())
	} else {
		r.stats.WarningsDropped++
	}
	return nil
}

// readLine returns the next line without its line ending. The slice is valid until the
// next call.
func (r *Reader) readLine() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		for err == bufio.ErrBufferFull {
			_, err = r.br.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		r.line++
		return nil, errLineTooLong
	}
	if err == io.EOF {
		if len(line) == 0 {
			return nil, io.EOF
		}
	} else if err != nil {
		return nil, err
	}
	r.line++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// parseLine fills r.cur from one line; ok is false for lines that are not requests.
func (r *Reader) parseLine(line []byte) (ok bool, err error) {
	switch r.format {
	case DiskSim, Replayer:
		return r.parseASCII(line)
	case MSR:
		return r.parseMSR(line)
	case SPC:
		return r.parseSPC(line)
	case VSCSI:
		return r.parseVSCSI(line)
	case Blkparse:
		return r.parseBlkparse(line)
	}
	panic("trace: reader " + r.name + " has no format")
}

// isPreamble reports whether a line with these fields is blank, a '#' comment, or a header
// line before the first data line (its first field starts with a letter).
func (r *Reader) isPreamble() bool {
	f0 := r.fs.get(0)
	if r.fs.n == 0 || (r.fs.n == 1 && len(f0) == 0) || (len(f0) > 0 && f0[0] == '#') {
		return true
	}
	if !r.sawData && len(f0) > 0 && isLetter(f0[0]) {
		return true
	}
	r.sawData = true
	return false
}

// ReadAll reads every request of the trace from r. On error it returns the requests read
// so far with the stats.
func ReadAll(r io.Reader, name string, opt Options) ([]Request, Stats, error) {
	rd, err := NewReader(r, name, opt)
	if err != nil {
		return nil, Stats{}, err
	}
	var reqs []Request
	for {
		req, err := rd.Next()
		if err == io.EOF {
			return reqs, rd.Stats(), nil
		}
		if err != nil {
			return reqs, rd.Stats(), err
		}
		reqs = append(reqs, req)
	}
}

// ReadFile reads every request of the trace file at path.
func ReadFile(path string, opt Options) ([]Request, Stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Stats{}, err
	}
	defer f.Close()
	return ReadAll(f, path, opt)
}
