package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// UflipFormat is the format tag of the uflip.json documents calibrate reads.
const UflipFormat = "fastdrain-uflip/1"

// uflipDoc is the part of a uflip.json document calibrate reads (docs/outputs.md).
type uflipDoc struct {
	Format     string         `json:"format"`
	Capacity   *int64         `json:"capacity_bytes"`
	RunPauseUs *float64       `json:"run_pause_us"`
	Settle     *string        `json:"settle"`
	Seed       *uint64        `json:"seed"`
	Devices    []uflipDevJSON `json:"devices"`
}

type uflipDevJSON struct {
	Name      string         `json:"name"`
	Simulated bool           `json:"simulated"`
	Runs      []uflipRunJSON `json:"runs"`
}

type uflipRunJSON struct {
	Label          string           `json:"label"`
	Bench          string           `json:"bench"`
	Rep            int              `json:"rep"`
	Counted        *int64           `json:"counted"`
	IOIgnore       *int64           `json:"io_ignore"`
	IOCount        *int64           `json:"io_count"`
	MeanUs         *float64         `json:"mean_us"`
	Pattern        *uflipPatternDoc `json:"pattern"`
	Second         *uflipPatternDoc `json:"second"`
	Ratio          int64            `json:"ratio"`
	ParallelDegree int64            `json:"parallel_degree"`
	PauseUs        float64          `json:"pause_us"`
	Burst          int64            `json:"burst"`
	Fill           bool             `json:"fill"` // absent in documents written before the read-back points: false
}

type uflipPatternDoc struct {
	Base         string `json:"base"`
	IOSize       int64  `json:"io_size_bytes"`
	IOShift      int64  `json:"io_shift_bytes"`
	TargetOffset int64  `json:"target_offset_bytes"`
	TargetSize   int64  `json:"target_size_bytes"`
	Partitions   int64  `json:"partitions"`
	Incr         int64  `json:"incr"`
}

// pattern converts the document's pattern; field names the run for errors.
func (d *uflipPatternDoc) pattern() (uflip.Pattern, error) {
	b, err := uflip.ParseBase(d.Base)
	if err != nil {
		return uflip.Pattern{}, err
	}
	return uflip.Pattern{Base: b, IOSize: d.IOSize, IOShift: d.IOShift, TargetOffset: d.TargetOffset,
		TargetSize: d.TargetSize, Partitions: d.Partitions, Incr: d.Incr}, nil
}

// addUflip reads a uflip.json document's runs of one device into s.
func (s *Set) addUflip(b []byte, name, device string) error {
	var doc uflipDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %s", name, jsonErr(b, err))
	}
	if doc.Format != UflipFormat {
		return fmt.Errorf("%s: format %q is not %q (a uflip.json written by fastdrain uflip)", name, doc.Format, UflipFormat)
	}
	var missing []string
	if doc.Capacity == nil {
		missing = append(missing, "capacity_bytes")
	}
	if doc.RunPauseUs == nil {
		missing = append(missing, "run_pause_us")
	}
	if doc.Settle == nil {
		missing = append(missing, "settle")
	}
	if doc.Seed == nil {
		missing = append(missing, "seed")
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s: no %s (written by fastdrain uflip since issue 36; rerun the plan)", name, strings.Join(missing, ", "))
	}
	if *doc.Capacity <= 0 {
		return fmt.Errorf("%s: capacity_bytes %d is not positive", name, *doc.Capacity)
	}
	if !(*doc.RunPauseUs >= 0) || math.IsInf(*doc.RunPauseUs, 0) {
		return fmt.Errorf("%s: run_pause_us %v is not a non-negative number", name, *doc.RunPauseUs)
	}
	var settle uflip.Settle
	if err := settle.UnmarshalText([]byte(*doc.Settle)); err != nil {
		return fmt.Errorf("%s: settle: %w", name, err)
	}
	dev, err := pickDevice(doc.Devices, device)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s.Capacity = max(s.Capacity, *doc.Capacity)
	s.RunPause = sim.Time(math.Round(*doc.RunPauseUs * float64(sim.Microsecond)))
	s.Settle = settle
	s.Seed = *doc.Seed
	var errs []error
	for i := range dev.Runs {
		pt, err := dev.Runs[i].point(name, *doc.Capacity)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: devices[%s] runs[%d] (%s): %w", name, dev.Name, i, dev.Runs[i].Label, err))
			continue
		}
		if pt == nil {
			continue // a run with no counted IO measures nothing
		}
		pt.uflip.serial = !dev.Simulated
		pt.Group = s.nextGroup()
		s.Points = append(s.Points, *pt)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if len(dev.Runs) == 0 {
		return fmt.Errorf("%s: device %s has no runs", name, dev.Name)
	}
	return nil
}

