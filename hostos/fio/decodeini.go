package fio

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// DecodeOptions are what a job file may refer to outside itself.
type DecodeOptions struct {
	// Env looks up environment variables for ${NAME} (nil: none is set).
	Env func(name string) (string, bool)
	// Include reads an include directive's file (nil: include directives are an error).
	Include Includer
	// Host are the values of $pagesize, $mb_memory and $ncpus (zero: DefaultHostFacts).
	Host HostFacts
}

// setAt records, per option, where it was last set: for validation messages.
type setAt map[string]struct {
	sec  string
	at   string
	line int
}

// iniDecoder collects a file's problems as it resolves its jobs.
type iniDecoder struct {
	opts     DecodeOptions
	mistakes []error
	refusals []refusedAt
}

// refusedAt is a refusal with where it was written.
type refusedAt struct {
	where, what string // "FILE:LINE: [SECTION] OPTION", the reason
	engine      bool   // the engine itself is refused
}

// decodeINI reads a fio INI job file: [global] sections set defaults for the job sections
// after them (fio's rule: a later [global] affects only later jobs); every other section is
// a job named after it (unless name= is given). A file that asks for something the model
// cannot do is refused with one line; otherwise every mistake is reported, each with file,
// line, section and option.
func decodeINI(data []byte, filename string, opts DecodeOptions) ([]Job, error) {
	if opts.Host == (HostFacts{}) {
		opts.Host = DefaultHostFacts
	}
	secs, err := splitINI(data, filename, opts.Include)
	d := &iniDecoder{opts: opts}
	if err != nil {
		d.mistakes = append(d.mistakes, err)
	}
	base := DefaultJob()
	base.IOEngine = "psync" // fio's default engine on Linux
	baseKB := int64(1024)
	baseAt := setAt{}
	var jobs []Job
	for _, s := range secs {
		kb := d.sectionKB(s, baseKB)
		if s.name == "global" {
			d.applySection(&base, s, kb, baseAt, true)
			base.GlobalOptions = append(base.GlobalOptions, base.Options...)
			base.Options = nil
			baseKB = kb
			continue
		}
		j := base
		j.Percentiles = append([]float64(nil), base.Percentiles...)
		if len(j.Percentiles) == 0 {
			j.Percentiles = nil
		}
		j.GlobalOptions = append([]Option(nil), base.GlobalOptions...)
		j.Name = s.name
		j.KBBase = kb
		at := setAt{}
		for k, v := range baseAt { // copying a map: order does not matter
			at[k] = v
		}
		d.applySection(&j, s, kb, at, false)
		d.finishJob(&j, s, at)
		jobs = append(jobs, j)
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no job sections (want a [name] section besides [global])", filename)
	}
	if err := checkWaitFor(jobs, filename); err != nil {
		return nil, err
	}
	return jobs, nil
}

// err returns the file's verdict: a refused engine, else every mistake, else one line for
// the first refused option naming the others.
func (d *iniDecoder) err() error {
	for _, r := range d.refusals {
		if r.engine {
			return fmt.Errorf("%s: %s", r.where, r.what)
		}
	}
	if len(d.refusals) == 0 {
		return dedupe(d.mistakes)
	}
	r := d.refusals[0]
	msg := fmt.Sprintf("%s: refused: %s", r.where, r.what)
	var others []string
	seen := map[string]bool{}
	for _, o := range d.refusals[1:] {
		name := o.where[strings.LastIndexByte(o.where, ' ')+1:]
		if !seen[name] {
			seen[name] = true
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		msg += fmt.Sprintf(" (also refused: %s)", strings.Join(others, ", "))
	}
	return dedupe(append(d.mistakes, errors.New(msg)))
}

// dedupe joins errs, each distinct message once (an option of [global] is checked for
// every job after it).
func dedupe(errs []error) error {
	seen := map[string]bool{}
	var out []error
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			out = append(out, e)
		}
	}
	return errors.Join(out...)
}

// sectionKB returns the kb_base a section sets (inherit if it sets none).
func (d *iniDecoder) sectionKB(s iniSection, inherit int64) int64 {
	kb := inherit
	for _, e := range s.entries {
		if e.key != "kb_base" {
			continue
		}
		var j Job
		if err := setKBBase(&j, e.val, setCtx{}); err != nil {
			d.mistakes = append(d.mistakes, fmt.Errorf("%s: [%s] kb_base: %w", e.at(), s.name, err))
			continue
		}
		kb = j.KBBase
	}
	return kb
}

// applySection applies the options of s to j, recording where each was set.
func (d *iniDecoder) applySection(j *Job, s iniSection, kb int64, at setAt, global bool) {
	for _, e := range s.entries {
		where := fmt.Sprintf("%s: [%s] %s", e.at(), s.name, e.key)
		o, ok := lookupOption(e.key)
		if !ok {
			d.mistakes = append(d.mistakes, fmt.Errorf("%s: unknown option%s (docs/fio.md lists fio's options and how each maps)", where, unknownHint(e.key)))
			continue
		}
		v, expr, err := expandValue(e.val, d.opts.Env, d.opts.Host)
		if err != nil {
			d.mistakes = append(d.mistakes, fmt.Errorf("%s: %w", where, err))
			continue
		}
		if e.bare {
			if !o.bool {
				d.mistakes = append(d.mistakes, fmt.Errorf("%s: needs a value (%s=...)", where, e.key))
				continue
			}
			v = "1"
		}
		j.Options = append(j.Options, Option{Key: e.key, Value: v})
		switch o.kind {
		case optNoEffect:
			continue
		case optRefused:
			d.refusals = append(d.refusals, refusedAt{where: where, what: o.note})
			continue
		case optRefusedUnless:
			if !o.acceptsDefault(v) {
				d.refusals = append(d.refusals, refusedAt{where: where, what: fmt.Sprintf("%s=%s: %s", e.key, v, o.note)})
			}
			continue
		case optEngine:
			at.mark(o, s.name, e)
			continue
		}
		if global && o.name == "name" {
			continue // fio accepts a name in [global]; jobs are named by their sections
		}
		if err := o.set(j, v, setCtx{kb: kb, expr: expr}); err != nil {
			if v == "" && strings.Contains(e.val, "${") {
				err = fmt.Errorf("%w (%s expands to nothing: fio substitutes the empty string for an unset environment variable)", err, e.val)
			}
			if isRefusal(err) {
				d.refusals = append(d.refusals, refusedAt{where: where, what: err.Error(), engine: o.name == "ioengine"})
			} else {
				d.mistakes = append(d.mistakes, fmt.Errorf("%s: %w", where, err))
			}
			continue
		}
		at.mark(o, s.name, e)
	}
}

