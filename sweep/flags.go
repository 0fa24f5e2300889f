package sweep

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flags are the values of fastdrain sweep's flags that describe the sweep, each named
// after its flag. ParseSpec turns them, over the sweep file, into a Spec.
type Flags struct {
	Kind string   // --kind
	Axes []string // --axis KEY=V1,V2,… (ParseAxis), after the file's axes
	File string   // --file: a YAML sweep file (ReadSweepFile)
	Base Base     // --preset, --variant, --config, --set
	Seed uint64   // --seed, of either kind of point
	// Flashbench points: --ops, --qd, --multi-plane, --slc (Mix and Seed unused), and --mix.
	Flashbench FlashbenchParams
	Mix        string
	// Run points: --scenario and --apps (Duration, Warmup and Seed unused); Times resolves
	// --duration, --quick, --full and --warmup, reporting every bad one.
	Run   RunParams
	Times func() (duration, warmup sim.Time, errs []error)
	// Percentiles are the metric columns' latency percentiles (--percentiles; none: the defaults).
	Percentiles report.Percentiles
}

// runOnly and benchOnly are the flags of one kind of point only.
var (
	runOnly   = []string{"scenario", "duration", "warmup", "apps", "quick", "full"}
	benchOnly = []string{"ops", "qd", "mix", "multi-plane", "slc"}
)

// ParseSpec builds the sweep from --file and the flags: flags given explicitly (changed,
// named without dashes) override the file's kind and base, --axis adds axes after the
// file's. Every error names its flag or file and what is wrong.
func ParseSpec(f Flags, changed func(flag string) bool) (Spec, error) {
	s, err := f.base(changed)
	if err != nil {
		return s, err
	}
	s.Percentiles = f.Percentiles
	var errs []error
	for _, a := range f.Axes {
		ax, err := ParseAxis(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Axes = append(s.Axes, ax)
	}
	if len(s.Axes) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("give at least one --axis KEY=V1,V2,… or a --file with axes"))
	}
	switch s.Kind {
	case KindFlashbench:
		errs = append(errs, onlyFor(changed, runOnly, "run")...)
		p := f.Flashbench
		p.Seed = f.Seed
		if w, err := flashbench.ParseMix(f.Mix); err != nil {
			errs = append(errs, fmt.Errorf("--mix: %w", err))
		} else {
			p.Mix = w
		}
		s.Flashbench = &p
	case KindRun:
		errs = append(errs, onlyFor(changed, benchOnly, "flashbench")...)
		p := f.Run
		p.Seed = f.Seed
		var terrs []error
		p.Duration, p.Warmup, terrs = f.Times()
		errs = append(errs, terrs...)
		s.Run = &p
	default:
		errs = append(errs, fmt.Errorf("--kind %q: want run or flashbench", s.Kind))
	}
	if err := errors.Join(errs...); err != nil {
		return s, err
	}
	return s, s.Validate()
}

// base is the sweep of --file (if given) with the flags given explicitly over it: the
// kind, the base configuration and the file's axes.
func (f Flags) base(changed func(string) bool) (Spec, error) {
	var file File
	if f.File != "" {
		var err error
		if file, err = ReadSweepFile(f.File); err != nil {
			return Spec{}, fmt.Errorf("--file: %w", err)
		}
	}
	pick := func(flag, flagVal, fileVal string) string {
		if !changed(flag) && fileVal != "" {
			return fileVal
		}
		return flagVal
	}
	return Spec{
		Kind: Kind(pick("kind", f.Kind, string(file.Kind))),
		Base: Base{
			Preset:  pick("preset", f.Base.Preset, file.Preset),
			Variant: pick("variant", f.Base.Variant, file.Variant),
			Files:   append(append([]string(nil), file.Config...), f.Base.Files...),
			Sets:    append(append([]string(nil), file.Set...), f.Base.Sets...),
		},
		Axes: append(Grid(nil), file.Axes...),
	}, nil
}

// onlyFor reports each flag of flags given explicitly for the other kind of sweep.
func onlyFor(changed func(string) bool, flags []string, kind string) []error {
	var errs []error
	for _, f := range flags {
		if changed(f) {
			errs = append(errs, fmt.Errorf("--%s applies to --kind %s only", f, kind))
		}
	}
	return errs
}
