package fio

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// iniEntry is one option line of an INI section: key=value, or a bare key.
type iniEntry struct {
	key, val string
	bare     bool // written without "=value"
	line     int
}

// iniSection is a [name] section and its option lines in file order.
type iniSection struct {
	name    string
	line    int
	entries []iniEntry
}

// MaxPercentiles bounds the length of percentile_list.
const MaxPercentiles = 64

// isINI reports whether data is a fio INI job file: its first line that is neither blank
// nor a comment ('#' or ';') is a [section] header or an option with '=' before any ':'.
// YAML job files start with "key:".
func isINI(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' || t[0] == ';' {
			continue
		}
		eq, colon := bytes.IndexByte(t, '='), bytes.IndexByte(t, ':')
		return t[0] == '[' || (eq > 0 && (colon < 0 || eq < colon))
	}
	return false
}

// splitINI splits an INI job file into sections. Comments are whole lines starting with
// '#' or ';' (after blanks), as in fio; every other non-blank line is a [section] header,
// key=value or a bare key.
func splitINI(data []byte, filename string) ([]iniSection, error) {
	var secs []iniSection
	var errs []error
	for i, l := range strings.Split(string(data), "\n") {
		n := i + 1
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '[' {
			if t[len(t)-1] != ']' || len(t) < 3 || strings.ContainsAny(t[1:len(t)-1], "[]") {
				errs = append(errs, fmt.Errorf("%s:%d: %q is not a [section] header", filename, n, t))
				continue
			}
			secs = append(secs, iniSection{name: strings.TrimSpace(t[1 : len(t)-1]), line: n})
			continue
		}
		if len(secs) == 0 {
			errs = append(errs, fmt.Errorf("%s:%d: %q comes before any [section]", filename, n, t))
			continue
		}
		e := iniEntry{line: n}
		if k, v, ok := strings.Cut(t, "="); ok {
			e.key, e.val = strings.TrimSpace(k), strings.TrimSpace(v)
		} else {
			e.key, e.bare = t, true
		}
		if e.key == "" {
			errs = append(errs, fmt.Errorf("%s:%d: [%s]: option with no name", filename, n, secs[len(secs)-1].name))
			continue
		}
		secs[len(secs)-1].entries = append(secs[len(secs)-1].entries, e)
	}
	return secs, errors.Join(errs...)
}

// iniOption is one fio option the INI reader knows: the Job field it sets (canonical key,
// used in validation messages) and how it parses. kb is the section's kb_base.
type iniOption struct {
	field string
	bool  bool // a bare key means 1
	set   func(j *Job, v string, kb int64) error
}

func iniInt(dst func(j *Job) *int64) func(j *Job, v string, kb int64) error {
	return func(j *Job, v string, _ int64) error { return setInt(dst)(j, v) }
}

func iniSize(dst func(j *Job) *int64) func(j *Job, v string, kb int64) error {
	return func(j *Job, v string, kb int64) error {
		n, err := ParseSizeBase(v, kb)
		if err == nil {
			*dst(j) = n
		}
		return err
	}
}

func iniBool(dst func(j *Job) *bool) func(j *Job, v string, kb int64) error {
	return func(j *Job, v string, _ int64) error { return setParsed(dst(j), v, ParseBool) }
}

func iniString(dst func(j *Job) *string) func(j *Job, v string, kb int64) error {
	return func(j *Job, v string, _ int64) error {
		if v == "" {
			return errors.New("needs a value")
		}
		*dst(j) = v
		return nil
	}
}

// syncEngines are fio's synchronous engines: one I/O at a time per job whatever iodepth
// says. asyncEngines keep iodepth I/Os in flight. Both run on the simulated NVMe driver.
var (
	syncEngines  = []string{"psync", "sync", "vsync", "pvsync", "pvsync2"}
	asyncEngines = []string{"libaio", "io_uring", "posixaio"}
)

func isSyncEngine(e string) bool {
	for _, s := range syncEngines {
		if e == s {
			return true
		}
	}
	return false
}

