package figures

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// point is one set of runs beside the default ones: the overrides of a sensitivity
// setting, the equal-work control or another seed. Its label names its runs (key.extra).
type point struct {
	label string
	short string           // for plot axes
	sweep string           // the parameter a sensitivity point varies ("" = not one)
	sets  []string         // platform overrides, after Options.Sets
	apps  func(*apps.Spec) // application overrides, nil = none
	seed  uint64           // added to the root seed (another seed of the same runs)
	// duration, if positive, replaces Options.Duration (the short-duration point).
	duration sim.Time
}

// shortPoint is the point of the claims' runs at duration d (Options.Short).
func shortPoint(d sim.Time) point {
	return point{label: "short " + d.String(), short: d.String(), duration: d}
}

// EqualWorkRate is the open-loop Ungzip's output rate in the equal-work columns of Figs. 2b and 5
// (apps.UngzipSpec.OpenLoopRate): half of gzip's CPU-bound 160 MB/s, so that every variant
// keeps up with it (their closed-loop Ungzip wrote ≥ 136 MB/s in every Fig. 5 run on
// fastdrain-tlc and its 8× scaled version) and all of them do the same work. It is the rate
// docs/fidelity.md's first equal-load control used.
const EqualWorkRate apps.Rate = 80_000_000

// equalWork is the point of the equal-work control (Figs. 2b and 5): Ungzip open loop at
// EqualWorkRate, or at its CPU rate if that is lower (an --apps file may set it so).
var equalWork = point{label: "equal-work", short: "equal work",
	apps: func(s *apps.Spec) { s.Ungzip.OpenLoopRate = min(EqualWorkRate, s.Ungzip.OutputRate) }}

// seedPoints are the Oracle's runs on the second and third seeds (Fig. 2b's seed spread).
var seedPoints = []point{{label: "seed+1", short: "seed+1", seed: 1}, {label: "seed+2", short: "seed+2", seed: 2}}

// Sweeps of the sensitivity study (issue 20 item 10), in order.
const (
	sweepBackground = "background eviction budget"
	sweepDies       = "dies"
	sweepUngzip     = "Ungzip's CPU rate"
	sweepSuspend    = "program suspend"
	sweepBuffer     = "write buffer"
	sweepHost       = "host memory"
)

// sensitivityPoints returns the regime map's settings on the platform base (its default is
// the set of default runs, not repeated): the background eviction budget under the share
// rule (firmware.buffer.background_set=share with background_share 0.005, 0.01 and 0.05 of
// the dies, and 0: background_max's 64 in flight alone, the drain before issue 31's
// budget; the default is the idle-dies rule, every idle die), the die count (¼ and ½ of
// base's, 120 and 240 on fastdrain-tlc's 480, through dies per package), Ungzip's CPU rate
// (80 and 320 MB/s around gzip's 160), program suspend on (off by default; with the die's
// default suspend and resume times of 0, so an upper bound on what it buys), and, as
// before issue 20, the write buffer (½×, 2×, with the DRAM to hold it) and the host memory
// (½×, 2×).
func sensitivityPoints(base platforms.Config) []point {
	var pts []point
	for _, sh := range []string{"0.005", "0.01", "0.05", "0"} {
		short := "bg " + sh + " of dies"
		if sh == "0" {
			short = "bg max 64"
		}
		set := "firmware.buffer.background_share=" + sh
		pts = append(pts, point{label: "firmware.buffer.background_set=share;" + set, short: short,
			sweep: sweepBackground, sets: []string{"firmware.buffer.background_set=share", set}})
	}
	f := base.Flash
	for _, d := range []int{4, 2} {
		if f.DiesPerPackage%d == 0 {
			dpp := f.DiesPerPackage / d
			pts = append(pts, point{label: fmt.Sprintf("flash.dies_per_package=%d", dpp), short: fmt.Sprintf("%d dies", f.Channels*f.Ways*dpp),
				sweep: sweepDies, sets: []string{fmt.Sprintf("flash.dies_per_package=%d", dpp)}})
		}
	}
	for _, r := range []apps.Rate{80_000_000, 320_000_000} {
		pts = append(pts, point{label: "apps.ungzip.output_rate=" + r.String(), short: "ungzip " + r.String(), sweep: sweepUngzip,
			apps: func(s *apps.Spec) {
				s.Ungzip.OutputRate = r
				s.Ungzip.OpenLoopRate = min(s.Ungzip.OpenLoopRate, r)
			}})
	}
	pts = append(pts, point{label: "flash.die.suspend=true", short: "suspend on", sweep: sweepSuspend, sets: []string{"flash.die.suspend=true"}})
	type factor struct {
		num, den int64
		name     string
	}
	factors := []factor{{1, 2, "½×"}, {2, 1, "2×"}}
	bp, dram := int64(base.Firmware.Buffer.Pages), base.DRAM.Capacity
	for _, m := range factors {
		pages, capacity := bp*m.num/m.den, dram*sim.Size(m.num)/sim.Size(m.den)
		sets := []string{fmt.Sprintf("firmware.buffer.pages=%d", pages), "dram.capacity=" + capacity.String()}
		pts = append(pts, point{label: strings.Join(sets, ";"), short: "buffer " + m.name, sweep: sweepBuffer, sets: sets})
	}
	mem := base.Host.PageCache.Memory
	for _, m := range factors {
		set := "host.pagecache.memory=" + (mem * sim.Size(m.num) / sim.Size(m.den) / 4096 * 4096).String()
		pts = append(pts, point{label: set, short: "host " + m.name, sweep: sweepHost, sets: []string{set}})
	}
	return pts
}
