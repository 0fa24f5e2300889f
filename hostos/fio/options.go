package fio

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// optKind says how the simulator treats a fio option (docs/fio.md's table is made from
// these): read and applied, accepted because it cannot change a simulated result, or
// refused because the model lacks what it controls.
type optKind uint8

const (
	optSet           optKind = iota // applied: set is called
	optNoEffect                     // accepted; note says why it changes no result
	optRefused                      // refused; note says why
	optEngine                       // an engine-specific option; engines lists the engines
	optRefusedUnless                // accepted at one of defaults (fio's defaults), refused otherwise
)

// refusal is an error meaning "fio can do this, the simulated machine cannot": the file is
// refused with one line rather than a list of mistakes.
type refusal struct{ msg string }

func (r refusal) Error() string { return r.msg }

// refuse returns a refusal error.
func refuse(format string, args ...any) error { return refusal{fmt.Sprintf(format, args...)} }

// isRefusal reports whether err is a refusal.
func isRefusal(err error) bool {
	var r refusal
	return errors.As(err, &r)
}

// setCtx is what a setter needs besides the value: the section's kb_base and whether the
// value came from an arithmetic expression (fio: expression times are in microseconds).
type setCtx struct {
	kb   int64
	expr bool
}

// option is one fio option the reader knows.
type option struct {
	name     string
	aliases  []string
	kind     optKind
	bool     bool   // a bare key means 1
	note     string // optNoEffect/optRefused: why; optSet: how it maps (docs/fio.md)
	engines  []string
	defaults []string // optRefusedUnless: the values accepted (compared case-insensitively)
	set      func(j *Job, v string, c setCtx) error
}

// Options returns fio's options as the simulator knows them, sorted by name, for the
// documentation table (docs/fio.md) and its test.
func Options() []OptionDoc {
	var ds []OptionDoc
	for _, o := range optionTable {
		d := OptionDoc{Name: o.name, Aliases: o.aliases, Note: o.note}
		switch o.kind {
		case optSet:
			d.Treatment = "as fio"
			if o.note != "" {
				d.Treatment = "mapped"
			}
		case optNoEffect:
			d.Treatment = "no effect"
		case optRefused:
			d.Treatment = "refused"
		case optRefusedUnless:
			d.Treatment = "refused unless " + strings.Join(o.defaults, ", ")
		case optEngine:
			d.Treatment = "engine option"
			d.Note = "an option of " + strings.Join(o.engines, ", ") + ": " + engineFate(o.engines)
		}
		ds = append(ds, d)
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a].Name < ds[b].Name })
	return ds
}

// OptionDoc is one row of docs/fio.md's option table.
type OptionDoc struct {
	Name      string
	Aliases   []string
	Treatment string // "as fio", "mapped", "no effect", "refused", "engine option"
	Note      string
}

// engineFate says what happens to an engine option: accepted with a mapped engine,
// refused with the engines.
func engineFate(engines []string) string {
	for _, e := range engines {
		if eng, ok := lookupEngine(e); ok && eng.mapped() {
			return "accepted with " + e + " (see the engine table)"
		}
	}
	return "refused with the engine"
}

// optionIndex maps every name and alias to its option.
var optionIndex = func() map[string]*option {
	m := map[string]*option{}
	for i := range optionTable {
		o := &optionTable[i]
		m[o.name] = o
		for _, a := range o.aliases {
			m[a] = o
		}
	}
	return m
}()

// lookupOption returns the option called key (or one of its aliases).
func lookupOption(key string) (*option, bool) {
	o, ok := optionIndex[key]
	return o, ok
}

// Setter helpers.

func setIntField(dst func(j *Job) *int64) func(j *Job, v string, _ setCtx) error {
	return func(j *Job, v string, _ setCtx) error {
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", v)
		}
		*dst(j) = n
		return nil
	}
}