// iniOptions maps every accepted fio option name (aliases included) to its option.
var iniOptions = map[string]iniOption{
	"name": {"name", false, iniString(func(j *Job) *string { return &j.Name })},
	"rw":   {"rw", false, func(j *Job, v string, _ int64) error { return setParsed(&j.RW, v, ParseRW) }},
	"bs": {"bs", false, func(j *Job, v string, kb int64) error {
		if strings.Contains(v, ",") {
			return fmt.Errorf("%q: separate read/write sizes (a comma) are not supported", v)
		}
		n, err := ParseSizeBase(v, kb)
		if err == nil {
			j.BS, j.BSRangeMax, j.BSSplit = n, 0, nil // the last of bs, bsrange, bssplit wins
		}
		return err
	}},
	"bsrange":   {"bsrange", false, parseBSRange},
	"bssplit":   {"bssplit", false, parseBSSplit},
	"iodepth":   {"iodepth", false, iniInt(func(j *Job) *int64 { return &j.IODepth })},
	"numjobs":   {"numjobs", false, iniInt(func(j *Job) *int64 { return &j.NumJobs })},
	"size":      {"size", false, iniSize(func(j *Job) *int64 { return &j.Size })},
	"offset":    {"offset", false, iniSize(func(j *Job) *int64 { return &j.Offset })},
	"io_size":   {"io_size", false, iniSize(func(j *Job) *int64 { return &j.IOSize })},
	"rwmixread": {"rwmixread", false, iniInt(func(j *Job) *int64 { return &j.RWMixRead })},
	"rwmixwrite": {"rwmixread", false, func(j *Job, v string, _ int64) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("%q is not a percentage in [0, 100]", v)
		}
		j.RWMixRead = 100 - n
		return nil
	}},
	"runtime":    {"runtime", false, func(j *Job, v string, _ int64) error { return setParsed(&j.Runtime, v, ParseDuration) }},
	"ramp_time":  {"ramp_time", false, func(j *Job, v string, _ int64) error { return setParsed(&j.RampTime, v, ParseDuration) }},
	"startdelay": {"startdelay", false, func(j *Job, v string, _ int64) error { return setParsed(&j.StartDelay, v, ParseDuration) }},
	"time_based": {"time_based", true, iniBool(func(j *Job) *bool { return &j.TimeBased })},
	"direct":     {"direct", true, iniBool(func(j *Job) *bool { return &j.Direct })},
	"fsync":      {"fsync", false, iniInt(func(j *Job) *int64 { return &j.Fsync })},
	"randrepeat": {"randrepeat", true, func(j *Job, v string, _ int64) error {
		b, err := ParseBool(v)
		if err == nil && !b {
			return errors.New("0 is not supported: the simulator is deterministic; vary randseed instead")
		}
		return err
	}},
	"randseed": {"randseed", false, func(j *Job, v string, _ int64) error {
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			return fmt.Errorf("%q is not an unsigned integer", v)
		}
		j.RandSeed = n
		return nil
	}},
	"norandommap":     {"norandommap", true, iniBool(func(j *Job) *bool { return &j.NoRandomMap })},
	"filename":        {"filename", false, iniString(func(j *Job) *string { return &j.Filename })},
	"thread":          {"thread", true, iniBool(func(j *Job) *bool { return &j.Thread })},
	"group_reporting": {"group_reporting", true, iniBool(func(j *Job) *bool { return &j.GroupReporting })},
	"write_lat_log": {"write_lat_log", false, func(j *Job, v string, _ int64) error {
		if v == "" || strings.ContainsAny(v, "/\\") {
			return fmt.Errorf("%q is not a log name (a non-empty name without '/'; logs go to --out)", v)
		}
		j.WriteLatLog = v
		return nil
	}},
	"percentile_list": {"percentile_list", false, func(j *Job, v string, _ int64) error {
		parts := strings.Split(v, ":")
		if len(parts) > MaxPercentiles {
			return fmt.Errorf("has %d entries, more than %d", len(parts), MaxPercentiles)
		}
		ps := make([]float64, 0, len(parts))
		for _, p := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || !(f > 0 && f <= 100) {
				return fmt.Errorf("%q is not a percentile in (0, 100] (want a list such as 50:99:99.9)", p)
			}
			ps = append(ps, f)
		}
		j.Percentiles = ps
		return nil
	}},
	"ioengine": {"ioengine", false, func(j *Job, v string, _ int64) error {
		for _, e := range append(append([]string(nil), syncEngines...), asyncEngines...) {
			if v == e {
				j.IOEngine = v
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s, %s", v, strings.Join(asyncEngines, ", "), strings.Join(syncEngines, ", "))
	}},
}

// iniAliases are fio's alternative option names.
var iniAliases = map[string]string{"readwrite": "rw", "blocksize": "bs", "io_limit": "io_size"}

// lookupOption returns the option of key, following aliases.
func lookupOption(key string) (iniOption, bool) {
	if a, ok := iniAliases[key]; ok {
		key = a
	}
	o, ok := iniOptions[key]
	return o, ok
}

// sectionKB returns the kb_base a section sets (inherit if it sets none).
func sectionKB(s iniSection, inherit int64) (int64, *iniEntry, error) {
	kb := inherit
	var at *iniEntry
	for i := range s.entries {
		e := &s.entries[i]
		if e.key != "kb_base" {
			continue
		}
		switch e.val {
		case "1024":
			kb = 1024
		case "1000":
			kb = 1000
		default:
			return kb, e, fmt.Errorf("%q is not 1024 or 1000", e.val)
		}
		at = e
	}
	return kb, at, nil
}

// setAt records, per Job field, where it was last set: for validation messages.
type setAt map[string]struct {
	sec  string
	line int
}

// applySection applies the options of s to j, recording where each field was set.
func applySection(j *Job, s iniSection, kb int64, at setAt, filename string) []error {
	var errs []error
	for _, e := range s.entries {
		where := fmt.Sprintf("%s:%d: [%s] %s", filename, e.line, s.name, e.key)
		if e.key == "kb_base" {
			continue
		}
		o, ok := lookupOption(e.key)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: unknown option (see docs/fio.md for the options read)", where))
			continue
		}
		if s.name == "global" && o.field == "name" {
			errs = append(errs, fmt.Errorf("%s: a name belongs to a job section", where))
			continue
		}
		v := e.val
		if e.bare {
			if !o.bool {
				errs = append(errs, fmt.Errorf("%s: needs a value (%s=...)", where, e.key))
				continue
			}
			v = "1"
		}
		if err := o.set(j, v, kb); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		at[o.field] = struct {
			sec  string
			line int
		}{s.name, e.line}
	}
	return errs
}

