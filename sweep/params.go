package sweep

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Axes may also sweep the job's own parameters, under the keys below: for flashbench
// points "flashbench.qd", "flashbench.ops", "flashbench.mix" (R/P/E weights, e.g. 70/30/0),
// "flashbench.multi_plane", "flashbench.slc" and "flashbench.seed"; for run points "run.duration",
// "run.warmup" and "run.seed". Every other key is a configuration key.
var (
	flashbenchKeys = []string{"qd", "ops", "mix", "multi_plane", "slc", "seed"}
	runKeys        = []string{"duration", "warmup", "seed"}
)

// isParamKey reports whether an axis key names a job parameter rather than a
// configuration key.
func isParamKey(key string) bool {
	return strings.HasPrefix(key, string(KindFlashbench)+".") || strings.HasPrefix(key, string(KindRun)+".")
}

// splitSets separates a point's "key=value" overrides into configuration overrides and
// job-parameter overrides.
func splitSets(sets []string) (config, params []string) {
	for _, s := range sets {
		if k, _, _ := strings.Cut(s, "="); isParamKey(k) {
			params = append(params, s)
		} else {
			config = append(config, s)
		}
	}
	return config, params
}

// flashbenchParams returns p with the job-parameter overrides applied and checked.
func flashbenchParams(p FlashbenchParams, sets []string) (FlashbenchParams, error) {
	var errs []error
	for _, s := range sets {
		key, val, _ := strings.Cut(s, "=")
		name, ok := strings.CutPrefix(key, string(KindFlashbench)+".")
		if !ok {
			errs = append(errs, fmt.Errorf("%s: a parameter of run points, not of flashbench points", key))
			continue
		}
		var err error
		switch name {
		case "qd":
			p.QueueDepth, err = strconv.Atoi(val)
		case "ops":
			p.Ops, err = strconv.ParseInt(val, 10, 64)
		case "mix":
			p.Mix, err = ParseMix(val)
		case "multi_plane":
			p.MultiPlane, err = strconv.ParseBool(val)
		case "slc":
			p.SLC, err = strconv.ParseBool(val)
		case "seed":
			p.Seed, err = strconv.ParseUint(val, 10, 64)
		default:
			err = fmt.Errorf("no such flashbench parameter (have %s)", strings.Join(flashbenchKeys, ", "))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %q: %w", key, val, unwrapNum(err)))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return p, err
	}
	return p, Spec{Kind: KindFlashbench, Flashbench: &p}.Validate()
}

// runParams returns p with the job-parameter overrides applied and checked.
func runParams(p RunParams, sets []string) (RunParams, error) {
	var errs []error
	for _, s := range sets {
		key, val, _ := strings.Cut(s, "=")
		name, ok := strings.CutPrefix(key, string(KindRun)+".")
		if !ok {
			errs = append(errs, fmt.Errorf("%s: a parameter of flashbench points, not of run points", key))
			continue
		}
		var err error
		switch name {
		case "duration":
			p.Duration, err = sim.ParseTime(val)
		case "warmup":
			p.Warmup, err = sim.ParseTime(val)
		case "seed":
			p.Seed, err = strconv.ParseUint(val, 10, 64)
		default:
			err = fmt.Errorf("no such run parameter (have %s)", strings.Join(runKeys, ", "))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %q: %w", key, val, unwrapNum(err)))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return p, err
	}
	return p, Spec{Kind: KindRun, Run: &p}.Validate()
}

// unwrapNum drops strconv's repetition of the input from its errors.
func unwrapNum(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err
	}
	return err
}

// ParseMix parses read/program/erase weights "R/P/E", e.g. "70/30/0".
func ParseMix(s string) ([3]int, error) {
	var w [3]int
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return w, fmt.Errorf("want three weights read/program/erase, e.g. 70/30/0")
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 {
			return w, fmt.Errorf("weight %q is not a non-negative integer", p)
		}
		w[i] = v
	}
	return w, nil
}
