package ufliprun

import (
	"errors"
	"fmt"
	"os"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/internal/listflag"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// FindingBenches are the micro-benchmarks the finding checks read (uflip.Findings); a
// --findings run without --bench runs just these.
var FindingBenches = []uflip.Bench{uflip.BenchGranularity, uflip.BenchAlignment, uflip.BenchLocality,
	uflip.BenchPartitioning, uflip.BenchParallelism, uflip.BenchPause}

// PlanFlags are the values of fastdrain uflip's plan flags, each named after its flag.
// PlanFromFlags turns them into a plan spec.
type PlanFlags struct {
	Benches, DeviceFormat, Span string // --bench, --format-device, --span
	Settle, RunPause, PlanFile  string // --settle, --run-pause, --plan
	AutoMinBytes                string // --auto-min-bytes: auto or a size
	NbRun, IODivisor            int64  // --nbrun, --io-divisor
	AutoMin, AutoCap            int64  // --auto-min, --auto-cap
	Auto                        float64
	Findings                    bool // --findings
	// DeviceFormatSet and SpanSet say --format-device and --span were given explicitly.
	DeviceFormatSet, SpanSet bool
}

// PlanFromFlags builds the plan spec (uFLIP's defaults, the --plan file over them, the
// flags over that) and the span in bytes, reporting every bad flag by name.
func PlanFromFlags(f PlanFlags) (uflip.PlanSpec, int64, error) {
	spec := uflip.DefaultPlanSpec()
	var errs []error
	if f.PlanFile != "" {
		if err := loadPlanSpec(f.PlanFile, &spec); err != nil {
			return spec, 0, err
		}
	}
	switch {
	case f.Benches == "all" && f.PlanFile != "":
		// the plan file's benches
	case f.Benches == "all" && f.Findings:
		spec.Benches = append([]uflip.Bench(nil), FindingBenches...)
	case f.Benches != "all":
		spec.Benches = nil
		for _, b := range listflag.Split(f.Benches) {
			var bb uflip.Bench
			if err := bb.UnmarshalText([]byte(b)); err != nil {
				errs = append(errs, fmt.Errorf("--bench: %w", err))
			}
			spec.Benches = append(spec.Benches, bb)
		}
	}
	// A plan file's format stands unless --format-device is given.
	if f.PlanFile == "" || f.DeviceFormatSet {
		if err := spec.Format.UnmarshalText([]byte(f.DeviceFormat)); err != nil {
			errs = append(errs, fmt.Errorf("--format-device: %w", err))
		}
	}
	errs = append(errs, f.counts(&spec)...)
	sz, err := sim.ParseSize(f.Span)
	if err != nil || sz <= 0 {
		errs = append(errs, fmt.Errorf("--span %q: want a size such as 1GiB", f.Span))
	}
	if err := errors.Join(errs...); err != nil {
		return spec, 0, err
	}
	return spec, int64(sz), spec.Validate()
}

// counts applies the run flags to spec: --nbrun, --settle, --run-pause, and --io-divisor
// or, with --auto, the automatic rule and its cap.
func (f PlanFlags) counts(spec *uflip.PlanSpec) []error {
	var errs []error
	if f.NbRun > 0 {
		spec.NbRun = f.NbRun
	}
	if f.Settle != "" {
		if err := spec.Settle.UnmarshalText([]byte(f.Settle)); err != nil {
			errs = append(errs, fmt.Errorf("--settle: %w", err))
		}
	}
	if f.RunPause != "" {
		d, err := sim.ParseTime(f.RunPause)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("--run-pause %q: want a duration such as 100ms", f.RunPause))
		}
		spec.RunPause = d
	}
	if f.IODivisor < 1 {
		errs = append(errs, fmt.Errorf("--io-divisor %d must be at least 1", f.IODivisor))
	} else {
		DivideCounts(spec, f.IODivisor)
	}
	if f.Auto != 0 {
		spec.Auto = uflip.Converge{RelErr: f.Auto, Min: f.AutoMin}
		if err := spec.Auto.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("--auto/--auto-min: %w", err))
		}
		if f.AutoCap < f.AutoMin {
			errs = append(errs, fmt.Errorf("--auto-cap %d is below --auto-min %d", f.AutoCap, f.AutoMin))
		}
		CapCounts(spec, f.AutoCap)
	}
	return errs
}

// loadPlanSpec decodes the YAML plan spec in path over spec (uflip.DecodePlanSpec); the
// error names the file and, from the decoder, the line.
func loadPlanSpec(path string, spec *uflip.PlanSpec) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--plan: %w", err)
	}
	if err := uflip.DecodePlanSpec(b, spec); err != nil {
		return fmt.Errorf("--plan %s: %w", path, err)
	}
	return nil
}

// NewPlan plans spec over span bytes of devs: refused when span is larger than a device,
// and with the automatic rule's minimum run length from --auto-min-bytes (a size, or for
// auto the plan's auto.min_bytes, else twice the largest write buffer of the simulated
// devices: the longest buffered-backlog plateau, hostos/uflip/converge.go).
func (f PlanFlags) NewPlan(spec uflip.PlanSpec, span int64, devs []*Device) (*uflip.Plan, error) {
	for _, d := range devs {
		if span > d.Capacity {
			// The plan covers --span on every device: a smaller device is not a smaller plan.
			given := f.Span
			if !f.SpanSet {
				given += " (the default)"
			}
			return nil, fmt.Errorf("--span %s: larger than device %s (%d bytes = %v); give --span %v or less",
				given, d.Name, d.Capacity, sim.Size(d.Capacity), sim.Size(d.Capacity))
		}
	}
	if spec.Auto.On() && f.AutoMinBytes != "auto" {
		sz, err := sim.ParseSize(f.AutoMinBytes)
		if err != nil || sz < 0 {
			return nil, fmt.Errorf("--auto-min-bytes %q: want auto or a size such as 8MiB", f.AutoMinBytes)
		}
		spec.Auto.MinBytes = int64(sz)
	} else if spec.Auto.On() && spec.Auto.MinBytes == 0 {
		for _, d := range devs {
			spec.Auto.MinBytes = max(spec.Auto.MinBytes, 2*d.BufBytes)
		}
	}
	return uflip.NewPlan(spec, span)
}
