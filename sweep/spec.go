package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Kind is the job every point of a sweep runs.
type Kind string

// The kinds of point job.
const (
	// KindFlashbench runs flashbench on the flash section of the point's configuration
	// (channels, ways × dies per package, policy, ONFI bus, die); the rest of the machine is
	// not built.
	KindFlashbench Kind = "flashbench"
	// KindRun runs a co-location scenario on the whole machine with runner.Run.
	KindRun Kind = "run"
)

// Base is the configuration every point starts from, stacked as platforms.Load stacks it:
// built-in defaults ← Preset ← Variant ← Files ← Sets; the point's axis overrides come last.
type Base struct {
	Preset  string   `json:"preset"`
	Variant string   `json:"variant,omitempty"`
	Files   []string `json:"files,omitempty"`
	Sets    []string `json:"sets,omitempty"`
	// SHA256 is the digest of the resolved base configuration (platforms.Config.Resolved).
	// Run fills it in, so Merge can tell shards built from different files apart.
	SHA256 string `json:"sha256,omitempty"`
}

// FlashbenchParams is the synthetic stream of a flashbench point.
type FlashbenchParams struct {
	Ops        int64  `json:"ops"`           // operations to complete
	QueueDepth int    `json:"qd"`            // operations outstanding across the array
	Mix        [3]int `json:"mix"`           // read/program/erase weights
	MultiPlane bool   `json:"multi_plane"`   // use all planes of a die in every operation
	SLC        bool   `json:"slc,omitempty"` // read and program in the dies' pSLC mode (flashbench.Config.SLC)
	Seed       uint64 `json:"seed"`          // random seed (0 = the configuration's seed)
}

// DefaultFlashbench returns flashbench's default stream: 200,000 operations at QD 64 with a
// 70/30/0 mix, single-plane, seeded from the configuration.
func DefaultFlashbench() FlashbenchParams {
	return FlashbenchParams{Ops: 200_000, QueueDepth: 64, Mix: [3]int{70, 30, 0}}
}

// RunParams is the workload of a run point.
type RunParams struct {
	Scenario string   `json:"scenario"` // co-location scenario (apps.LookupScenario)
	Duration sim.Time `json:"duration"` // simulated run time
	Warmup   sim.Time `json:"warmup"`   // simulated time at the start left out of the statistics
	Seed     uint64   `json:"seed"`     // workload seed (0 = the scenario's)
	// Apps is a YAML file of application-model parameters ("" = apps.DefaultSpec()), and
	// AppsSHA256 the digest of its contents, filled in by Run.
	Apps       string `json:"apps,omitempty"`
	AppsSHA256 string `json:"apps_sha256,omitempty"`
}

// DefaultRun returns the run command's default scenario and duration
// (platforms.RunScenario for platforms.RunDuration, apache-u+ungzip for 10 simulated
// seconds) without warm-up.
func DefaultRun() RunParams {
	return RunParams{Scenario: platforms.RunScenario, Duration: platforms.RunDuration}
}

// Spec is a whole sweep: the base configuration, the grid and the job of every point.
// Exactly one of Flashbench and Run is set, matching Kind.
type Spec struct {
	Kind       Kind              `json:"kind"`
	Base       Base              `json:"base"`
	Axes       Grid              `json:"axes"`
	Flashbench *FlashbenchParams `json:"flashbench,omitempty"`
	Run        *RunParams        `json:"run,omitempty"`
	// Percentiles are the latency percentiles of the metric columns (sweep --percentiles),
	// ascending, each in (0, 100); none: the defaults (runPercentiles, benchPercentiles).
	Percentiles report.Percentiles `json:"percentiles,omitempty"`
}

