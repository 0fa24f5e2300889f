package comparerun

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// comparePace is the CPU time one run of the comparison takes, by preset: a fixed part
// (building and preconditioning the machine) and a part per simulated second, the mean
// over the default six scenarios and four variants. Measured on the project's 2-core test
// machine with `/usr/bin/time fastdrain --preset P --duration D --no-files --format json`
// at two durations (user + system time over the 24 runs; docs/performance.md, "The current figures"):
// fastdrain-tlc 51.8 s at 10 s and 17.7 s at 3 s, fastdrain-small 5.2 s at 3 s and
// 14.4 s at 10 s. Only an estimate for the header: the time varies with the scenario, the
// variant and the machine.
var comparePace = map[string]struct{ build, perSecond time.Duration }{
	"fastdrain-tlc":   {build: 130 * time.Millisecond, perSecond: 203 * time.Millisecond},
	"fastdrain-small": {build: 30 * time.Millisecond, perSecond: 55 * time.Millisecond},
}

// Writing a run's files (the plots above all) costs about filesFixed plus filesPerSecond of
// simulated time, whatever the preset: one fd run of apache-u+ungzip on fastdrain-tlc for
// 10 s took 2.9 s of CPU with its files and 2.2 s with --no-files; the 24 runs of
// fastdrain-small for 3 s, 13.0 s and 5.2 s (0.33 s a run).
const (
	filesFixed     = 250 * time.Millisecond
	filesPerSecond = 45 * time.Millisecond
)

// Estimate says about how long runs co-located runs of dur take on preset with jobs
// parallel jobs (0 = one per CPU), their files written or not, at the machine's current
// load average: the CPU time from comparePace, shared among the runnable tasks when the
// machine is busy.
func Estimate(preset string, runs int, dur sim.Time, jobs int, files bool) string {
	pace, ok := comparePace[preset]
	if !ok {
		return "no time estimate for this preset (measured for fastdrain-tlc and fastdrain-small)"
	}
	per := pace.build + time.Duration(dur.Seconds()*float64(pace.perSecond))
	if files {
		per += filesFixed + time.Duration(dur.Seconds()*float64(filesPerSecond))
	}
	cpu := time.Duration(runs) * per
	return wallEstimate(cpu, runs, jobs, runtime.NumCPU(), loadAverage())
}

// wallEstimate turns cpu, spread over runs independent runs on jobs workers (0 = one per
// CPU) of cpus CPUs, into a wall time at the 1-minute load average load (negative if
// unknown): with more runnable tasks than CPUs, each gets a fair share.
func wallEstimate(cpu time.Duration, runs, jobs, cpus int, load float64) string {
	if jobs <= 0 {
		jobs = cpus
	}
	j := float64(min(jobs, runs, cpus))
	share := j
	note := fmt.Sprintf("%d CPUs", cpus)
	if load >= 0 {
		note = fmt.Sprintf("load average %.1f on %d CPUs", load, cpus)
		if busy := load + j; busy > float64(cpus) {
			share = min(j, float64(cpus)*j/busy)
		}
	}
	wall := roughly(time.Duration(float64(cpu) / share))
	if !strings.HasPrefix(wall, "under") {
		wall = "about " + wall
	}
	return fmt.Sprintf("%s here (%s of CPU; %s)", wall, roughly(cpu), note)
}

// roughly rounds an estimate: to 10 s below two minutes, to the minute below two hours,
// else to the hour.
func roughly(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return "under 10s"
	case d < 2*time.Minute:
		return d.Round(10 * time.Second).String()
	case d < 2*time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
	}
	return fmt.Sprintf("%d h", int(d.Round(time.Hour)/time.Hour))
}

// loadAverage returns the 1-minute load average (Linux's /proc/loadavg), or -1 where it
// cannot be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	l, err := strconv.ParseFloat(f[0], 64)
	if err != nil || l < 0 {
		return -1
	}
	return l
}
