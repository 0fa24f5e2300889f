package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
)

// fioReport is the part of a fio JSON report (fio --output-format=json, or fastdrain fio's
// fio.json) calibrate reads.
type fioReport struct {
	Global map[string]string `json:"global options"`
	Jobs   []fioJobJSON      `json:"jobs"`
}

type fioJobJSON struct {
	JobName string            `json:"jobname"`
	GroupID int               `json:"groupid"`
	Error   int               `json:"error"`
	Options map[string]string `json:"job options"`
	Read    *fioDirJSON       `json:"read"`
	Write   *fioDirJSON       `json:"write"`
}

type fioDirJSON struct {
	IOBytes  int64   `json:"io_bytes"`
	TotalIOs int64   `json:"total_ios"`
	Clat     *fioLat `json:"clat_ns"`
	Lat      *fioLat `json:"lat_ns"`
}

type fioLat struct {
	Mean float64 `json:"mean"`
	N    uint64  `json:"N"`
}

// addFio reads a fio JSON report's jobs into s: one Point per direction that did IO, the
// jobs of one fio group (same groupid, consecutive) running side by side as they did.
//
// A job is rebuilt from the report's "global options" and its "job options" (the options
// its job file gave, as fio prints them) through the fio job-file parser (package fio), so
// an option the simulator does not reproduce is refused as a job file would refuse it.
// Its IO amount is what the report says it moved (io_bytes of both directions), without
// runtime or ramp_time. The measured number is the mean completion latency (clat_ns, or
// lat_ns when a report has no clat).
func (s *Set) addFio(b []byte, name string) error {
	var rep fioReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %s", name, jsonErr(b, err))
	}
	if len(rep.Jobs) == 0 {
		return fmt.Errorf("%s: the report has no jobs", name)
	}
	var errs []error
	group, lastGID := s.nextGroup(), 0
	for i := range rep.Jobs {
		jj := &rep.Jobs[i]
		if i > 0 && jj.GroupID != lastGID {
			group++
		}
		lastGID = jj.GroupID
		pts, end, err := jj.points(rep.Global, fmt.Sprintf("%s: jobs[%d] (%s)", name, i, jj.JobName))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, p := range pts {
			p.Source, p.Group = name, group
			s.Points = append(s.Points, p)
		}
		s.Capacity = max(s.Capacity, end)
	}
	return errors.Join(errs...)
}

// iniValue refuses what cannot go into an INI job file line.
func iniValue(s string) error {
	if strings.ContainsAny(s, "\n\r") {
		return fmt.Errorf("%q holds a line break", s)
	}
	return nil
}

// jobINI writes the job's options as a fio job file: a [global] section, then the job's.
func jobINI(global, opts map[string]string, name string) (string, error) {
	if name == "" || strings.ContainsAny(name, "[]\n\r") || name == "global" {
		return "", fmt.Errorf("jobname %q cannot name a job section", name)
	}
	var b strings.Builder
	section := func(title string, m map[string]string) error {
		fmt.Fprintf(&b, "[%s]\n", title)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the file's order does not matter to fio; sorted for determinism
		for _, k := range keys {
			if err := iniValue(k); err != nil {
				return fmt.Errorf("option name %w", err)
			}
			if err := iniValue(m[k]); err != nil {
				return fmt.Errorf("option %s: %w", k, err)
			}
			if m[k] == "" {
				fmt.Fprintf(&b, "%s\n", k)
			} else {
				fmt.Fprintf(&b, "%s=%s\n", k, m[k])
			}
		}
		return nil
	}
	if err := section("global", global); err != nil {
		return "", err
	}
	if err := section(name, opts); err != nil {
		return "", err
	}
	return b.String(), nil
}

// points converts one fio job into its Points and the end of its region (0: the device's
// end). where names the job for errors.
func (jj *fioJobJSON) points(global map[string]string, where string) ([]Point, int64, error) {
	if jj.Error != 0 {
		return nil, 0, fmt.Errorf("%s: the job failed (error %d): it measures no latency", where, jj.Error)
	}
	if jj.Options == nil {
		return nil, 0, fmt.Errorf("%s: no \"job options\" (the options are needed to run the job again)", where)
	}
	ini, err := jobINI(global, jj.Options, jj.JobName)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", where, err)
	}
	jobs, err := fio.Decode(strings.NewReader(ini), where)
	if err != nil {
		return nil, 0, err
	}
	j := jobs[0]
	switch {
	case !j.Direct:
		return nil, 0, fmt.Errorf("%s: direct=0: a buffered job measures the host's page cache, not the drive; calibrate takes direct=1 jobs", where)
	case j.NumJobs > 1 && !j.GroupReporting:
		return nil, 0, fmt.Errorf("%s: numjobs=%d without group_reporting: fio reports each copy apart; run it with group_reporting=1", where, j.NumJobs)
	case len(j.BSSplit) > 0 || j.BSRangeMax > 0:
		return nil, 0, fmt.Errorf("%s: bssplit/bsrange: calibrate replays jobs of one block size", where)
	}
	var bytes int64
	var pts []Point
	for _, d := range []struct {
		op  uflip.Op
		dir *fioDirJSON
	}{{uflip.OpRead, jj.Read}, {uflip.OpWrite, jj.Write}} {
		if d.dir == nil || d.dir.TotalIOs == 0 {
			continue
		}
		lat := d.dir.Clat
		if lat == nil || lat.N == 0 {
			lat = d.dir.Lat
		}
		if lat == nil || lat.N == 0 {
			return nil, 0, fmt.Errorf("%s: %s: %d IOs but no clat_ns or lat_ns with N > 0", where, d.op, d.dir.TotalIOs)
		}
		if !(lat.Mean > 0) || math.IsInf(lat.Mean, 0) {
			return nil, 0, fmt.Errorf("%s: %s: mean latency %v ns is not positive", where, d.op, lat.Mean)
		}
		if d.dir.IOBytes <= 0 {
			return nil, 0, fmt.Errorf("%s: %s: io_bytes %d with %d IOs", where, d.op, d.dir.IOBytes, d.dir.TotalIOs)
		}
		bytes += d.dir.IOBytes
		pts = append(pts, Point{Name: fmt.Sprintf("fio %s %s", jj.JobName, d.op), Measured: lat.Mean / 1e3,
			Pattern: fmt.Sprintf("fio %s bs=%d qd=%d", j.RW, j.BS, j.IODepth*j.NumJobs),
			fio:     &fioPoint{dir: d.op}})
	}
	if len(pts) == 0 {
		return nil, 0, fmt.Errorf("%s: no read or write IOs", where)
	}
	// The same IOs again: io_size per copy, no runtime, no ramp.
	per := max(bytes/j.NumJobs/j.BS*j.BS, j.BS)
	j.IOSize, j.Runtime, j.TimeBased, j.RampTime, j.WriteLatLog = per, 0, false, 0, ""
	shared := &j // the job's directions are one job, run once
	for i := range pts {
		pts[i].fio.job = shared
	}
	end := int64(0)
	if j.Size > 0 {
		end = j.Offset + j.Size
	}
	return pts, end, nil
}
