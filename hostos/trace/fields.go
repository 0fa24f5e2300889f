package trace

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxFields is how many fields of a line are kept; later fields are only counted.
const maxFields = 12

// fieldSet holds the fields of the current line as sub-slices of the line buffer, so
// splitting a line never allocates.
type fieldSet struct {
	f [maxFields][]byte
	n int // true number of fields, possibly more than maxFields
}

// get returns field i, or nil if the line has fewer fields (or more than maxFields and i is
// past them).
func (s *fieldSet) get(i int) []byte {
	if i < s.n && i < maxFields {
		return s.f[i]
	}
	return nil
}

// splitSpace splits line at runs of spaces and tabs.
func (s *fieldSet) splitSpace(line []byte) {
	s.n = 0
	i := 0
	for i < len(line) {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if s.n < maxFields {
			s.f[s.n] = line[i:j]
		}
		s.n++
		i = j
	}
}

// splitComma splits line at every comma, keeping empty fields, and trims the spaces around
// each field.
func (s *fieldSet) splitComma(line []byte) {
	s.n = 0
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != ',' {
			continue
		}
		if s.n < maxFields {
			s.f[s.n] = trimSpace(line[start:i])
		}
		s.n++
		start = i + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// trimSpace removes leading and trailing blanks (and the '\r' of CRLF files).
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// errNotNumber and friends are the reasons a numeric field is rejected; fieldErr wraps them
// with the field's name and text.
var (
	errNotNumber = errors.New("not a number")
	errNegative  = errors.New("negative")
	errRange     = errors.New("out of range")
	errFine      = errors.New("finer than one picosecond")
)

// fieldErr describes a bad field: `size "-8": negative`.
func fieldErr(name string, field []byte, reason error) error {
	return fmt.Errorf("%s %q: %w", name, field, reason)
}

// parseUint parses a non-negative decimal integer. A leading '-' gives errNegative so that
// negative sizes and addresses are reported as such.
func parseUint(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, errNotNumber
	}
	if b[0] == '-' {
		if len(b) > 1 && isDigits(b[1:]) {
			return 0, errNegative
		}
		return 0, errNotNumber
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errNotNumber
		}
		d := int64(c - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, errRange
		}
		v = v*10 + d
	}
	return v, nil
}

// parseHex parses a non-negative hexadecimal integer without prefix ("2a").
func parseHex(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 15 {
		if len(b) == 0 {
			return 0, errNotNumber
		}
		return 0, errRange
	}
	var v int64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | int64(c-'A'+10)
		default:
			return 0, errNotNumber
		}
	}
	return v, nil
}

func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// mulSize multiplies a count of units (sectors) by the unit size in bytes, reporting
// overflow.
func mulSize(n, unit int64) (int64, error) {
	if n > math.MaxInt64/unit {
		return 0, errRange
	}
	return n * unit, nil
}

// equalFold reports whether b equals the ASCII string s, ignoring case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if lower(b[i]) != lower(s[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isLetter(c byte) bool { return lower(c) >= 'a' && lower(c) <= 'z' }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
