package fio

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
)

// iniEntry is one option line of an INI section: key=value, or a bare key.
type iniEntry struct {
	key, val string
	bare     bool   // written without "=value"
	file     string // the file the line is in (the job file or an include)
	line     int
}

// at returns "FILE:LINE" of the entry.
func (e iniEntry) at() string { return fmt.Sprintf("%s:%d", e.file, e.line) }

// iniSection is a [name] section and its option lines in file order.
type iniSection struct {
	name    string
	file    string
	line    int
	entries []iniEntry
}

// MaxPercentiles bounds the length of percentile_list (fio HOWTO, percentile_list: "the
// maximum length of the list is 20"; this reader allows up to 64, the JSON writer's bound).
const MaxPercentiles = 64

// maxIncludeDepth bounds nested include directives, so an include cycle is an error and not
// an endless recursion.
const maxIncludeDepth = 16

// isINI reports whether data is a fio INI job file: its first line that is neither blank
// nor a comment ('#' or ';') is a [section] header, an include directive, or an option with
// '=' before any ':'. YAML job files start with "key:".
func isINI(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' || t[0] == ';' {
			continue
		}
		if bytes.HasPrefix(t, []byte("include ")) {
			return true
		}
		eq, colon := bytes.IndexByte(t, '='), bytes.IndexByte(t, ':')
		return t[0] == '[' || (eq > 0 && (colon < 0 || eq < colon))
	}
	return false
}

// stripComment cuts a line at its first ';' or '#', as fio does to every job-file line
// (parse.c, strip_blank_end: the rest of the line from either character is a comment), and
// trims blanks. So "numjobs=4 ; four threads" is numjobs=4, and a value cannot contain
// either character.
func stripComment(l string) string {
	if i := strings.IndexAny(l, ";#"); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}

// Includer reads the file an include directive names (fio HOWTO, "Job file format":
// "include filename" pulls the named file's option lines into the section it is in).
// name is as written, resolved against the including file's directory by the caller.
type Includer func(name string) ([]byte, error)

// iniReader splits job files into sections, following include directives.
type iniReader struct {
	include Includer
	errs    []error
	secs    []iniSection
}

// splitINI splits an INI job file into sections. Comments run from ';' or '#' to the end of
// the line (stripComment); every other non-blank line is a [section] header, an include
// directive, key=value or a bare key. Included files may hold option lines and further
// includes but no sections (fio HOWTO, "Job file format").
func splitINI(data []byte, filename string, include Includer) ([]iniSection, error) {
	r := &iniReader{include: include}
	r.read(data, filename, 0, false)
	return r.secs, errors.Join(r.errs...)
}

// read adds the lines of one file; inInclude is true for an included file.
func (r *iniReader) read(data []byte, filename string, depth int, inInclude bool) {
	for i, raw := range strings.Split(string(data), "\n") {
		n := i + 1
		t := stripComment(raw)
		if t == "" {
			continue
		}
		bad := func(format string, args ...any) {
			r.errs = append(r.errs, fmt.Errorf("%s:%d: %s", filename, n, fmt.Sprintf(format, args...)))
		}
		if t[0] == '[' {
			if inInclude {
				bad("%q: an included file may not hold [section] headers (fio's rule)", t)
				continue
			}
			if t[len(t)-1] != ']' || len(t) < 3 || strings.ContainsAny(t[1:len(t)-1], "[]") {
				bad("%q is not a [section] header", t)
				continue
			}
			r.secs = append(r.secs, iniSection{name: strings.TrimSpace(t[1 : len(t)-1]), file: filename, line: n})
			continue
		}
		if name, ok := strings.CutPrefix(t, "include "); ok {
			r.includeFile(strings.TrimSpace(name), filename, n, depth)
			continue
		}
		if len(r.secs) == 0 {
			bad("%q comes before any [section]", t)
			continue
		}
		sec := &r.secs[len(r.secs)-1]
		e := iniEntry{file: filename, line: n}
		if k, v, ok := strings.Cut(t, "="); ok {
			e.key, e.val = strings.TrimSpace(k), strings.TrimSpace(v)
		} else {
			e.key, e.bare = t, true
		}
		if e.key == "" {
			bad("[%s]: option with no name", sec.name)
			continue
		}
		sec.entries = append(sec.entries, e)
	}
}

// includeFile reads an include directive's file into the current section.
func (r *iniReader) includeFile(name, from string, line, depth int) {
	where := fmt.Sprintf("%s:%d: include %s", from, line, name)
	switch {
	case name == "":
		r.errs = append(r.errs, fmt.Errorf("%s: names no file", where))
		return
	case r.include == nil:
		r.errs = append(r.errs, fmt.Errorf("%s: include directives need a job file on disk (this one was read from a stream)", where))
		return
	case depth >= maxIncludeDepth:
		r.errs = append(r.errs, fmt.Errorf("%s: includes nest more than %d deep (an include cycle?)", where, maxIncludeDepth))
		return
	case len(r.secs) == 0:
		r.errs = append(r.errs, fmt.Errorf("%s: comes before any [section]", where))
		return
	}
	full := name
	if !path.IsAbs(name) {
		full = path.Join(path.Dir(from), name)
	}
	data, err := r.include(full)
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %v", where, err))
		return
	}
	r.read(data, full, depth+1, true)
}
