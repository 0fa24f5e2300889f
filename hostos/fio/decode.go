package fio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// rawJob is a job section as written: each present key keeps its YAML node (for the value
// and its line); absent keys are nil.
type rawJob struct {
	Name      yaml.Node `yaml:"name"`
	RW        yaml.Node `yaml:"rw"`
	BS        yaml.Node `yaml:"bs"`
	IODepth   yaml.Node `yaml:"iodepth"`
	NumJobs   yaml.Node `yaml:"numjobs"`
	Size      yaml.Node `yaml:"size"`
	Offset    yaml.Node `yaml:"offset"`
	RWMixRead yaml.Node `yaml:"rwmixread"`
	Runtime   yaml.Node `yaml:"runtime"`
	IOSize    yaml.Node `yaml:"io_size"`
	Direct    yaml.Node `yaml:"direct"`
	Fsync     yaml.Node `yaml:"fsync"`
	RampTime  yaml.Node `yaml:"ramp_time"`
	RandSeed  yaml.Node `yaml:"randseed"`

	// fio options shared with the INI reader (iniOptions); sizes keep the YAML convention.
	BlockSize      yaml.Node `yaml:"blocksize"`
	ReadWrite      yaml.Node `yaml:"readwrite"`
	RWMixWrite     yaml.Node `yaml:"rwmixwrite"`
	BSRange        yaml.Node `yaml:"bsrange"`
	BSSplit        yaml.Node `yaml:"bssplit"`
	IOLimit        yaml.Node `yaml:"io_limit"`
	TimeBased      yaml.Node `yaml:"time_based"`
	StartDelay     yaml.Node `yaml:"startdelay"`
	RandRepeat     yaml.Node `yaml:"randrepeat"`
	NoRandomMap    yaml.Node `yaml:"norandommap"`
	IOEngine       yaml.Node `yaml:"ioengine"`
	Filename       yaml.Node `yaml:"filename"`
	Thread         yaml.Node `yaml:"thread"`
	GroupReporting yaml.Node `yaml:"group_reporting"`
	WriteLatLog    yaml.Node `yaml:"write_lat_log"`
	PercentileList yaml.Node `yaml:"percentile_list"`
	RandomDist     yaml.Node `yaml:"random_distribution"`
	Rate           yaml.Node `yaml:"rate"`
	RateIOPS       yaml.Node `yaml:"rate_iops"`
	RateProcess    yaml.Node `yaml:"rate_process"`
	BlockAlign     yaml.Node `yaml:"blockalign"`
}

// shared returns the field of a key the INI reader also knows, parsed by its iniOption
// with every size unit a power of 1024 (yamlKB).
func shared(key string, node func(r *rawJob) *yaml.Node) field {
	return field{key, node, func(j *Job, v string) error {
		o, _ := lookupOption(key)
		return o.set(j, v, setCtx{kb: yamlKB})
	}}
}

// rawFile is the document: a global section and the job list.
type rawFile struct {
	Global *rawJob   `yaml:"global"`
	Jobs   *[]rawJob `yaml:"jobs"`
}

// field binds one key of a rawJob to the Job field it sets.
type field struct {
	key  string
	node func(r *rawJob) *yaml.Node
	set  func(j *Job, v string) error
}

func setInt(dst func(j *Job) *int64) func(j *Job, v string) error {
	return func(j *Job, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", v)
		}
		*dst(j) = n
		return nil
	}
}

func setSize(dst func(j *Job) *int64) func(j *Job, v string) error {
	return func(j *Job, v string) error {
		n, err := ParseSize(v)
		if err == nil {
			*dst(j) = n
		}
		return err
	}
}

// setParsed stores parse(v) in dst when it parses.
func setParsed[T any](dst *T, v string, parse func(string) (T, error)) error {
	x, err := parse(v)
	if err == nil {
		*dst = x
	}
	return err
}

