package calibrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Point is one measured number of a drive — the mean latency of one uFLIP run, or of one
// direction of one fio job — and what it takes to issue the same IOs on a simulated drive.
type Point struct {
	Name     string  // e.g. "granularity/RR/io_size=4096 rep 0", "fio seqread read"
	Source   string  // the file it came from
	Pattern  string  // what it measures, for the identifiability table: "uflip granularity RR", "fio randread qd32"
	Measured float64 // mean latency, µs
	// Group numbers the points that ran together (a fio group's jobs ran side by side); a
	// point of its own has a group of its own. Points run in Set order, group by group.
	Group int
	uflip *uflipPoint // a uFLIP run, or nil
	fio   *fioPoint   // a fio job's direction, or nil
}

// uflipPoint is one repetition of a uFLIP run as it ran: its bench, parameters (with that
// repetition's targets) and counts per stream.
type uflipPoint struct {
	// serial: the run was measured by fastdrain uflip --target, whose FileDevice issues one
	// IO at a time whatever the number of streams; its replay does the same.
	serial        bool
	label         string
	rep           int
	bench         uflip.Bench
	run           uflip.Run
	ignore, count int64
}

// fioPoint is one direction of a fio job: the job as it ran (its IO amount in IOSize) and
// which direction's latency is measured.
type fioPoint struct {
	job *fio.Job // shared by the job's directions
	dir uflip.Op
}

// Set is the measurements of one drive, in the order they were taken.
type Set struct {
	Points []Point
	// Capacity is the bytes the measurements address: a simulated drive must hold at least
	// this much (a uFLIP document's capacity_bytes, and every fio job's region end).
	Capacity int64
	RunPause sim.Time     // idle time between runs (the uFLIP plan's; 0 with fio alone)
	Settle   uflip.Settle // between runs: pause, or flush and pause
	Seed     uint64       // the uFLIP plan's seed (its random IOs), 0 without one
	Files    []string     // the files read, in order
}

// Load reads measurement files into one Set, in the order given: each is a fastdrain
// uflip.json document (format fastdrain-uflip/1) or a fio JSON report (an object with a
// "jobs" array), told apart by content. device names the uflip.json device to read ("" for
// the document's real device, or its only one).
func Load(paths []string, device string) (*Set, error) {
	if len(paths) == 0 {
		return nil, errors.New("calibrate: no measurement files (give a uflip.json and/or fio JSON reports)")
	}
	s := &Set{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("calibrate: %w", err)
		}
		if err := s.add(b, p, device); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// add parses one file's bytes into s.
func (s *Set) add(b []byte, name, device string) error {
	var probe struct {
		Format *string          `json:"format"`
		Jobs   *json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return fmt.Errorf("%s: not a JSON document: %s", name, jsonErr(b, err))
	}
	s.Files = append(s.Files, name)
	switch {
	case probe.Format != nil:
		return s.addUflip(b, name, device)
	case probe.Jobs != nil:
		return s.addFio(b, name)
	}
	return fmt.Errorf("%s: neither a fastdrain uflip.json (no \"format\") nor a fio JSON report (no \"jobs\")", name)
}

// nextGroup returns the next unused group number.
func (s *Set) nextGroup() int {
	if len(s.Points) == 0 {
		return 0
	}
	return s.Points[len(s.Points)-1].Group + 1
}

// jsonErr describes a JSON decoding error with its line.
func jsonErr(b []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("line %d: %v", lineOf(b, se.Offset), se)
	case errors.As(err, &te):
		return fmt.Sprintf("line %d: field %s: %s where %s is wanted", lineOf(b, te.Offset), te.Field, te.Value, kindOf(te.Type.Kind().String()))
	}
	return err.Error()
}

// kindOf names a Go kind the way a JSON user would.
func kindOf(k string) string {
	switch k {
	case "int", "int64", "uint64", "float64", "int32", "uint8":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	}
	return k
}

// lineOf returns the 1-based line of byte offset off.
func lineOf(b []byte, off int64) int {
	off = min(max(off, 0), int64(len(b)))
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}