// Validate reports every problem with the spec, each naming its field. Configuration keys
// and values are checked against the platform schema by Run, which loads them.
func (s Spec) Validate() error {
	var errs []error
	switch s.Kind {
	case KindFlashbench:
		if s.Flashbench == nil {
			errs = append(errs, errors.New("flashbench: parameters missing for kind flashbench"))
		}
		if s.Run != nil {
			errs = append(errs, errors.New("run: parameters given for kind flashbench"))
		}
	case KindRun:
		if s.Run == nil {
			errs = append(errs, errors.New("run: parameters missing for kind run"))
		}
		if s.Flashbench != nil {
			errs = append(errs, errors.New("flashbench: parameters given for kind run"))
		}
	default:
		errs = append(errs, fmt.Errorf("kind: %q is not one of flashbench, run", s.Kind))
	}
	if err := s.Axes.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := validPercentiles(s.Percentiles); err != nil {
		errs = append(errs, fmt.Errorf("percentiles: %w", err))
	}
	if p := s.Flashbench; p != nil {
		if p.Ops < 1 {
			errs = append(errs, fmt.Errorf("flashbench.ops: %d must be positive", p.Ops))
		}
		if p.QueueDepth < 1 || p.QueueDepth > 1<<20 {
			errs = append(errs, fmt.Errorf("flashbench.qd: %d is not in 1 … 1048576", p.QueueDepth))
		}
		if m := p.Mix; m[0] < 0 || m[1] < 0 || m[2] < 0 || m[0]+m[1]+m[2] == 0 {
			errs = append(errs, fmt.Errorf("flashbench.mix: weights %d/%d/%d must be non-negative with a positive sum", m[0], m[1], m[2]))
		}
	}
	if p := s.Run; p != nil {
		if _, err := apps.LookupScenario(p.Scenario); err != nil {
			errs = append(errs, fmt.Errorf("run.scenario: %w", err))
		}
		if p.Duration <= 0 {
			errs = append(errs, fmt.Errorf("run.duration: %v must be positive", p.Duration))
		}
		if p.Warmup < 0 || (p.Duration > 0 && p.Warmup >= p.Duration) {
			errs = append(errs, fmt.Errorf("run.warmup: %v is not in 0 … run.duration (%v)", p.Warmup, p.Duration))
		}
	}
	return errors.Join(errs...)
}

// Columns returns the metric names of every row, which depend on the kind (and for run
// points on the scenario's applications) only.
func (s Spec) Columns() []string {
	switch {
	case s.Kind == KindFlashbench:
		return flashbenchColumns(s.Percentiles.Or(benchPercentiles))
	case s.Kind == KindRun && s.Run != nil:
		sc, err := apps.LookupScenario(s.Run.Scenario)
		if err != nil {
			return nil
		}
		return runColumns(sc.Apps, s.Percentiles.Or(runPercentiles))
	}
	return nil
}

// Size returns the number of grid points.
func (s Spec) Size() int { return s.Axes.Size() }

// sealed returns a deep copy of s with the digests of the base configuration and the apps
// file filled in.
func (s Spec) sealed() (Spec, error) {
	out := s
	out.Base.Files = append([]string(nil), s.Base.Files...)
	out.Base.Sets = append([]string(nil), s.Base.Sets...)
	out.Axes = make(Grid, len(s.Axes))
	for i, a := range s.Axes {
		out.Axes[i] = Axis{Key: a.Key, Values: append([]string(nil), a.Values...)}
	}
	c, err := s.load(nil, true)
	if err != nil {
		return out, fmt.Errorf("base configuration: %w", err)
	}
	y, err := c.Resolved()
	if err != nil {
		return out, fmt.Errorf("base configuration: %w", err)
	}
	out.Base.SHA256 = digest(y)
	out.Percentiles = append(report.Percentiles(nil), s.Percentiles...)
	if len(out.Percentiles) == 0 {
		out.Percentiles = nil
	}
	if s.Flashbench != nil {
		p := *s.Flashbench
		out.Flashbench = &p
	}
	if s.Run != nil {
		p := *s.Run
		p.AppsSHA256 = ""
		if p.Apps != "" {
			b, err := os.ReadFile(p.Apps)
			if err != nil {
				return out, fmt.Errorf("run.apps: %w", err)
			}
			p.AppsSHA256 = digest(b)
		}
		out.Run = &p
	}
	return out, nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// validPercentiles checks a percentile list read from outside (a shard file) as
// report.ParsePercentiles would have built it: ascending, no repeats, each in (0, 100)
// with at most six decimals, at most report.MaxPercentiles of them.
func validPercentiles(ps report.Percentiles) error {
	if len(ps) == 0 {
		return nil
	}
	text := make([]string, len(ps))
	for i, p := range ps {
		text[i] = strconv.FormatFloat(p, 'f', -1, 64)
	}
	got, err := report.ParsePercentiles(strings.Join(text, ","))
	if err != nil {
		return err
	}
	if !slices.Equal(got, ps) {
		return fmt.Errorf("%v is not ascending without repeats", []float64(ps))
	}
	return nil
}