// decodeINI reads a fio INI job file: [global] sections set defaults for the job sections
// after them (fio's rule: a later [global] affects only later jobs); every other section is
// a job named after it (unless name= is given). Every problem is reported with file, line,
// section and option.
func decodeINI(data []byte, filename string) ([]Job, error) {
	secs, err := splitINI(data, filename)
	errs := []error{}
	if err != nil {
		errs = append(errs, err)
	}
	base := DefaultJob()
	base.IOEngine = "psync" // fio's default engine on Linux
	baseKB := int64(1024)
	baseAt := setAt{}
	var jobs []Job
	for _, s := range secs {
		kb, kbAt, err := sectionKB(s, baseKB)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: [%s] kb_base: %w", filename, kbAt.line, s.name, err))
		}
		if s.name == "global" {
			errs = append(errs, applySection(&base, s, kb, baseAt, filename)...)
			baseKB = kb
			continue
		}
		j := base
		j.Percentiles = append([]float64(nil), base.Percentiles...)
		if len(j.Percentiles) == 0 {
			j.Percentiles = nil
		}
		j.Name = s.name
		at := setAt{}
		for k, v := range baseAt { // copying a map: order does not matter
			at[k] = v
		}
		errs = append(errs, applySection(&j, s, kb, at, filename)...)
		for _, p := range j.problems() {
			if w, ok := at[p.field]; ok {
				inh := ""
				if w.sec != s.name {
					inh = fmt.Sprintf(" (inherited by [%s])", s.name)
				}
				errs = append(errs, fmt.Errorf("%s:%d: [%s] %s%s: %s", filename, w.line, w.sec, p.field, inh, p.msg))
			} else {
				errs = append(errs, fmt.Errorf("%s:%d: [%s] %s: %s", filename, s.line, s.name, p.field, p.msg))
			}
		}
		if isSyncEngine(j.IOEngine) {
			j.IODepth = 1 // fio: iodepth has no effect on synchronous engines
		}
		jobs = append(jobs, j)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no job sections (want a [name] section besides [global])", filename)
	}
	return jobs, nil
}