func setSizeField(dst func(j *Job) *int64) func(j *Job, v string, c setCtx) error {
	return func(j *Job, v string, c setCtx) error {
		n, err := ParseSizeBase(v, c.kb)
		if err == nil {
			*dst(j) = n
		}
		return err
	}
}

func setBoolField(dst func(j *Job) *bool) func(j *Job, v string, _ setCtx) error {
	return func(j *Job, v string, _ setCtx) error { return setParsed(dst(j), v, ParseBool) }
}

func setNotBoolField(dst func(j *Job) *bool) func(j *Job, v string, _ setCtx) error {
	return func(j *Job, v string, _ setCtx) error {
		b, err := ParseBool(v)
		if err == nil {
			*dst(j) = !b
		}
		return err
	}
}

func setStringField(dst func(j *Job) *string) func(j *Job, v string, _ setCtx) error {
	return func(j *Job, v string, _ setCtx) error {
		if v == "" {
			return errors.New("needs a value")
		}
		*dst(j) = v
		return nil
	}
}

// setTimeField parses a time whose plain number is in unit (fio: seconds for most options,
// microseconds for thinktime and the latency options), and microseconds in an expression.
func setTimeField(unit sim.Time, dst func(j *Job) *sim.Time) func(j *Job, v string, c setCtx) error {
	return func(j *Job, v string, c setCtx) error {
		if c.expr {
			unit = sim.Microsecond
		}
		t, err := parseTimeUnit(v, unit)
		if err == nil {
			*dst(j) = t
		}
		return err
	}
}

// parseTimeUnit is ParseDuration with a plain number meaning unit.
func parseTimeUnit(v string, unit sim.Time) (sim.Time, error) {
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		if n < 0 || n > int64(sim.MaxTime/unit) {
			return 0, fmt.Errorf("time %q is out of range", v)
		}
		return sim.Time(n) * unit, nil
	}
	return ParseDuration(v)
}

// acceptsDefault reports whether v is one of o's accepted defaults.
func (o *option) acceptsDefault(v string) bool {
	for _, d := range o.defaults {
		if strings.EqualFold(v, d) {
			return true
		}
	}
	return false
}

// perDir parses fio's comma-separated per-direction values (fio HOWTO, blocksize): "a"
// applies to all; "a,b" to reads and writes+trims; "a,b,c" to each; an empty field keeps
// the default; a value not ended by a comma applies to the directions after it too.
func perDir(v string, parse func(string) (int64, error)) (vals [3]int64, set [3]bool, err error) {
	parts := strings.Split(v, ",")
	if len(parts) > 3 {
		return vals, set, fmt.Errorf("%q has more than three comma-separated values (reads, writes, trims)", v)
	}
	for i := range 3 {
		var p string
		switch {
		case i < len(parts):
			p = parts[i]
		case parts[len(parts)-1] != "":
			p = parts[len(parts)-1] // a last value not ended by a comma carries on
		}
		if strings.TrimSpace(p) == "" {
			continue
		}
		if vals[i], err = parse(strings.TrimSpace(p)); err != nil {
			return vals, set, err
		}
		set[i] = true
	}
	return vals, set, nil
}

func setRate(iops bool) func(j *Job, v string, c setCtx) error {
	return func(j *Job, v string, c setCtx) error {
		parse := func(s string) (int64, error) { return ParseSizeBase(s, c.kb) }
		if iops {
			parse = func(s string) (int64, error) {
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil || n < 0 {
					return 0, fmt.Errorf("%q is not a non-negative integer", s)
				}
				return n, nil
			}
		}
		vals, _, err := perDir(v, parse)
		if err != nil {
			return err
		}
		if iops {
			j.RateIOPS = vals
		} else {
			j.Rate = vals
		}
		return nil
	}
}

