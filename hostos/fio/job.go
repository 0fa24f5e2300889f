package fio

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// RW is a job's IO direction and order, fio's rw option.
type RW uint8

// The rw values.
const (
	Read      RW = iota // sequential reads
	Write               // sequential writes
	RandRead            // random reads
	RandWrite           // random writes
	ReadWrite           // sequential mixed reads and writes ("rw" or "readwrite")
	RandRW              // random mixed reads and writes
)

var rwNames = [...]string{"read", "write", "randread", "randwrite", "rw", "randrw"}

// String returns fio's name for the value ("rw" for ReadWrite).
func (r RW) String() string {
	if int(r) < len(rwNames) {
		return rwNames[r]
	}
	return fmt.Sprintf("rw(%d)", uint8(r))
}

// ParseRW parses fio's rw values: read, write, randread, randwrite, rw, readwrite, randrw.
func ParseRW(s string) (RW, error) {
	if s == "readwrite" {
		return ReadWrite, nil
	}
	for i, n := range rwNames {
		if s == n {
			return RW(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not one of read, write, randread, randwrite, rw, readwrite, randrw", s)
}

// Random reports whether the job picks random offsets.
func (r RW) Random() bool { return r == RandRead || r == RandWrite || r == RandRW }

// Mixed reports whether the job mixes reads and writes (rwmixread applies).
func (r RW) Mixed() bool { return r == ReadWrite || r == RandRW }

// Job is one resolved fio job (global values and defaults applied). Sizes are bytes.
type Job struct {
	Name      string
	RW        RW
	BS        int64
	IODepth   int64
	NumJobs   int64
	Size      int64 // 0: from Offset to the end of the device
	Offset    int64
	RWMixRead int64 // percent
	Runtime   sim.Time
	IOSize    int64 // 0: Size (the region) once
	Direct    bool
	Fsync     int64
	RampTime  sim.Time
	RandSeed  uint64

	// Options read from fio INI files (zero in YAML jobs unless set there).
	TimeBased      bool      // keep going until runtime even when io_size is done
	NoRandomMap    bool      // random offsets drawn with replacement instead of once per pass
	StartDelay     sim.Time  // the job starts this long after the others
	IOEngine       string    // fio's engine name, recorded (see the package documentation)
	Filename       string    // fio's target, recorded (the simulated device or file is used)
	Thread         bool      // recorded; simulated processes are neither threads nor forks
	GroupReporting bool      // report the file's jobs as one merged result
	WriteLatLog    string    // prefix of the per-I/O latency log; empty: none
	Percentiles    []float64 // clat percentiles to report; nil: DefaultPercentiles
	// Variable block sizes (fio's bsrange and bssplit); BS is then the smallest size, the
	// alignment unit of random offsets.
	BSRangeMax int64     // > 0: each I/O is BS·k bytes, k uniform in [1, BSRangeMax/BS]
	BSSplit    []BSShare // non-empty: each I/O's size drawn with these percentages
}

// BSShare is one entry of a bssplit: a block size and its percentage of the I/Os.
type BSShare struct {
	Size, Pct int64
}

// MaxBS returns the largest block size the job issues.
func (j Job) MaxBS() int64 {
	m := max(j.BS, j.BSRangeMax)
	for _, b := range j.BSSplit {
		m = max(m, b.Size)
	}
	return m
}

// DefaultJob returns fio's defaults: rw=read, bs=4k, iodepth=1, numjobs=1, rwmixread=50,
// everything else zero.
func DefaultJob() Job {
	return Job{RW: Read, BS: 4096, IODepth: 1, NumJobs: 1, RWMixRead: 50}
}

// problem is one invalid field of a job.
type problem struct {
	field string // fio key
	msg   string
}

// MaxIODepth and MaxNumJobs bound iodepth and numjobs.
const (
	MaxIODepth = 65536
	MaxNumJobs = 4096
)

// problems returns every problem with the job, each with its key.
func (j Job) problems() []problem {
	var ps []problem
	bad := func(field, format string, args ...any) {
		ps = append(ps, problem{field, fmt.Sprintf(format, args...)})
	}
	if j.Name == "" {
		bad("name", "is empty")
	}
	if int(j.RW) >= len(rwNames) {
		bad("rw", "%d is not a valid rw value", j.RW)
	}
	switch {
	case j.BS <= 0:
		bad("bs", "%d must be positive", j.BS)
	case j.BS%512 != 0:
		bad("bs", "%d is not a multiple of 512", j.BS)
	}
	if j.IODepth < 1 || j.IODepth > MaxIODepth {
		bad("iodepth", "%d is not in [1, %d]", j.IODepth, MaxIODepth)
	}
	if j.NumJobs < 1 || j.NumJobs > MaxNumJobs {
		bad("numjobs", "%d is not in [1, %d]", j.NumJobs, MaxNumJobs)
	}
	switch {
	case j.Size < 0 || j.Size%512 != 0:
		bad("size", "%d is not a non-negative multiple of 512", j.Size)
	case j.Size > 0 && j.BS > 0 && j.Size < j.MaxBS():
		bad("size", "%d is smaller than bs %d", j.Size, j.MaxBS())
	}
	if j.Offset < 0 || j.Offset%512 != 0 {
		bad("offset", "%d is not a non-negative multiple of 512", j.Offset)
	}
	if j.RWMixRead < 0 || j.RWMixRead > 100 {
		bad("rwmixread", "%d is not a percentage in [0, 100]", j.RWMixRead)
	}
	if j.Runtime < 0 {
		bad("runtime", "%v is negative", j.Runtime)
	}
	if j.RampTime < 0 {
		bad("ramp_time", "%v is negative", j.RampTime)
	}
	if j.IOSize < 0 {
		bad("io_size", "%d is negative", j.IOSize)
	}
	if j.Fsync < 0 {
		bad("fsync", "%d is negative", j.Fsync)
	}
	if j.BSRangeMax != 0 && (j.BSRangeMax < j.BS || j.BSRangeMax%512 != 0) {
		bad("bsrange", "maximum %d is below the minimum %d or not a multiple of 512", j.BSRangeMax, j.BS)
	}
	if len(j.BSSplit) > 0 {
		var sum int64
		for _, b := range j.BSSplit {
			sum += b.Pct
			if b.Size < j.BS || b.Size%512 != 0 || b.Pct < 0 {
				bad("bssplit", "entry %d/%d: sizes are multiples of 512, at least bs %d; percentages non-negative", b.Size, b.Pct, j.BS)
			}
		}
		if sum != 100 {
			bad("bssplit", "percentages add up to %d, not 100", sum)
		}
	}
	if j.StartDelay < 0 {
		bad("startdelay", "%v is negative", j.StartDelay)
	}
	if j.TimeBased && j.Runtime == 0 {
		bad("time_based", "needs a runtime (without one the job would never end)")
	}
	for _, p := range j.Percentiles {
		if !(p > 0 && p <= 100) {
			bad("percentile_list", "%v is not a percentile in (0, 100]", p)
			break
		}
	}
	return ps
}

// Validate reports every problem with the job, each naming its fio key.
func (j Job) Validate() error {
	var errs []error
	for _, p := range j.problems() {
		errs = append(errs, fmt.Errorf("%s: %s", p.field, p.msg))
	}
	return errors.Join(errs...)
}

// Region returns the byte range [start, start+length) the job works in on a device of
// capacity bytes, length rounded down to a multiple of bs.
func (j Job) Region(capacity int64) (start, length int64, err error) {
	start, length = j.Offset, j.Size
	if length == 0 {
		length = capacity - start
	}
	if start >= capacity || start+length > capacity {
		return 0, 0, fmt.Errorf("job %s: region [%d, %d) does not fit the device's %d bytes",
			j.Name, start, start+length, capacity)
	}
	length = length / j.BS * j.BS
	if length == 0 {
		return 0, 0, fmt.Errorf("job %s: region of %d bytes holds no %d-byte block", j.Name, j.Size, j.BS)
	}
	return start, length, nil
}