// fields lists every key in document order.
var fields = []field{
	{"name", func(r *rawJob) *yaml.Node { return present(&r.Name) }, func(j *Job, v string) error { j.Name = v; return nil }},
	{"rw", func(r *rawJob) *yaml.Node { return present(&r.RW) }, func(j *Job, v string) error { return setParsed(&j.RW, v, ParseRW) }},
	{"bs", func(r *rawJob) *yaml.Node { return present(&r.BS) }, setSize(func(j *Job) *int64 { return &j.BS })},
	{"iodepth", func(r *rawJob) *yaml.Node { return present(&r.IODepth) }, setInt(func(j *Job) *int64 { return &j.IODepth })},
	{"numjobs", func(r *rawJob) *yaml.Node { return present(&r.NumJobs) }, setInt(func(j *Job) *int64 { return &j.NumJobs })},
	{"size", func(r *rawJob) *yaml.Node { return present(&r.Size) }, setSize(func(j *Job) *int64 { return &j.Size })},
	{"offset", func(r *rawJob) *yaml.Node { return present(&r.Offset) }, setSize(func(j *Job) *int64 { return &j.Offset })},
	{"rwmixread", func(r *rawJob) *yaml.Node { return present(&r.RWMixRead) }, setInt(func(j *Job) *int64 { return &j.RWMixRead })},
	{"runtime", func(r *rawJob) *yaml.Node { return present(&r.Runtime) }, func(j *Job, v string) error { return setParsed(&j.Runtime, v, ParseDuration) }},
	{"io_size", func(r *rawJob) *yaml.Node { return present(&r.IOSize) }, setSize(func(j *Job) *int64 { return &j.IOSize })},
	{"direct", func(r *rawJob) *yaml.Node { return present(&r.Direct) }, func(j *Job, v string) error { return setParsed(&j.Direct, v, ParseBool) }},
	{"fsync", func(r *rawJob) *yaml.Node { return present(&r.Fsync) }, setInt(func(j *Job) *int64 { return &j.Fsync })},
	{"ramp_time", func(r *rawJob) *yaml.Node { return present(&r.RampTime) }, func(j *Job, v string) error { return setParsed(&j.RampTime, v, ParseDuration) }},
	{"randseed", func(r *rawJob) *yaml.Node { return present(&r.RandSeed) }, func(j *Job, v string) error {
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			return fmt.Errorf("%q is not an unsigned integer", v)
		}
		j.RandSeed = n
		return nil
	}},
	shared("blocksize", func(r *rawJob) *yaml.Node { return present(&r.BlockSize) }),
	shared("readwrite", func(r *rawJob) *yaml.Node { return present(&r.ReadWrite) }),
	shared("rwmixwrite", func(r *rawJob) *yaml.Node { return present(&r.RWMixWrite) }),
	shared("bsrange", func(r *rawJob) *yaml.Node { return present(&r.BSRange) }),
	shared("bssplit", func(r *rawJob) *yaml.Node { return present(&r.BSSplit) }),
	shared("io_limit", func(r *rawJob) *yaml.Node { return present(&r.IOLimit) }),
	shared("time_based", func(r *rawJob) *yaml.Node { return present(&r.TimeBased) }),
	shared("startdelay", func(r *rawJob) *yaml.Node { return present(&r.StartDelay) }),
	shared("randrepeat", func(r *rawJob) *yaml.Node { return present(&r.RandRepeat) }),
	shared("norandommap", func(r *rawJob) *yaml.Node { return present(&r.NoRandomMap) }),
	shared("ioengine", func(r *rawJob) *yaml.Node { return present(&r.IOEngine) }),
	shared("filename", func(r *rawJob) *yaml.Node { return present(&r.Filename) }),
	shared("thread", func(r *rawJob) *yaml.Node { return present(&r.Thread) }),
	shared("group_reporting", func(r *rawJob) *yaml.Node { return present(&r.GroupReporting) }),
	shared("write_lat_log", func(r *rawJob) *yaml.Node { return present(&r.WriteLatLog) }),
	shared("percentile_list", func(r *rawJob) *yaml.Node { return present(&r.PercentileList) }),
	shared("random_distribution", func(r *rawJob) *yaml.Node { return present(&r.RandomDist) }),
	shared("rate", func(r *rawJob) *yaml.Node { return present(&r.Rate) }),
	shared("rate_iops", func(r *rawJob) *yaml.Node { return present(&r.RateIOPS) }),
	shared("rate_process", func(r *rawJob) *yaml.Node { return present(&r.RateProcess) }),
	shared("blockalign", func(r *rawJob) *yaml.Node { return present(&r.BlockAlign) }),
}

// present returns n if the key was in the document, else nil.
func present(n *yaml.Node) *yaml.Node {
	if n.Kind == 0 {
		return nil
	}
	return n
}

// unknownField matches yaml.v3's message for a key that is not in the struct.
var unknownField = regexp.MustCompile(`^line (\d+): field (.+) not found in type `)

// Decode reads a job file, a fio INI file (detected by a [section] header as its first
// line that is not blank or a comment) or the YAML schema (see the package documentation),
// and returns its resolved jobs: fio defaults, overridden by global, overridden by each job.
// filename is used in messages only. Every problem is reported, each with file, line and
// field path. An INI file read this way may not use include directives and sees no
// environment variables; DecodeWith gives it both.
func Decode(r io.Reader, filename string) ([]Job, error) {
	return DecodeWith(r, filename, DecodeOptions{})
}