// setPctRandom reads percentage_random=N[,N][,N].
func setPctRandom(j *Job, v string, _ setCtx) error {
	vals, set, err := perDir(v, func(s string) (int64, error) {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > 100 {
			return 0, fmt.Errorf("%q is not a percentage in [0, 100]", s)
		}
		return n, nil
	})
	if err != nil {
		return err
	}
	for d := range 3 {
		j.PctRandom[d] = 100
		if set[d] {
			j.PctRandom[d] = vals[d]
		}
	}
	j.PctRandomSet = true
	return nil
}

// setRW reads rw=PATTERN[:N]: N is bytes added after each sequential I/O, or I/Os per new
// random offset (fio HOWTO, readwrite).
func setRW(j *Job, v string, c setCtx) error {
	pat, suffix, has := strings.Cut(v, ":")
	rw, err := ParseRW(strings.TrimSpace(pat))
	if err != nil {
		return err
	}
	j.RW, j.RWSuffix = rw, 0
	if !has {
		return nil
	}
	s := strings.TrimSpace(suffix)
	neg := strings.HasPrefix(s, "-")
	n, err := ParseSizeBase(strings.TrimPrefix(s, "-"), c.kb)
	if err != nil {
		return fmt.Errorf("%q: the suffix %q is not a size or count", v, suffix)
	}
	if neg {
		n = -n
	}
	j.RWSuffix = n
	return nil
}

// setDirection sets rwmixwrite as 100 − rwmixread.
func setRWMixWrite(j *Job, v string, _ setCtx) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > 100 {
		return fmt.Errorf("%q is not a percentage in [0, 100]", v)
	}
	j.RWMixRead = 100 - n
	return nil
}

func setRandSeed(j *Job, v string, _ setCtx) error {
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return fmt.Errorf("%q is not an unsigned integer", v)
	}
	j.RandSeed = n
	return nil
}

func setLogName(dst func(j *Job) *string, jobDefault bool) func(j *Job, v string, _ setCtx) error {
	return func(j *Job, v string, _ setCtx) error {
		if strings.ContainsAny(v, "/\\") {
			return fmt.Errorf("%q is not a log name (a name without '/'; logs go to --out)", v)
		}
		if v == "" || v == "1" {
			v = "" // filled in with the job name when the job is resolved
			if jobDefault {
				v = "\x00"
			}
		}
		*dst(j) = v
		return nil
	}
}

func setPercentiles(j *Job, v string, _ setCtx) error {
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
}

// setBlockSizes returns the setter of bs (kind 0), bsrange (1) or bssplit (2): each takes
// comma-separated values for reads, writes and trims.
func setBlockSizes(kind int) func(j *Job, v string, c setCtx) error {
	return func(j *Job, v string, c setCtx) error {
		parts := strings.Split(v, ",")
		if len(parts) > 3 {
			return fmt.Errorf("%q has more than three comma-separated values (reads, writes, trims)", v)
		}
		var sizes [3]*BlockSizes
		for i := range 3 {
			p := ""
			switch {
			case i < len(parts):
				p = parts[i]
			case parts[len(parts)-1] != "":
				p = parts[len(parts)-1]
			}
			if strings.TrimSpace(p) == "" {
				continue
			}
			s, err := parseBlockSizes(kind, strings.TrimSpace(p), c.kb)
			if err != nil {
				return err
			}
			sizes[i] = &s
		}
		read := j.Sizes(DirRead)
		if sizes[0] != nil {
			read = *sizes[0]
		}
		j.BS, j.BSRangeMax, j.BSSplit = read.BS, read.RangeMax, read.Split
		j.WriteSizes, j.TrimSizes = sizes[1], sizes[2]
		if sizes[1] != nil && sizeEqual(*sizes[1], read) {
			j.WriteSizes = nil
		}
		if sizes[2] != nil && sizeEqual(*sizes[2], read) {
			j.TrimSizes = nil
		}
		return nil
	}
}