// pickDevice returns the device named want, or (want "") the document's one real device,
// or its only device.
func pickDevice(devs []uflipDevJSON, want string) (*uflipDevJSON, error) {
	var names, real []string
	for i := range devs {
		names = append(names, devs[i].Name)
		if want != "" && devs[i].Name == want {
			return &devs[i], nil
		}
		if !devs[i].Simulated {
			real = append(real, devs[i].Name)
		}
	}
	switch {
	case len(devs) == 0:
		return nil, errors.New("no devices")
	case want != "":
		return nil, fmt.Errorf("no device %q (devices: %s)", want, strings.Join(names, ", "))
	case len(devs) == 1:
		return &devs[0], nil
	case len(real) == 1:
		for i := range devs {
			if devs[i].Name == real[0] {
				return &devs[i], nil
			}
		}
	}
	return nil, fmt.Errorf("%d devices (%s): name the one to fit with --device", len(devs), strings.Join(names, ", "))
}

// point converts one run into a Point, or nil when it counted no IO.
func (r *uflipRunJSON) point(file string, capacity int64) (*Point, error) {
	var missing []string
	for _, f := range []struct {
		name string
		ok   bool
	}{{"counted", r.Counted != nil}, {"io_ignore", r.IOIgnore != nil}, {"io_count", r.IOCount != nil},
		{"mean_us", r.MeanUs != nil}, {"pattern", r.Pattern != nil}} {
		if !f.ok {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no %s", strings.Join(missing, ", "))
	}
	if *r.Counted == 0 || r.Bench == "none" && strings.HasPrefix(r.Label, "format/") {
		// A run with no counted IO measures nothing; a format is the device state
		// enforcement, which the replay's preconditioning stands for (Prepare).
		return nil, nil
	}
	if r.Label == "" || r.Rep < 0 {
		return nil, fmt.Errorf("label %q, rep %d: want a label and a repetition ≥ 0", r.Label, r.Rep)
	}
	var b uflip.Bench
	if err := b.UnmarshalText([]byte(r.Bench)); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if !(*r.MeanUs > 0) || math.IsInf(*r.MeanUs, 0) {
		return nil, fmt.Errorf("mean_us %v is not a positive latency", *r.MeanUs)
	}
	p1, err := r.Pattern.pattern()
	if err != nil {
		return nil, fmt.Errorf("pattern: %w", err)
	}
	run := uflip.Run{Pattern: p1, Ratio: r.Ratio, IOCount: *r.IOCount, IOIgnore: *r.IOIgnore,
		ParallelDegree: r.ParallelDegree, Burst: r.Burst, NbRun: 1, Fill: r.Fill}
	if !(r.PauseUs >= 0) || r.PauseUs > 1e12 {
		return nil, fmt.Errorf("pause_us %v is not a pause", r.PauseUs)
	}
	run.Pause = sim.Time(math.Round(r.PauseUs * float64(sim.Microsecond)))
	if r.Second != nil {
		p2, err := r.Second.pattern()
		if err != nil {
			return nil, fmt.Errorf("second: %w", err)
		}
		run.Second = &p2
	}
	if err := run.Validate(); err != nil {
		return nil, err
	}
	if run.End() > capacity {
		return nil, fmt.Errorf("its IOs reach byte %d, past capacity_bytes %d", run.End(), capacity)
	}
	kind := "uflip " + b.String() + " " + p1.Base.String()
	if run.Second != nil {
		kind += "-" + run.Second.Base.String()
	}
	return &Point{Name: fmt.Sprintf("%s rep %d", r.Label, r.Rep), Source: file, Pattern: kind, Measured: *r.MeanUs,
		uflip: &uflipPoint{label: r.Label, rep: r.Rep, bench: b, run: run, ignore: *r.IOIgnore, count: *r.IOCount}}, nil
}
