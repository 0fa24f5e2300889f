package trace

import (
	"bytes"
	"errors"
)

// detectLines is how many data lines Detect looks at.
const detectLines = 64

// errUndetected is returned when no format fits the first lines.
var errUndetected = errors.New("cannot detect the trace format from its first lines; set the format explicitly")

// Detect guesses the format of a trace from its beginning (NewReader passes the first
// 64 KiB). Blank lines, '#' comments and header lines are skipped. The first line that
// decides wins, in this order:
//
//   - a blkparse event: "maj,min" then at least five whitespace-separated fields, the
//     fourth a time with a decimal point;
//   - a CSV header: "version,…" (VSCSI), "Timestamp,…" with 7 columns (MSR), "ASU,…" (SPC);
//   - a CSV data line: 7 columns with Read/Write in the fourth (MSR); 5 or more with a
//     single r/R/w/W in the fourth (SPC); 5 with a hex opcode of one or two digits in the
//     third (VSCSI).
//
// Lines of five whitespace-separated numbers are DiskSim or Replayer, which share a
// layout; these are told apart over all the lines looked at: Replayer if any time has a
// decimal point (milliseconds with decimals) or every offset and size is a multiple of
// 512 (bytes), otherwise DiskSim (integer nanoseconds, sizes in sectors such as 16 or 21).
// Set Options.Format when a trace is ambiguous.
func Detect(head []byte) (Format, error) {
	var fs fieldSet
	ascii, dotTime, bytesLike := 0, false, true
	seen := 0
	for len(head) > 0 && seen < detectLines {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = trimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		seen++
		fs.splitSpace(line)
		if fs.n >= 6 {
			if _, ok := parseDevPair(fs.get(0)); ok && bytes.IndexByte(fs.get(3), '.') >= 0 {
				return Blkparse, nil
			}
		}
		if bytes.IndexByte(line, ',') >= 0 {
			fs.splitComma(line)
			if f, ok := detectCSV(&fs); ok {
				return f, nil
			}
			continue
		}
		if fs.n == 5 && allDigitsOrDecimal(&fs) {
			ascii++
			if bytes.IndexByte(fs.get(0), '.') >= 0 {
				dotTime = true
			}
			off, _ := parseUint(fs.get(2))
			size, _ := parseUint(fs.get(3))
			if off%512 != 0 || size%512 != 0 || size == 0 {
				bytesLike = false
			}
		}
	}
	if ascii > 0 {
		if dotTime || bytesLike {
			return Replayer, nil
		}
		return DiskSim, nil
	}
	return Auto, errUndetected
}

// detectCSV recognises a CSV header or data line.
func detectCSV(fs *fieldSet) (Format, bool) {
	f0, f2, f3 := fs.get(0), fs.get(2), fs.get(3)
	switch {
	case equalFold(f0, "version") && fs.n == 5:
		return VSCSI, true
	case equalFold(f0, "timestamp") && fs.n == 7:
		return MSR, true
	case equalFold(f0, "asu") && fs.n >= 5:
		return SPC, true
	case fs.n == 7 && (equalFold(f3, "read") || equalFold(f3, "write")):
		return MSR, true
	case fs.n >= 5 && len(f3) == 1 && (lower(f3[0]) == 'r' || lower(f3[0]) == 'w'):
		return SPC, true
	case fs.n == 5 && isDigits(f0) && len(f2) >= 1 && len(f2) <= 2:
		if _, err := parseHex(f2); err == nil {
			return VSCSI, true
		}
	}
	return Auto, false
}

// allDigitsOrDecimal reports whether every field is a non-negative decimal number.
func allDigitsOrDecimal(fs *fieldSet) bool {
	for i := range fs.n {
		b := fs.get(i)
		if _, err := parseStamp(b, 1_000_000_000_000); err != nil && err != errFine {
			return false
		}
	}
	return true
}