func sizeEqual(a, b BlockSizes) bool {
	if a.BS != b.BS || a.RangeMax != b.RangeMax || len(a.Split) != len(b.Split) {
		return false
	}
	for i := range a.Split {
		if a.Split[i] != b.Split[i] {
			return false
		}
	}
	return true
}

// parseBlockSizes reads one direction's bs (0), bsrange (1) or bssplit (2).
func parseBlockSizes(kind int, v string, kb int64) (BlockSizes, error) {
	var j Job
	var err error
	switch kind {
	case 0:
		j.BS, err = ParseSizeBase(v, kb)
	case 1:
		err = parseBSRange(&j, v, kb)
	default:
		err = parseBSSplit(&j, v, kb)
	}
	return BlockSizes{BS: j.BS, RangeMax: j.BSRangeMax, Split: j.BSSplit}, err
}

func setIOEngine(j *Job, v string, _ setCtx) error {
	name, _, _ := strings.Cut(v, ":") // external:PATH
	e, ok := lookupEngine(name)
	if !ok {
		return fmt.Errorf("%q is not an I/O engine fio has (docs/fio.md lists fio's engines)", v)
	}
	if !e.mapped() {
		return refuse("ioengine=%s: %s", name, e.note)
	}
	j.IOEngine = name
	return nil
}

func setSync(j *Job, v string, _ setCtx) error {
	switch strings.ToLower(v) {
	case "0", "none":
		j.Sync = false
	case "1", "sync", "dsync":
		j.Sync = true
	default:
		return fmt.Errorf("%q is not one of none, 0, sync, 1, dsync", v)
	}
	return nil
}

func setVerify(j *Job, v string, _ setCtx) error {
	switch v {
	case "0", "none":
		j.Verify = ""
		return nil
	case "md5", "crc64", "crc32c", "crc32c-intel", "crc32", "crc16", "crc7", "xxhash", "sha512", "sha256",
		"sha1", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta", "pattern", "null":
		j.Verify = v
		return nil
	}
	return fmt.Errorf("%q is not a verify method of fio (md5, crc64, crc32c, crc32c-intel, crc32, crc16, crc7, xxhash, sha512, sha256, sha1, sha3-*, meta, pattern, null)", v)
}

func setZoneMode(j *Job, v string, _ setCtx) error {
	switch v {
	case "none", "strided", "zbd":
		j.ZoneMode = v
		return nil
	}
	return fmt.Errorf("%q is not one of none, strided, zbd", v)
}

func setFileService(j *Job, v string, _ setCtx) error {
	kind, _, _ := strings.Cut(v, ":")
	switch kind {
	case "roundrobin", "sequential", "random":
		if strings.Contains(v, ":") {
			return refuse("file_service_type=%s: the I/Os-per-file suffix is not modelled (one I/O per file turn)", v)
		}
		j.FileService = kind
		return nil
	case "zipf", "pareto", "normal", "gauss":
		return refuse("file_service_type=%s: skewed file choice is not modelled (roundrobin, sequential and random are)", kind)
	}
	return fmt.Errorf("%q is not one of random, roundrobin, sequential, zipf, pareto, normal, gauss", v)
}

func setExitWhat(j *Job, v string, _ setCtx) error {
	switch v {
	case "group", "stonewall", "all":
		j.ExitWhat = v
		return nil
	}
	return fmt.Errorf("%q is not one of group, stonewall, all", v)
}

func setFileSize(j *Job, v string, c setCtx) error {
	lo, hi, isRange := strings.Cut(v, "-")
	if !isRange {
		lo, hi, isRange = strings.Cut(v, ":")
	}
	a, err := ParseSizeBase(lo, c.kb)
	if err != nil {
		return err
	}
	j.FileSize, j.FileSizeMax = a, 0
	if isRange {
		b, err := ParseSizeBase(hi, c.kb)
		if err != nil {
			return err
		}
		if b < a {
			a, b = b, a // fio swaps a reversed range
		}
		j.FileSize, j.FileSizeMax = a, b
	}
	return nil
}

