package trace

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// malformed lists one input per kind of bad line and format, with the exact message: the
// file name, the 1-based line and what is wrong with which field.
var malformed = []struct {
	name string
	f    Format
	text string
	want string
}{
	// Bad numbers.
	{"disksim bad time", DiskSim, "0 0 0 8 1\n1x0 0 0 8 1\n", `m.trace:2: time "1x0": not a number`},
	{"disksim bad lba", DiskSim, "0 0 0x10 8 1\n", `m.trace:1: address "0x10": not a number`},
	{"replayer bad device", Replayer, "0.5 d0 0 512 1\n", `m.trace:1: device "d0": not a number`},
	{"msr bad offset", MSR, "1,h,0,Read,12a,512,1\n", `m.trace:1: offset "12a": not a number`},
	{"msr bad response time", MSR, "1,h,0,Read,0,512,-\n", `m.trace:1: response time "-": not a number`},
	{"spc bad timestamp", SPC, "0,1,512,r,1.2.3\n", `m.trace:1: time "1.2.3": not a number`},
	{"vscsi bad op", VSCSI, "1,1,zz,512,0\n", `m.trace:1: op "zz": not a number`},
	{"blkparse bad sector", Blkparse, "8,0 1 1 0.5 1 D W 12x + 8 [p]\n", `m.trace:1: sector "12x": not a number`},
	{"blkparse bad device", Blkparse, "8,0 1 1 0.5 1 D W 1 + 8 [p]\nsda 1 1 0.6 1 D W 1 + 8 [p]\n", `m.trace:2: device "sda": not a blkparse event (want major,minor)`},
	{"number too large", DiskSim, "0 0 99999999999999999999 8 1\n", `m.trace:1: address "99999999999999999999": out of range`},
	{"sectors overflow bytes", DiskSim, "0 0 18014398509481984 8 1\n", `m.trace:1: address "18014398509481984": out of range`},
	{"time finer than 1 ps", Blkparse, "8,0 1 1 0.0000000000001 1 D W 1 + 8 [p]\n", `m.trace:1: time "0.0000000000001": finer than one picosecond`},
	// Wrong column counts.
	{"disksim 4 columns", DiskSim, "0 0 0 8\n", `m.trace:1: 4 columns, want 5 (time device address size type)`},
	{"replayer 6 columns", Replayer, "0 0 0 512 1 7\n", `m.trace:1: 6 columns, want 5 (time device address size type)`},
	{"msr 6 columns", MSR, "1,h,0,Read,0,512\n", `m.trace:1: 6 columns, want 7 (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)`},
	{"spc 4 columns", SPC, "0,1,512,r\n", `m.trace:1: 4 columns, want at least 5 (ASU,LBA,Size,Opcode,Timestamp)`},
	{"vscsi 6 columns", VSCSI, "1,1,28,512,0,9\n", `m.trace:1: 6 columns, want 5 (version,time,op,size,lbn)`},
	{"blkparse 5 columns", Blkparse, "8,0 1 1 0.5 1\n", `m.trace:1: 5 columns, want at least 6 (dev cpu seq time pid action)`},
	{"blkparse no rwbs", Blkparse, "8,0 1 1 0.5 1 D\n", `m.trace:1: 6 columns, want at least 7 (dev cpu seq time pid action rwbs …)`},
	// Negative sizes (and addresses).
	{"disksim negative size", DiskSim, "0 0 0 -8 1\n", `m.trace:1: size "-8": negative`},
	{"replayer negative offset", Replayer, "0 0 -512 512 1\n", `m.trace:1: address "-512": negative`},
	{"msr negative size", MSR, "1,h,0,Write,0,-512,1\n", `m.trace:1: size "-512": negative`},
	{"spc negative size", SPC, "0,1,-512,w,0.1\n", `m.trace:1: size "-512": negative`},
	{"vscsi negative size", VSCSI, "1,1,2a,-1,0\n", `m.trace:1: size "-1": negative`},
	{"negative time", Replayer, "-1.5 0 0 512 1\n", `m.trace:1: time "-1.5": negative`},
	{"zero size", Replayer, "1 0 0 0 1\n", `m.trace:1: size 0: a read must have data`},
	// Unknown ops.
	{"disksim type 2", DiskSim, "0 0 0 8 2\n", `m.trace:1: type "2": unknown op (want 0 = write, 1 = read)`},
	{"msr type", MSR, "1,h,0,Trim,0,512,1\n", `m.trace:1: type "Trim": unknown op (want Read or Write)`},
	{"spc opcode", SPC, "0,1,512,x,0.1\n", `m.trace:1: opcode "x": unknown op (want r or w)`},
	{"vscsi opcode", VSCSI, "1,1,ff,512,0\n", `m.trace:1: op "ff": unknown SCSI opcode`},
	{"blkparse rwbs op", Blkparse, "8,0 1 1 0.5 1 D X 1 + 8 [p]\n", `m.trace:1: rwbs "X": unknown op (want R, W, D or N)`},
	{"blkparse rwbs flag", Blkparse, "8,0 1 1 0.5 1 D WQ 1 + 8 [p]\n", `m.trace:1: rwbs "WQ": unknown flag 'Q'`},
	// Out-of-order timestamps.
	{"disksim out of order", DiskSim, "100 0 0 8 1\n200 0 0 8 1\n150 0 0 8 1\n", `m.trace:3: time "150": earlier than the previous request (line 2)`},
	{"blkparse out of order", Blkparse, "8,0 1 1 0.5 1 D W 1 + 8 [p]\n8,0 1 2 0.4 1 D W 1 + 8 [p]\n", `m.trace:2: time "0.4": earlier than the previous request (line 1)`},
	{"msr out of order", MSR, "20,h,0,Read,0,512,1\n10,h,0,Read,0,512,1\n", `m.trace:2: time "10": earlier than the previous request (line 1)`},
	// A line that does not fit the buffer.
	{"line too long", DiskSim, "0 0 0 8 1\n" + strings.Repeat("9", bufSize+10) + "\n", `m.trace:2: line longer than 65536 bytes`},
}