// mark records that entry e of section sec set option o (under its name and aliases, as
// validation names fields by either).
func (at setAt) mark(o *option, sec string, e iniEntry) {
	w := struct {
		sec  string
		at   string
		line int
	}{sec, e.at(), e.line}
	at[o.name] = w
	for _, a := range o.aliases {
		at[a] = w
	}
}

// unknownHint suggests the option a misspelling probably meant.
func unknownHint(key string) string {
	switch key {
	case "threads":
		return " (fio's option is thread)"
	case "rate_poisson":
		return " (fio's option is rate_process=poisson)"
	}
	return ""
}

// finishJob checks a resolved job: its problems, each at the line that set the field, and
// the options of engines other than its own.
func (d *iniDecoder) finishJob(j *Job, s iniSection, at setAt) {
	if j.IOEngine == engineURingCmd && !j.appends() && !d.refused("write_mode") {
		// NVMe passthrough is modelled for Zone Append only: anything else refuses the
		// engine, as a refused engine does (a refused write_mode says so itself).
		w := at["ioengine"]
		d.refusals = append(d.refusals, refusedAt{where: fmt.Sprintf("%s: [%s] ioengine", w.at, w.sec), engine: true,
			what: "ioengine=io_uring_cmd without write_mode=zone_append: NVMe passthrough is modelled for Zone Append only (with zonemode=zbd; use ioengine=io_uring on /dev/nvme0nN for other I/O)"})
	}
	for _, p := range j.problems() {
		if w, ok := at[p.field]; ok {
			inh := ""
			if w.sec != s.name {
				inh = fmt.Sprintf(" (inherited by [%s])", s.name)
			}
			d.mistakes = append(d.mistakes, fmt.Errorf("%s: [%s] %s%s: %s", w.at, w.sec, p.field, inh, p.msg))
		} else {
			d.mistakes = append(d.mistakes, fmt.Errorf("%s:%d: [%s] %s: %s", s.file, s.line, s.name, p.field, p.msg))
		}
	}
	for _, o := range engineOptions {
		w, ok := at[o.name]
		if !ok || o.kind != optEngine {
			continue
		}
		msg := fmt.Sprintf("an option of %s, not of ioengine=%s", strings.Join(o.engines, ", "), j.IOEngine)
		if engineFate(o.engines) == "refused with the engine" {
			// The job asks for what only a refused engine does: a refusal, not a mistake.
			d.refusals = append(d.refusals, refusedAt{where: fmt.Sprintf("%s: [%s] %s", w.at, w.sec, o.name), what: msg + " (the simulator refuses those engines)"})
			continue
		}
		d.mistakes = append(d.mistakes, fmt.Errorf("%s: [%s] %s: %s", w.at, w.sec, o.name, msg))
	}
	if isSyncEngine(j.IOEngine) {
		j.IODepth = 1 // fio: iodepth has no effect on synchronous engines
	}
	for _, l := range []*string{&j.WriteLatLog, &j.WriteBWLog, &j.WriteIOPSLog} {
		if *l == "\x00" {
			// write_*_log without a name: fio uses the job name; a job named after a device
			// (/dev/sdb) logs as its base name (sdb), into --out.
			*l = path.Base(j.Name)
		}
	}
	if j.Verify != "" && !j.RW.Writes() && !j.RW.Reads() {
		d.mistakes = append(d.mistakes, fmt.Errorf("%s:%d: [%s] verify: a trim-only job has no data to verify", s.file, s.line, s.name))
	}
}

// checkWaitFor checks each wait_for names an earlier job with a unique name (fio HOWTO,
// wait_for: "no forward references", "it must have a unique name").
func checkWaitFor(jobs []Job, filename string) error {
	var errs []error
	for i, j := range jobs {
		if j.WaitFor == "" {
			continue
		}
		n, earlier := 0, false
		for k, o := range jobs {
			if o.Name == j.WaitFor {
				n++
				earlier = earlier || k < i
			}
		}
		switch {
		case n == 0 || !earlier:
			errs = append(errs, fmt.Errorf("%s: [%s] wait_for: no earlier job is named %q", filename, j.Name, j.WaitFor))
		case n > 1:
			errs = append(errs, fmt.Errorf("%s: [%s] wait_for: %d jobs are named %q; a waitee's name must be unique", filename, j.Name, n, j.WaitFor))
		}
	}
	return errors.Join(errs...)
}

// refused reports whether option name has been refused or its value found wrong.
func (d *iniDecoder) refused(name string) bool {
	for _, r := range d.refusals {
		if strings.HasSuffix(r.where, " "+name) {
			return true
		}
	}
	for _, m := range d.mistakes {
		if strings.Contains(m.Error(), "] "+name+": ") {
			return true
		}
	}
	return false
}
