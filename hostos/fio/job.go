package fio

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// RW is a job's IO direction and order, fio's rw option.
type RW uint8

// The rw values (fio HOWTO, "readwrite=str, rw=str").
const (
	Read          RW = iota // sequential reads
	Write                   // sequential writes
	RandRead                // random reads
	RandWrite               // random writes
	ReadWrite               // sequential mixed reads and writes ("rw" or "readwrite")
	RandRW                  // random mixed reads and writes
	Trim                    // sequential trims
	RandTrim                // random trims
	TrimWrite               // sequential trim, then a write of the same block
	RandTrimWrite           // trimwrite at random offsets
)

var rwNames = [...]string{"read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim", "trimwrite", "randtrimwrite"}

// String returns fio's name for the value ("rw" for ReadWrite).
func (r RW) String() string {
	if int(r) < len(rwNames) {
		return rwNames[r]
	}
	return fmt.Sprintf("rw(%d)", uint8(r))
}

// ParseRW parses fio's rw values: read, write, randread, randwrite, rw, readwrite, randrw,
// trim, randtrim, trimwrite, randtrimwrite. fio matches the whole word ("r" is not read).
func ParseRW(s string) (RW, error) {
	if s == "readwrite" {
		return ReadWrite, nil
	}
	for i, n := range rwNames {
		if s == n {
			return RW(i), nil
		}
	}
	switch s {
	case "filecreate", "filestat", "filedelete":
		return 0, fmt.Errorf("%q needs the %s engine, which works on file-system metadata, not on the simulated device's data", s, s)
	}
	return 0, fmt.Errorf("%q is not one of read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, trimwrite, randtrimwrite", s)
}

// Random reports whether the job picks random offsets.
func (r RW) Random() bool {
	return r == RandRead || r == RandWrite || r == RandRW || r == RandTrim || r == RandTrimWrite
}

// Mixed reports whether the job mixes reads and writes (rwmixread applies).
func (r RW) Mixed() bool { return r == ReadWrite || r == RandRW }

// Trims reports whether the job issues trims.
func (r RW) Trims() bool { return r >= Trim }

// Writes reports whether the job writes.
func (r RW) Writes() bool {
	return r == Write || r == RandWrite || r == ReadWrite || r == RandRW || r == TrimWrite || r == RandTrimWrite
}

// Reads reports whether the job reads.
func (r RW) Reads() bool { return r == Read || r == RandRead || r == ReadWrite || r == RandRW }

// Dir is a data direction of fio's per-direction options and statistics.
type Dir uint8

// The directions, in fio's order (read, write, trim).
const (
	DirRead Dir = iota
	DirWrite
	DirTrim
)

