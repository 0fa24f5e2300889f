package mqsim

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Setting is one fastdrain configuration key the import sets.
type Setting struct {
	Key   string // dotted path, e.g. "flash.die.page_size"
	Value any    // int, float64, bool or string (unit strings such as "75us")
	From  string // the MQSim element and value it came from, for the YAML comment
}

// Note is an MQSim element with no exact equivalent: mapped to the nearest one (Nearest) or
// not mapped at all.
type Note struct {
	Element string
	Value   string
	Line    int
	Why     string
	Nearest bool // a setting was still made, approximately
	// Warning marks a value that changes a result MQSim does not model the same way, so
	// that the importer prints it as well as listing it.
	Warning bool
}

// Result is an imported configuration.
type Result struct {
	Settings []Setting
	Notes    []Note
}

// element is one leaf element read from the file.
type element struct {
	name, value string
	line        int
}

// Import reads an MQSim ssdconfig.xml from r; name names it in errors.
func Import(r io.Reader, name string) (*Result, error) {
	data, err := readInput(r, name, "an MQSim ssdconfig.xml")
	if err != nil {
		return nil, err
	}
	leaves, err := readLeaves(data, name)
	if err != nil {
		return nil, err
	}
	im := &importer{name: name, res: &Result{}, seen: map[string]element{}}
	for _, e := range leaves {
		if prev, ok := im.seen[e.name]; ok {
			return nil, fmt.Errorf("%s:%d: %s is given twice (first on line %d)", name, e.line, e.name, prev.line)
		}
		im.seen[e.name] = e
	}
	for _, e := range leaves {
		im.element(e)
	}
	im.derived()
	if len(im.errs) > 0 {
		return nil, errors.Join(im.errs...)
	}
	sort.SliceStable(im.res.Notes, func(i, j int) bool { return im.res.Notes[i].Line < im.res.Notes[j].Line })
	return im.res, nil
}

// maxFile bounds the input: MQSim's own files are under 4 KB.
const maxFile = 1 << 20

// readInput reads an MQSim file of at most maxFile bytes; what names the kind in errors.
func readInput(r io.Reader, name, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s: larger than %d bytes: not %s", name, maxFile, what)
	}
	return data, nil
}

// newDecoder returns an XML decoder of data that reads MQSim's us-ascii (ASCII is UTF-8;
// other charsets are refused), and a function giving the line it has reached.
func newDecoder(data []byte) (*xml.Decoder, func() int) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "us-ascii", "ascii", "utf-8":
			return in, nil
		}
		return nil, fmt.Errorf("encoding %q is not supported (want us-ascii or utf-8)", label)
	}
	return dec, func() int { return 1 + bytes.Count(data[:min(int(dec.InputOffset()), len(data))], []byte("\n")) }
}

// sets are the parameter-set elements that hold leaves; anything else with children is
// refused.
var sets = map[string]bool{"Execution_Parameter_Set": true, "Host_Parameter_Set": true,
	"Device_Parameter_Set": true, "Flash_Parameter_Set": true}

// readLeaves returns the leaf elements in file order, checking the nesting.
func readLeaves(data []byte, name string) ([]element, error) {
	dec, line := newDecoder(data)
	var stack []string
	var text strings.Builder
	var leaves []element
	leaf := false
	root := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not well-formed XML: %w", name, line(), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				if root {
					return nil, fmt.Errorf("%s:%d: a second root element <%s>", name, line(), t.Name.Local)
				}
				if t.Name.Local != "Execution_Parameter_Set" {
					return nil, fmt.Errorf("%s:%d: root element <%s>: want <Execution_Parameter_Set> (an MQSim ssdconfig.xml)", name, line(), t.Name.Local)
				}
				root = true
			} else if !sets[stack[len(stack)-1]] {
				return nil, fmt.Errorf("%s:%d: <%s> inside <%s>, which holds a value", name, line(), t.Name.Local, stack[len(stack)-1])
			}
			stack = append(stack, t.Name.Local)
			text.Reset()
			leaf = !sets[t.Name.Local]
		case xml.EndElement:
			if leaf {
				leaves = append(leaves, element{name: t.Name.Local, value: strings.TrimSpace(text.String()), line: line()})
			}
			stack = stack[:len(stack)-1]
			leaf = false
		case xml.CharData:
			if leaf {
				text.Write(t)
			} else if s := strings.TrimSpace(string(t)); s != "" {
				return nil, fmt.Errorf("%s:%d: text %q outside a value element", name, line(), s)
			}
		}
	}
	if !root {
		return nil, fmt.Errorf("%s: no <Execution_Parameter_Set>: not an MQSim ssdconfig.xml", name)
	}
	return leaves, nil
}

// importer maps elements to settings and notes.
type importer struct {
	name string
	res  *Result
	seen map[string]element
	errs []error
}

func (im *importer) set(key string, v any, e element) {
	im.res.Settings = append(im.res.Settings, Setting{Key: key, Value: v, From: e.name + " = " + e.value})
}

func (im *importer) note(e element, nearest bool, why string, args ...any) {
	im.res.Notes = append(im.res.Notes, Note{Element: e.name, Value: e.value, Line: e.line, Why: fmt.Sprintf(why, args...), Nearest: nearest})
}

// warn records a setting made exactly that still changes a result MQSim computes
// otherwise.
func (im *importer) warn(e element, why string, args ...any) {
	im.res.Notes = append(im.res.Notes, Note{Element: e.name, Value: e.value, Line: e.line, Why: fmt.Sprintf(why, args...), Nearest: true, Warning: true})
}

func (im *importer) fail(e element, why string, args ...any) {
	im.errs = append(im.errs, fmt.Errorf("%s:%d: %s %q: %s", im.name, e.line, e.name, e.value, fmt.Sprintf(why, args...)))
}

// integer parses e as an integer in [lo, hi].
func (im *importer) integer(e element, lo, hi int64) (int64, bool) {
	n, err := strconv.ParseInt(e.value, 10, 64)
	if err != nil {
		im.fail(e, "not an integer")
		return 0, false
	}
	if n < lo || n > hi {
		im.fail(e, "must be in %d … %d", lo, hi)
		return 0, false
	}
	return n, true
}

// fraction parses e as a number in [lo, hi].
func (im *importer) fraction(e element, lo, hi float64) (float64, bool) {
	f, err := strconv.ParseFloat(e.value, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		im.fail(e, "not a number")
		return 0, false
	}
	if f < lo || f > hi {
		im.fail(e, "must be in %v … %v", lo, hi)
		return 0, false
	}
	return f, true
}

// boolean parses MQSim's true/false.
func (im *importer) boolean(e element) (bool, bool) {
	switch strings.ToLower(e.value) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	im.fail(e, "want true or false")
	return false, false
}

// oneOf checks e against MQSim's allowed words.
func (im *importer) oneOf(e element, words ...string) (string, bool) {
	for _, w := range words {
		if strings.EqualFold(e.value, w) {
			return w, true
		}
	}
	im.fail(e, "want one of %s", strings.Join(words, ", "))
	return "", false
}

// ns is a duration in nanoseconds as a fastdrain unit string.
func ns(n int64) string { return strconv.FormatInt(n, 10) + "ns" }
