package apps

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// UngzipSpec configures Ungzip, GNU gzip -d decompressing archives: a single CPU-bound
// process that reads its compressed input through the page cache and writes the output
// through it, never fsyncing (gzip's --synchronous is off by default), so all of its
// output is left to the page cache's writeback.
type UngzipSpec struct {
	// OutputRate is the rate at which decompression produces output when it is not
	// blocked, i.e. gzip -d's CPU-bound speed on one core.
	OutputRate Rate `yaml:"output_rate"`
	// WriteSize is the size of each output write() (gzip flushes its 32 KiB window).
	WriteSize Size `yaml:"write_size"`
	// ReadSize is the size of each input read().
	ReadSize Size `yaml:"read_size"`
	// CompressedPercent is the input size as a percentage of the output size.
	CompressedPercent int `yaml:"compressed_percent"`
	// FileSize is the output size of one archive; each archive becomes one output file.
	FileSize Size `yaml:"file_size"`
	// Files is the number of archives to decompress, one after another; 0 keeps going
	// until the scenario ends.
	Files int `yaml:"files"`
	// Keep unlinks the oldest output file once more than Keep complete ones exist (a
	// decompress-process-delete loop); 0 never unlinks.
	Keep int `yaml:"keep"`
	// OpenLoopRate, when positive, makes Ungzip open loop: its input is in memory (a tmpfs
	// file or a pipe), so it makes no device reads, and its output is paced at this rate
	// (as `gzip -dc | pv -L RATE > out` would write it): chunk k is written once
	// (k+1)·write_size / OpenLoopRate has passed since the run began, or at once when a
	// blocked write() has made it late. The output is then the same in every system variant
	// that keeps up with the rate, which is what an equal-work comparison needs
	// (docs/workloads.md). 0 (the default) is the closed loop: as fast as the CPU and the
	// input reads allow. At most OutputRate.
	OpenLoopRate Rate `yaml:"open_loop_rate"`
}

// DefaultUngzip returns Ungzip: 1 GiB outputs at 160 MB/s in 32 KiB writes, from inputs
// 32 % of the output size read in 32 KiB reads, never unlinked.
func DefaultUngzip() UngzipSpec {
	return UngzipSpec{
		OutputRate:        160_000_000,
		WriteSize:         32 * KiB,
		ReadSize:          32 * KiB,
		CompressedPercent: 32,
		FileSize:          1 * GiB,
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s UngzipSpec) Validate() error { return errors.Join(s.problems("")...) }

func (s UngzipSpec) problems(path string) []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf(path+field+": "+format, args...))
	}
	writeOK := s.WriteSize >= 1 && s.WriteSize <= GiB
	if !writeOK {
		bad("write_size", "%v must be between 1B and 1GiB", s.WriteSize)
	}
	if s.OutputRate < 1 || s.OutputRate > 1_000_000_000_000 {
		bad("output_rate", "%v must be between 1B/s and 1000GB/s", s.OutputRate)
	} else if writeOK && s.OutputRate.Duration(int64(s.WriteSize)) < sim.Nanosecond {
		bad("output_rate", "%v is too fast: a %v write would take under 1ns of CPU", s.OutputRate, s.WriteSize)
	}
	if s.ReadSize < 1 || s.ReadSize > GiB {
		bad("read_size", "%v must be between 1B and 1GiB", s.ReadSize)
	}
	if s.CompressedPercent < 1 || s.CompressedPercent > 100 {
		bad("compressed_percent", "%d must be between 1 and 100", s.CompressedPercent)
	}
	if s.FileSize < 1 || s.FileSize > 64*TiB {
		bad("file_size", "%v must be between 1B and 64TiB", s.FileSize)
	}
	if s.Files < 0 {
		bad("files", "%d must not be negative", s.Files)
	}
	if s.Keep < 0 {
		bad("keep", "%d must not be negative", s.Keep)
	}
	if s.OpenLoopRate < 0 || s.OpenLoopRate > 0 && s.OutputRate >= 1 && s.OpenLoopRate > s.OutputRate {
		bad("open_loop_rate", "%v must be between 0 (closed loop) and output_rate (%v)", s.OpenLoopRate, s.OutputRate)
	}
	return errs
}