// Job is one resolved fio job (global values and defaults applied). Sizes are bytes. Zero
// values are fio's defaults unless a field says otherwise, so a YAML job and a Job literal
// mean what fio means.
type Job struct {
	Name      string
	RW        RW
	BS        int64
	IODepth   int64
	NumJobs   int64
	Size      int64 // 0: from Offset to the end of the device or file
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
	IOEngine       string    // fio's engine name (engines.go: how each maps)
	Filename       string    // fio's target: ':'-separated names; "" = names made up (Files)
	Thread         bool      // recorded; simulated processes are neither threads nor forks
	GroupReporting bool      // report the job's reporting group as one merged result
	WriteLatLog    string    // prefix of the per-I/O latency logs; empty: none
	Percentiles    []float64 // clat percentiles to report; nil: DefaultPercentiles
	// Variable block sizes (fio's bsrange and bssplit); BS is then the smallest size, the
	// alignment unit of random offsets.
	BSRangeMax int64     // > 0: each I/O is BS·k bytes, k uniform in [1, BSRangeMax/BS]
	BSSplit    []BSShare // non-empty: each I/O's size drawn with these percentages

	// WriteSizes and TrimSizes, when set, are the block sizes of writes and trims (fio's
	// comma-separated bs, bsrange and bssplit); nil: those of reads (BS, BSRangeMax, BSSplit).
	WriteSizes, TrimSizes *BlockSizes
	BlockAlign            int64 // random offsets are multiples of this; 0: the smallest block size

	Description string // fio's description, printed only
	// RWSuffix is rw=...:N. Sequential: N bytes are added to the offset after each I/O (may
	// be negative: backwards). Random: a new random offset every N I/Os, the others
	// following it (RWIdentical: repeating it).
	RWSuffix    int64
	RWIdentical bool // rw_sequencer=identical

	Directory      string   // fio's directory: ':'-separated, assigned to copies in turn
	NrFiles        int64    // files per copy; 0: 1
	FileSize       int64    // each file's size; 0: Size / files
	FileSizeMax    int64    // > FileSize: each file's size is drawn from [FileSize, FileSizeMax]
	FilenameFormat string   // fio's filename_format; "": $jobname.$jobnum.$filenum
	FileService    string   // file_service_type: roundrobin (default), sequential, random
	SizePct        int64    // size=N%: N percent of the target (1..100); 0: Size
	OffsetPct      int64    // offset=N%: N percent of the target
	OffsetInc      int64    // offset_increment: copy k starts k·OffsetInc further
	OffsetIncPct   int64    // offset_increment=N%
	Loops          int64    // repetitions of the workload; 0: 1
	NumberIOs      int64    // stop after this many I/Os; 0: no limit
	FillDevice     bool     // fill_device: size is the whole device or file system
	Unlink         bool     // unlink the job's files when done
	CreateOnly     bool     // create_only: lay the files out and do no I/O
	Stonewall      bool     // wait for every earlier job to finish; starts a reporting group
	NewGroup       bool     // start a reporting group
	WaitFor        string   // wait for the named job's copies to finish
	ExitAll        bool     // when one job of the group ends, end the others
	ExitWhat       string   // exit_what: group (default), stonewall, all
	ExitAllOnError bool     // exitall_on_error: as ExitAll, when the job ends in error
	ThinkTime      sim.Time // stall after I/Os complete
	ThinkBlocks    int64    // thinktime after this many I/Os; 0: 1
	ThinkSpin      sim.Time // thinktime_spin: the part of the stall spent on the CPU
	Rate           [3]int64 // bytes/s per direction; 0: no cap
	RateIOPS       [3]int64 // I/Os per second per direction; 0: no cap
	RatePoisson    bool     // rate_process=poisson
	Fdatasync      int64    // fdatasync after every N writes
	EndFsync       bool     // fsync when the job's writes are done
	Sync           bool     // sync=1/sync/dsync: writes are O_SYNC (FUA on the device path)
	Distribution   Distribution
	PctRandom      [3]int64 // percentage_random per direction; 0: 100 (fio's default) unless PctRandomSet
	PctRandomSet   bool
	ZoneMode       string // "" or "none"; "strided"; "zbd" (zbd.go)
	// Flexible Data Placement (placement.go): fdp=1 (dataplacement=fdp), fdp_pli (plids)
	// the placement ID indices to use (nil: all of the namespace's), fdp_pli_select
	// roundrobin ("" too) or random.
	FDP       bool
	FDPPLI    []int
	FDPSelect string
	// WriteHint is write_hint (writehint.go): the RWH_WRITE_LIFE_* value set on each file
	// at open, 0 (RWH_WRITE_LIFE_NOT_SET) when not given.
	WriteHint uint8
	// io_uring_cmd (zoneappend.go): write_mode ("" or zone_append), writefua (the Zone
	// Append's FUA bit) and whether cmd_type was given.
	WriteMode string
	WriteFUA  bool
	ZoneSize  int64 // strided: bytes transferred in a zone before skipping
	ZoneRange int64 // strided: size of a zone; 0: ZoneSize
	ZoneSkip  int64 // strided: bytes skipped after each zone
	// zonemode=zbd (zbd.go): max_open_zones (0: the device's limit), zone_reset_threshold
	// and zone_reset_frequency (fractions in [0, 1]; frequency 0: no threshold resets).
	MaxOpenZones                           int64
	ZoneResetThreshold, ZoneResetFrequency float64
	Verify                                 string // fio's verify method; "" or "0": none
	NoDoVerify                             bool   // do_verify=0: write the headers, run no verify phase
	VerifyBacklog                          int64  // verify every N written blocks during the write phase
	VerifyBatch                            int64  // verify_backlog_batch; 0: VerifyBacklog
	VerifyFatal                            bool   // stop the job on the first failure
	VerifyPattern                          string // recorded with the method
	WriteBWLog                             string // prefix of the bandwidth logs; empty: none
	WriteIOPSLog                           string // prefix of the IOPS logs; empty: none
	LogAvgMsec                             int64  // average log entries over this many ms; 0: one per I/O
	LogMaxValue                            bool   // with LogAvgMsec: the window's maximum instead of its mean
	LogOffset                              bool   // log_offset: logs carry the offset column
	NoPerJobLogs                           bool   // per_job_logs=0: no ".N" in log names
	SlatPct                                bool   // slat_percentiles
	LatPct                                 bool   // lat_percentiles
	NoClatPct                              bool   // clat_percentiles=0
	RandRepeatOff                          bool   // randrepeat=0 (a different, still deterministic seed stream)
	KBBase                                 int64  // kb_base in force for the job (1024 or 1000; 0 = 1024)
	Fadvise                                string // fadvise_hint: "" or "1" (by pattern), "0", "random", "sequential"

	// Options are the job section's own options as written (after expansion), for fio's
	// "job options" JSON object; GlobalOptions those of the [global] sections above it.
	Options, GlobalOptions []Option
}

// Option is one option line as written: its key and (expanded) value; Bare for a bare key.
type Option struct {
	Key, Value string
}

// BlockSizes are one direction's block sizes: a fixed size, a range or a split.
type BlockSizes struct {
	BS       int64
	RangeMax int64
	Split    []BSShare
}