// TestMalformedStrict checks that each kind of bad line stops reading with a *LineError
// naming file and line, and that the error is sticky.
func TestMalformedStrict(t *testing.T) {
	for _, c := range malformed {
		t.Run(c.name, func(t *testing.T) {
			rd, err := NewReader(strings.NewReader(c.text), "m.trace", Options{Format: c.f})
			require.NoError(t, err)
			var got error
			for got == nil {
				_, got = rd.Next()
			}
			require.EqualError(t, got, c.want)
			var le *LineError
			require.True(t, errors.As(got, &le))
			require.Equal(t, "m.trace", le.File)
			_, again := rd.Next()
			require.Equal(t, got, again)
		})
	}
}

// TestMalformedLenient checks that lenient mode skips each bad line, counts it and keeps
// its message as a warning, and still returns the good lines around it.
func TestMalformedLenient(t *testing.T) {
	for _, c := range malformed {
		t.Run(c.name, func(t *testing.T) {
			_, st, err := ReadAll(strings.NewReader(c.text), "m.trace", Options{Format: c.f, Lenient: true})
			require.NoError(t, err)
			require.Equal(t, int64(1), st.Skipped)
			require.Equal(t, []string{c.want}, st.Warnings)
			lines := int64(strings.Count(c.text, "\n"))
			require.Equal(t, lines, st.Lines)
			require.Equal(t, lines-1, st.Requests+st.Ignored, "every other line is a request")
		})
	}
}

// TestLenientWarningsBounded checks that only MaxWarnings messages are kept.
func TestLenientWarningsBounded(t *testing.T) {
	text := "0 0 0 8 1\n" + strings.Repeat("x 0 0 8 1\n", 10) + "5 0 0 8 0\n"
	reqs, st, err := ReadAll(strings.NewReader(text), "w", Options{Format: DiskSim, Lenient: true, MaxWarnings: 3})
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	require.Equal(t, int64(10), st.Skipped)
	require.Equal(t, []string{`w:2: time "x": not a number`, `w:3: time "x": not a number`, `w:4: time "x": not a number`}, st.Warnings)
	require.Equal(t, int64(7), st.WarningsDropped)
}

// TestHeaderOnlyFirst checks that a non-numeric line is a header only before the first data
// line; later it is an error.
func TestHeaderOnlyFirst(t *testing.T) {
	_, _, err := ReadAll(strings.NewReader("time dev lba size type\n0 0 0 8 1\ntime dev lba size type\n"), "h", Options{Format: DiskSim})
	require.EqualError(t, err, `h:3: time "time": not a number`)
}

// TestStopAndResume checks that io.EOF is sticky and that ReadAll returns the requests
// read before an error.
func TestStopAndResume(t *testing.T) {
	rd, err := NewReader(strings.NewReader("0 0 0 8 1\n"), "e", Options{Format: DiskSim})
	require.NoError(t, err)
	_, err = rd.Next()
	require.NoError(t, err)
	for range 2 {
		_, err = rd.Next()
		require.Equal(t, io.EOF, err)
	}
	reqs, st, err := ReadAll(strings.NewReader("0 0 0 8 1\n1 0 0 8 1\nbad\n"), "e", Options{Format: DiskSim})
	require.EqualError(t, err, "e:3: 1 columns, want 5 (time device address size type)")
	require.Len(t, reqs, 2)
	require.Equal(t, int64(3), st.Lines)
}
