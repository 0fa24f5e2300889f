package sweep

import (
	"math"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/energy"
	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/flashbench"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Metric units: latencies and times in microseconds ("_us"), bandwidth in MB/s (10⁶ bytes
// per simulated second), busy shares as fractions of the measured window (0 … 1), counts
// as plain numbers, power in watts ("_w") and energy in joules ("_j_").

// us converts picoseconds to microseconds.
func us(ps float64) float64 { return ps / float64(sim.Microsecond) }

// finite replaces a non-finite value (which JSON cannot carry) by 0.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// benchPercentiles and runPercentiles are the latency percentiles of a flashbench point's
// and a run point's columns without sweep --percentiles (the columns sweeps have always had).
var (
	benchPercentiles = report.Percentiles{99}
	runPercentiles   = report.Percentiles{50, 99, 99.9}
)

// latencyMetrics returns h's mean and its values at the percentiles ps, in microseconds:
// the latency columns of one distribution (report.Fraction turns p into the quantile, so
// p99.9 of 1,000 samples is the 999th).
func latencyMetrics(h *sim.Histogram, ps report.Percentiles) []float64 {
	m := []float64{us(h.Mean())}
	for _, v := range ps.Quantiles(h) {
		m = append(m, us(float64(v)))
	}
	return m
}

// flashbenchColumns names the metrics of a flashbench point, with the latency percentiles ps.
func flashbenchColumns(ps report.Percentiles) []string {
	cols := []string{"iops", "mb_per_s", "elapsed_us"}
	for k := channel.Read; k <= channel.Erase; k++ {
		n := k.String()
		cols = append(cols, n+"_ops", n+"_mean_us")
		for _, key := range ps.Keys("_us") {
			cols = append(cols, n+"_"+key)
		}
	}
	return append(cols, "channel_busy_mean", "die_busy_mean", "nand_array_j", "onfi_bus_j", "flash_avg_w")
}

// flashbenchMetrics returns a flashbench result's metrics in flashbenchColumns order. The
// busy shares are the resources' total busy time over the run, summed in integer
// picoseconds and divided once. The energies are the point's energy section applied to
// the array's records (energy.Array: the die arrays with their standby, the ONFI buses;
// docs/energy.md), and flash_avg_w is their sum over the elapsed time.
func flashbenchMetrics(r *flashbench.Result, es energy.Spec, ps report.Percentiles) ([]float64, error) {
	m := []float64{r.IOPS(), r.Bandwidth() / 1e6, us(float64(r.Elapsed))}
	for k := channel.Read; k <= channel.Erase; k++ {
		m = append(m, float64(r.Ops[k]))
		m = append(m, latencyMetrics(r.Latency[k], ps)...)
	}
	var bus, arr sim.Time
	var buses, dies []*sim.Resource
	for _, ch := range r.Channels {
		bus += ch.Bus().TotalBusyAt(r.Elapsed)
		buses = append(buses, ch.Bus())
		for i := 0; i < ch.NumDies(); i++ {
			arr += ch.Die(i).Array().TotalBusyAt(r.Elapsed)
			dies = append(dies, ch.Die(i).Array())
		}
	}
	span := float64(r.Elapsed)
	m = append(m, float64(bus)/(span*float64(len(r.Channels))), float64(arr)/(span*float64(len(dies))))
	j, err := energy.Array(es, dies, buses, r.Elapsed)
	if err != nil {
		return nil, err
	}
	nand, onfi := energy.Sum(j, energy.NANDArray), energy.Sum(j, energy.ONFIBus)
	m = append(m, nand, onfi, (nand+onfi)/r.Elapsed.Seconds())
	for i := range m {
		m[i] = finite(m[i])
	}
	return m, nil
}

// runColumns names the metrics of a run point whose scenario runs appNames, with the
// latency percentiles ps.
func runColumns(appNames []string, ps report.Percentiles) []string {
	var cols []string
	for _, a := range appNames {
		cols = append(cols, a+".requests", a+".mean_us")
		for _, key := range ps.Keys("_us") {
			cols = append(cols, a+"."+key)
		}
	}
	for _, c := range runStatColumns {
		cols = append(cols, c.col)
	}
	return append(cols, "channel_busy_mean", "die_busy_mean", "ssd_avg_w", "ssd_peak_w", "ssd_j_per_gb_written")
}

// runStatColumns are a run point's columns of the machine's statistics (runner.Statistics),
// in the order and under the names sweeps have always written them; the values are the
// run's snapshot's, as its stats.csv has them (a time in µs).
var runStatColumns = []struct {
	col  string
	stat *sim.Stat
}{
	{"waf", ftl.StatWAF}, {"flash_used_pages", ftl.StatUsed}, {"flash_wasted_pages", ftl.StatWasted},
	{"gc_runs", firmware.StatGCRuns}, {"gc_pages_moved", firmware.StatGCPagesMoved}, {"erases", ftl.StatErases},
	{"evictions_fg", firmware.StatForegroundEvictions}, {"evictions_bg", firmware.StatBackgroundEvictions},
	{"stalls", firmware.StatStalls}, {"stall_time_us", firmware.StatStallTime},
	{"buffer_peak_pages", buffer.StatPeakOccupancy}, {"victimizations", pagecache.StatVictimizations},
	{"pages_written_back", pagecache.StatWrittenBack}, {"throttle_time_us", pagecache.StatThrottleTime},
}

// runMetrics returns a run result's metrics in runColumns order (latency percentiles ps);
// an application that did not report has zeros.
func runMetrics(r *runner.Result, appNames []string, ps report.Percentiles) []float64 {
	var m []float64
	for _, name := range appNames {
		a := r.App(name)
		if a == nil || a.Latency == nil {
			m = append(m, make([]float64, 2+len(ps))...)
			continue
		}
		m = append(m, float64(a.Requests))
		m = append(m, latencyMetrics(a.Latency, ps)...)
	}
	for _, c := range runStatColumns {
		v, _ := r.Stats.Value(c.stat)
		m = append(m, c.stat.Number(v))
	}
	ch, die := busyMeans(r)
	m = append(m, ch, die)
	m = append(m, energyMetrics(r)...)
	for i := range m {
		m[i] = finite(m[i])
	}
	return m
}

// energyMetrics returns the SSD's energy over the run's measured window (its account,
// docs/energy.md): the average power, the peak over the last of the energy section's peak
// windows (10 ms by default) and the energy per 10⁹ bytes the host wrote (0 with none).
// A run whose measurement never started has zeros.
func energyMetrics(r *runner.Result) []float64 {
	a := r.Energy
	if a == nil {
		return []float64{0, 0, 0}
	}
	var peak float64
	if n := len(a.Peaks); n > 0 {
		peak = a.Peaks[n-1].Watts
	}
	return []float64{a.AveragePower(), peak, a.PerGBWritten()}
}

// busyMeans returns the mean busy share of the channel buses and of the dies over the
// measured window, read from the run's utilization table (resources "….ch[i]" and
// "….ch[i].die[j]"; one decimal of a percent).
func busyMeans(r *runner.Result) (ch, die float64) {
	u := r.Utilization
	if u == nil || len(u.Header) == 0 {
		return 0, 0
	}
	last := len(u.Header) - 1
	var chSum, dieSum float64
	var chN, dieN int
	for _, row := range u.Rows {
		v, err := strconv.ParseFloat(strings.TrimSuffix(row[last], "%"), 64)
		if err != nil {
			continue
		}
		name := row[0]
		switch {
		case strings.Contains(name, ".die["):
			dieSum += v
			dieN++
		case strings.HasSuffix(name, "]") && strings.Contains(name, ".ch["):
			chSum += v
			chN++
		}
	}
	return meanShare(chSum, chN), meanShare(dieSum, dieN)
}

// meanShare turns a sum of n percentages into their mean as a fraction.
func meanShare(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(100*n)
}
