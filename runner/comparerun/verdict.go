package comparerun

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// sameWithin is the relative p99 difference the comparison's summary calls "the same".
const sameWithin = 0.01

// Header is the line the comparison (the main job) prints on standard error before it
// runs: what it compares, on which preset, for how long, and est, about how long it will
// take.
func Header(preset string, dur sim.Time, scenarios, variants []string, jobs int, est string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "FastDrain comparison on %s: ", preset)
	if len(variants) > 1 {
		fmt.Fprintf(&b, "%s against %s (the baseline)", joinAnd(variants[1:]), variants[0])
	} else {
		fmt.Fprintf(&b, "%s alone", variants[0])
	}
	fmt.Fprintf(&b, ", %d co-location %s (each latency-critical app beside %s), %s simulated each: %d runs",
		len(scenarios), plural(len(scenarios), "scenario", "scenarios"), apps.Ungzip, dur,
		len(scenarios)*len(variants))
	if jobs > 0 {
		fmt.Fprintf(&b, " on %d parallel %s", jobs, plural(jobs, "job", "jobs"))
	}
	fmt.Fprintf(&b, "; %s", est)
	return b.String()
}

// WriteVerdict writes the few lines that follow the comparison's tables: which direction
// is better, how each variant did against the baseline for each app, which variants could
// not be told apart, and where the paper comparison is.
func WriteVerdict(w io.Writer, appsRun, variants []string, cell func(app, v string) runner.Cell) error {
	var b strings.Builder
	base := variants[0]
	fmt.Fprintf(&b, "Lower is better. Each app's p99 under a variant divided by its p99 under %s "+
		"(below 1.00: the variant cut the app's tail latency):\n", base)
	width := 0
	for _, v := range variants[1:] {
		width = max(width, len(v))
	}
	for _, v := range variants[1:] {
		var better, worse, same, none []string
		for _, a := range appsRun {
			bp, vp := cell(a, base).P99(a), cell(a, v).P99(a)
			if bp <= 0 || vp < 0 {
				none = append(none, a)
				continue
			}
			r := float64(vp) / float64(bp)
			switch {
			case math.Abs(r-1) < sameWithin:
				same = append(same, a)
			case r < 1:
				better = append(better, fmt.Sprintf("%s %.2f", a, r))
			default:
				worse = append(worse, fmt.Sprintf("%s %.2f", a, r))
			}
		}
		var parts []string
		for _, p := range []struct {
			what string
			list []string
		}{{"better for", better}, {"worse for", worse}, {fmt.Sprintf("within %.0f %% for", sameWithin*100), same},
			{"no p99 for", none}} {
			if len(p.list) > 0 {
				parts = append(parts, fmt.Sprintf("%s %d of %d (%s)", p.what, len(p.list), len(appsRun), strings.Join(p.list, ", ")))
			}
		}
		fmt.Fprintf(&b, "  %-*s  %s\n", width, v, strings.Join(parts, "; "))
	}
	if len(variants) > 2 {
		var alike []string
		for _, a := range appsRun {
			first := cell(a, variants[1]).P99(a)
			equal := first >= 0
			for _, v := range variants[2:] {
				equal = equal && cell(a, v).P99(a) == first
			}
			if equal {
				alike = append(alike, a)
			}
		}
		if len(alike) > 0 {
			fmt.Fprintf(&b, "%s gave the same p99, to the picosecond, for %s.\n", joinAnd(variants[1:]), joinAnd(alike))
		}
	}
	fmt.Fprintf(&b, "The co-runner table: a variant that drains faster lets %s write more, and that write-back is load "+
		"the app sees too.\n", apps.Ungzip)
	b.WriteString("The paper's claims, figure by figure with a verdict each: the figures command (figures --quick takes " +
		"minutes, --full the paper's 30 s per run); what reproduces of the paper and why: docs/fidelity.md.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// joinAnd joins names as "a", "a and b" or "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// plural returns one or many after n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