// inputSize returns the compressed input's size: CompressedPercent of FileSize, at least 1.
func (s UngzipSpec) inputSize() int64 {
	return max(1, int64(s.FileSize)*int64(s.CompressedPercent)/100)
}

// ungzip is the running model of an UngzipSpec.
type ungzip struct {
	name    string
	spec    UngzipSpec
	input   File
	outputs []File // complete output files still linked, oldest first
	nameBuf []byte
}

func newUngzip(name string, spec UngzipSpec) *ungzip { return &ungzip{name: name, spec: spec} }

// setup creates the compressed archive on the device; every output decompresses it again.
// An open-loop Ungzip's input is in memory: it creates nothing.
func (u *ungzip) setup(p *sim.Proc, host OS, _ uint64) error {
	if u.spec.OpenLoopRate > 0 {
		return nil
	}
	var err error
	u.input, err = openOrCreate(p, host, u.name+"/input.gz", u.spec.inputSize())
	return err
}

// run decompresses archives until stop (or Files archives are done). Each step reads as
// much input as the next chunk needs (none when open loop), computes the chunk at
// OutputRate, waits for the chunk's turn when open loop, and writes it; the write() call's
// duration is recorded as the step's latency. An input read that fails is passed to ioErr
// (with when the call began and ended): if it returns true, Ungzip goes on as if the read
// had succeeded (the error is counted there), else it stops with it.
func (u *ungzip) run(p *sim.Proc, host OS, stop sim.Time, rec func(start, end sim.Time, bytes int64),
	ioErr func(start, end sim.Time, err error) bool) error {
	in := u.spec.inputSize()
	out := int64(u.spec.FileSize)
	open := u.spec.OpenLoopRate > 0
	began := p.Now()
	var produced int64 // output bytes written before this chunk, over every archive
	for n := 0; u.spec.Files == 0 || n < u.spec.Files; n++ {
		if p.Now() >= stop {
			return nil
		}
		u.nameBuf = append(append(u.nameBuf[:0], u.name...), "/out"...)
		u.nameBuf = strconv.AppendInt(u.nameBuf, int64(n), 10)
		f, err := host.Create(p, string(u.nameBuf), 0)
		if err != nil {
			return err
		}
		var inPos, outPos int64
		for outPos < out {
			if p.Now() >= stop {
				return nil
			}
			chunk := min(int64(u.spec.WriteSize), out-outPos)
			need := min(in, ceilDiv((outPos+chunk)*int64(u.spec.CompressedPercent), 100))
			for !open && inPos < need {
				n := min(int64(u.spec.ReadSize), in-inPos)
				t0 := p.Now()
				if err := host.Read(p, u.input, inPos, n); err != nil && !ioErr(t0, p.Now(), err) {
					return err
				}
				inPos += n
			}
			host.Compute(p, u.spec.OutputRate.Duration(chunk))
			if open {
				// Due when the open-loop rate has produced this chunk; the sum from the
				// start (not per chunk) keeps the rounding from drifting.
				if due := began + u.spec.OpenLoopRate.Duration(produced+chunk); p.Now() < due {
					p.Sleep(due - p.Now())
				}
			}
			start := p.Now()
			if err := host.Write(p, f, outPos, chunk); err != nil {
				return err
			}
			outPos += chunk
			produced += chunk
			rec(start, p.Now(), chunk)
		}
		u.outputs = append(u.outputs, f)
		if u.spec.Keep > 0 && len(u.outputs) > u.spec.Keep {
			old := u.outputs[0]
			u.outputs = u.outputs[1:]
			if err := host.Unlink(p, old); err != nil {
				return err
			}
		}
	}
	return nil
}

// ceilDiv returns ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