// setSizeOrPct reads a size that may be a percentage (size, offset, offset_increment).
func setSizeOrPct(dst func(j *Job) (*int64, *int64)) func(j *Job, v string, c setCtx) error {
	return func(j *Job, v string, c setCtx) error {
		size, pct := dst(j)
		if p, ok := strings.CutSuffix(strings.TrimSpace(v), "%"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
			if err != nil || n < 0 || n > 100 {
				return fmt.Errorf("%q is not a percentage between 0 and 100", v)
			}
			*size, *pct = 0, n
			return nil
		}
		if strings.HasSuffix(strings.ToLower(v), "z") {
			return refuse("%q: sizes in zones ('z') are not modelled; give bytes (zonemode=zbd reads the zone size from the namespace)", v)
		}
		n, err := ParseSizeBase(v, c.kb)
		if err == nil {
			*size, *pct = n, 0
		}
		return err
	}
}

func setDistribution(j *Job, v string, c setCtx) error {
	if strings.HasPrefix(v, "sequence") {
		return refuse("random_distribution=sequence: the fixed-sequence distribution is not modelled")
	}
	d, err := parseDistribution(v, c.kb)
	if err == nil {
		j.Distribution = d
	}
	return err
}

func setThinkTimeBlocksType(_ *Job, v string, _ setCtx) error {
	switch v {
	case "complete":
		return nil
	case "issue":
		return refuse("thinktime_blocks_type=issue: only the default, complete, is modelled")
	}
	return fmt.Errorf("%q is not one of complete, issue", v)
}

func setRateProcess(j *Job, v string, _ setCtx) error {
	switch v {
	case "linear":
		j.RatePoisson = false
	case "poisson":
		j.RatePoisson = true
	default:
		return fmt.Errorf("%q is not one of linear, poisson", v)
	}
	return nil
}

func setRWSequencer(j *Job, v string, _ setCtx) error {
	switch v {
	case "sequential":
		j.RWIdentical = false
	case "identical":
		j.RWIdentical = true
	default:
		return fmt.Errorf("%q is not one of sequential, identical", v)
	}
	return nil
}

func setFadvise(j *Job, v string, _ setCtx) error {
	switch v {
	case "0", "1", "random", "sequential":
		j.Fadvise = v
		return nil
	}
	return fmt.Errorf("%q is not one of 0, 1, sequential, random", v)
}

func setKBBase(j *Job, v string, _ setCtx) error {
	switch v {
	case "1024":
		j.KBBase = 1024
	case "1000":
		j.KBBase = 1000
	default:
		return fmt.Errorf("%q is not 1024 or 1000", v)
	}
	return nil
}

func setRandRepeat(j *Job, v string, _ setCtx) error {
	b, err := ParseBool(v)
	if err == nil {
		j.RandRepeatOff = !b
	}
	return err
}

func setVerifyInterval(j *Job, v string, c setCtx) error {
	n, err := ParseSizeBase(v, c.kb)
	if err != nil {
		return err
	}
	if n%512 != 0 || n == 0 {
		return fmt.Errorf("%d is not a positive multiple of 512", n)
	}
	return nil
}

// Notes shared by several options.
const (
	noteContent   = "data content does not change the simulated SSD (its firmware neither compresses nor deduplicates), so the buffers' contents are not modelled"
	noteCPUPlace  = "simulated jobs run on the host model's cores as its scheduler places them; CPU affinity and NUMA placement are not modelled"
	noteMeasure   = "measuring costs no simulated time, so every statistic is kept and reported"
	notePrio      = "I/O priority classes and levels are not modelled by the host block layer or the NVMe driver"
	noteEngine    = "an option of engines that talk to something outside the modelled host"
	noteNoClient  = "there is no client/server mode: the run is one simulated machine"
	noteVerifyOpt = "verify compares each block's data version (nvmedrv stamps) with the one last written, whatever the checksum"
)