// DecodeWith is Decode with the environment, include reader and host values an INI file
// may refer to.
func DecodeWith(r io.Reader, filename string, opts DecodeOptions) ([]Job, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	if isINI(data) {
		return decodeINI(data, filename, opts)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var raw rawFile
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty job file (want a jobs: list)", filename)
		}
		return nil, yamlError(filename, err)
	}
	if raw.Jobs == nil || len(*raw.Jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs (want a non-empty jobs: list)", filename)
	}
	var errs []error
	base := DefaultJob()
	global := raw.Global
	if global == nil {
		global = &rawJob{}
	}
	if global.Name.Kind != 0 {
		errs = append(errs, fmt.Errorf("%s:%d: global.name: a name belongs to a job", filename, global.Name.Line))
	}
	// Global values are applied once to the base so that a bad one is reported once.
	for _, f := range fields {
		if n := f.node(global); n != nil {
			if err := apply(f, &base, n); err != nil {
				errs = append(errs, fmt.Errorf("%s:%d: global.%s: %w", filename, n.Line, f.key, err))
			}
		}
	}
	jobs := make([]Job, len(*raw.Jobs))
	for i := range *raw.Jobs {
		rj := &(*raw.Jobs)[i]
		j := base
		j.Name = fmt.Sprintf("job%d", i)
		for _, f := range fields {
			if n := f.node(rj); n != nil {
				if err := apply(f, &j, n); err != nil {
					errs = append(errs, fmt.Errorf("%s:%d: jobs[%d].%s: %w", filename, n.Line, i, f.key, err))
				}
			}
		}
		for _, p := range j.problems() {
			where := fmt.Sprintf("jobs[%d].%s", i, p.field)
			line := 0
			for _, f := range fields {
				if f.key != p.field {
					continue
				}
				if n := f.node(rj); n != nil {
					line = n.Line
				} else if n := f.node(global); n != nil {
					line, where = n.Line, where+" (inherited from global)"
				}
			}
			if line > 0 {
				errs = append(errs, fmt.Errorf("%s:%d: %s: %s", filename, line, where, p.msg))
			} else {
				errs = append(errs, fmt.Errorf("%s: %s: %s", filename, where, p.msg))
			}
		}
		if isSyncEngine(j.IOEngine) && j.IODepth >= 1 {
			j.IODepth = 1 // fio: iodepth has no effect on synchronous engines
		}
		yamlTarget(&j)
		jobs[i] = j
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return jobs, nil
}

// apply sets field f of j from node n, which must be a scalar.
func apply(f field, j *Job, n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("want a single value, not a %s", kindName(n.Kind))
	}
	return f.set(j, n.Value)
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// yamlError rewrites yaml.v3's errors as "file:line: message", unknown keys as
// "file:line: unknown key \"k\"".
func yamlError(filename string, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("%s: %w", filename, err)
	}
	var errs []error
	for _, e := range te.Errors {
		if m := unknownField.FindStringSubmatch(e); m != nil {
			errs = append(errs, fmt.Errorf("%s:%s: unknown key %q", filename, m[1], m[2]))
			continue
		}
		if rest, ok := cutLine(e); ok {
			errs = append(errs, fmt.Errorf("%s:%s", filename, rest))
			continue
		}
		errs = append(errs, fmt.Errorf("%s: %s", filename, e))
	}
	return errors.Join(errs...)
}

var lineMsg = regexp.MustCompile(`^line (\d+): (.*)$`)

// cutLine turns "line 7: msg" into "7: msg".
func cutLine(e string) (string, bool) {
	m := lineMsg.FindStringSubmatch(e)
	if m == nil {
		return "", false
	}
	return m[1] + ": " + m[2], true
}

// yamlTarget gives a YAML job without a filename the target YAML jobs have always had
// (docs/fio.md, "YAML jobs"): the namespace for direct jobs, the one shared file
// "fio.data" for buffered ones; and lists its resolved options for fio's "job options".
func yamlTarget(j *Job) {
	if j.Filename == "" {
		j.Filename = "fio.data"
		if j.Direct {
			j.Filename = "/dev/nvme0n1"
		}
	}
	kv := func(k, v string) { j.Options = append(j.Options, Option{Key: k, Value: v}) }
	kv("rw", j.RW.String())
	kv("bs", strconv.FormatInt(j.BS, 10))
	kv("iodepth", strconv.FormatInt(j.IODepth, 10))
	kv("numjobs", strconv.FormatInt(j.NumJobs, 10))
	kv("size", strconv.FormatInt(j.Size, 10))
	kv("offset", strconv.FormatInt(j.Offset, 10))
	kv("direct", map[bool]string{false: "0", true: "1"}[j.Direct])
	if j.RW.Mixed() {
		kv("rwmixread", strconv.FormatInt(j.RWMixRead, 10))
	}
	if j.IOSize > 0 {
		kv("io_size", strconv.FormatInt(j.IOSize, 10))
	}
	if j.IOEngine != "" {
		kv("ioengine", j.IOEngine)
	}
	kv("filename", j.Filename)
}