// BSShare is one entry of a bssplit: a block size and its percentage of the I/Os.
type BSShare struct {
	Size, Pct int64
}

// Sizes returns the block sizes of direction d.
func (j *Job) Sizes(d Dir) BlockSizes {
	switch {
	case d == DirWrite && j.WriteSizes != nil:
		return *j.WriteSizes
	case d == DirTrim && j.TrimSizes != nil:
		return *j.TrimSizes
	}
	return BlockSizes{BS: j.BS, RangeMax: j.BSRangeMax, Split: j.BSSplit}
}

// max returns the largest size of s.
func (s BlockSizes) max() int64 {
	m := max(s.BS, s.RangeMax)
	for _, b := range s.Split {
		m = max(m, b.Size)
	}
	return m
}

// min returns the smallest size of s.
func (s BlockSizes) min() int64 {
	m := s.BS
	for _, b := range s.Split {
		m = min(m, b.Size)
	}
	return m
}

// dirs returns the directions the job issues.
func (j *Job) dirs() []Dir {
	var ds []Dir
	if j.RW.Reads() {
		ds = append(ds, DirRead)
	}
	if j.RW.Writes() {
		ds = append(ds, DirWrite)
	}
	if j.RW.Trims() {
		ds = append(ds, DirTrim)
	}
	return ds
}

// MaxBS returns the largest block size the job issues.
func (j Job) MaxBS() int64 {
	m := int64(0)
	for _, d := range j.dirs() {
		m = max(m, j.Sizes(d).max())
	}
	return max(m, j.BS)
}

// MinBS returns the smallest block size the job issues.
func (j Job) MinBS() int64 {
	m := int64(0)
	for _, d := range j.dirs() {
		if s := j.Sizes(d).min(); m == 0 || s < m {
			m = s
		}
	}
	if m == 0 {
		m = j.BS
	}
	return m
}

// Align returns the alignment of random offsets: blockalign, else the smallest block size
// (fio HOWTO, blockalign: "Default: blocksize").
func (j Job) Align() int64 {
	if j.BlockAlign > 0 {
		return j.BlockAlign
	}
	return j.MinBS()
}

// loops returns the number of passes.
func (j Job) loops() int64 { return max(j.Loops, 1) }

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
	for _, ws := range []struct {
		field string
		s     *BlockSizes
	}{{"bs", j.WriteSizes}, {"bs", j.TrimSizes}} {
		if ws.s != nil && (ws.s.BS <= 0 || ws.s.BS%512 != 0) {
			bad(ws.field, "%d is not a positive multiple of 512", ws.s.BS)
		}
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
	case j.Size > 0 && j.BS > 0 && j.FileSize == 0 && j.NrFiles <= 1 && j.Size < j.MaxBS():
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
	for _, s := range []BlockSizes{j.Sizes(DirRead), j.Sizes(DirWrite), j.Sizes(DirTrim)} {
		if len(s.Split) == 0 {
			continue
		}
		var sum int64
		for _, b := range s.Split {
			sum += b.Pct
			if b.Size < s.BS || b.Size%512 != 0 || b.Pct < 0 {
				bad("bssplit", "entry %d/%d: sizes are multiples of 512, at least bs %d; percentages non-negative", b.Size, b.Pct, s.BS)
			}
		}
		if sum != 100 {
			bad("bssplit", "percentages add up to %d, not 100", sum)
		}
	}
	if j.BlockAlign < 0 || j.BlockAlign%512 != 0 {
		bad("blockalign", "%d is not a non-negative multiple of 512", j.BlockAlign)
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
	if j.FileSize < 0 || j.FileSizeMax < 0 {
		bad("filesize", "is negative")
	}
	if j.NrFiles < 0 || j.NrFiles > MaxFilesPerJob {
		bad("nrfiles", "%d is not in [1, %d]", j.NrFiles, MaxFilesPerJob)
	}
	if j.Loops < 0 {
		bad("loops", "%d is negative", j.Loops)
	}
	if j.ZoneMode == "strided" && j.ZoneSize <= 0 {
		bad("zonesize", "zonemode=strided needs a positive zonesize")
	}
	j.validateZoned(bad)
	if j.VerifyBacklog < 0 || j.VerifyBatch < 0 {
		bad("verify_backlog", "is negative")
	}
	if j.RWSuffix < 0 && j.RW.Random() {
		bad("rw", "a random pattern's suffix counts I/Os and cannot be negative")
	}
	for d := range 3 {
		if j.PctRandom[d] < 0 || j.PctRandom[d] > 100 {
			bad("percentage_random", "%d is not a percentage in [0, 100]", j.PctRandom[d])
		}
		if j.Rate[d] < 0 || j.RateIOPS[d] < 0 {
			bad("rate", "is negative")
		}
	}
	j.placementProblems(bad)
	j.writeHintProblems(bad)
	j.appendProblems(bad)
	ps = append(ps, j.Distribution.problems()...)
	return ps
}

// MaxFilesPerJob bounds nrfiles.
const MaxFilesPerJob = 4096

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
