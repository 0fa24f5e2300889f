package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The engagement of FastDrain's mechanisms in a run (issue 31): how much each was in force.
// The firmware and the FTL declare their counters (firmware.StatHintedWrites …,
// ftl.StatForegroundWrites …); these are the host's and the ones that need the measured
// window, which the runner puts.
var (
	StatHintedSent = &sim.Stat{Name: "hinted_writes_sent", Unit: sim.UnitCount,
		Desc: "writes the host's NVMe driver sent with the victimization hint", Row: "hinted writes sent (host) / received / acted on"}
	StatForegroundShare = &sim.Stat{Name: "foreground_time_share", Unit: sim.UnitRatio,
		Desc: "share of the measured run the evictor was in foreground mode", Row: "time in foreground eviction / share of the run"}
	StatHighSetTime = &sim.Stat{Name: "high_ratio_set_time_us", Unit: sim.UnitTime,
		Desc: "time the page cache's high dirty-ratio set (FastDrain's adaptive scheduling) was in force", Row: "time in the high dirty-ratio set / share of the run"}
	StatHighSetShare = &sim.Stat{Name: "high_ratio_set_share", Unit: sim.UnitRatio,
		Desc: "share of the measured run the high dirty-ratio set was in force", Row: "time in the high dirty-ratio set / share of the run"}
)

// putEngagement puts the statistics that need a window into sn, over [from, to): the
// evictor's foreground time (fgFrom is its cumulative foreground time at from) and its
// share, the time the high dirty-ratio set was in force and its share, and the hinted
// writes the host's driver sent.
func putEngagement(sn *sim.StatSnapshot, m *platforms.Machine, from, to, fgFrom sim.Time) {
	w := float64(max(to-from, 1))
	fg := m.SSD.FW.StatsAt(to).ForegroundTime - fgFrom
	hi := highSetTime(m.Host.Cache.Stats().Switches, from, to)
	sn.PutInt(StatHintedSent, m.Host.Driver.Stats.Hinted)
	sn.PutInt(firmware.StatForegroundTime, int64(fg))
	sn.Put(StatForegroundShare, float64(fg)/w)
	sn.PutInt(StatHighSetTime, int64(hi))
	sn.Put(StatHighSetShare, float64(hi)/w)
}

// highSetTime sums, over [from, to), the spans in which the last switch in sw (in time
// order) put the high set in force; before the first switch the low set is.
func highSetTime(sw []pagecache.RatioSwitch, from, to sim.Time) sim.Time {
	var total sim.Time
	high, since := false, from
	for _, s := range sw {
		t := min(max(s.At, from), to)
		if high {
			total += t - since
		}
		high, since = s.High, t
	}
	if high && to > since {
		total += to - since
	}
	return total
}

// value returns a statistic of the run's snapshot (0 when absent).
func (r *Result) value(s *sim.Stat) float64 {
	v, _ := r.Stats.Value(s)
	return v
}

// EngagementTable lists, per app and variant, how much FastDrain's mechanisms were in force
// in the run (compare's engagement table and engagement.csv): hinted writes the host sent,
// the firmware received and acted on, the share of the run in foreground eviction, the foreground writes on LSB pages,
// completions reporting above-high, background pages to idle and busy dies, host flash reads
// that met flash work on their die (and a background program), reads that suspended it,
// ratio switches and the share of the run in the high dirty-ratio set.
func EngagementTable(appNames, variants []string, cell CellFunc) *report.ValueTable {
	t := &report.ValueTable{Title: "engagement of the mechanisms per variant (shares of the measured run)",
		NumTitle: "engagement"}
	col := func(text, name string) { t.Columns = append(t.Columns, report.Column{Text: text, Name: name}) }
	col("app", "app")
	col("variant", "variant")
	col("hinted sent / recv / acted", "")
	col("", StatHintedSent.Name)
	col("", firmware.StatHintedWrites.Name)
	col("", firmware.StatHintActedOn.Name)
	col("foreground", StatForegroundShare.Name)
	col("fg writes on LSB", "")
	col("", ftl.StatForegroundWrites.Name)
	col("", ftl.StatForegroundLSB.Name)
	col("above-high", firmware.StatAboveHigh.Name)
	col("bg idle / busy dies", "")
	col("", firmware.StatBackgroundIdle.Name)
	col("", firmware.StatBackgroundBusy.Name)
	col("reads behind flash work / bg", "")
	col("", firmware.StatReadsBehindArray.Name)
	col("", firmware.StatReadsBehindBackground.Name)
	col("read suspends", firmware.StatReadSuspends.Name)
	col("ratio switches", pagecache.StatRatioSwitches.Name)
	col("high set", StatHighSetShare.Name)
	n := func(v float64) report.Cell { return report.Num(v, fmt.Sprint(int64(v))) }
	pct := func(v float64) report.Cell { return report.Num(v, fmt.Sprintf("%.1f%%", 100*v)) }
	for _, a := range appNames {
		for _, v := range variants {
			r := cell(a, v).Result
			if r == nil {
				continue
			}
			g := r.value
			hs, hw, ha := g(StatHintedSent), g(firmware.StatHintedWrites), g(firmware.StatHintActedOn)
			fw, fl := g(ftl.StatForegroundWrites), g(ftl.StatForegroundLSB)
			bi, bb := g(firmware.StatBackgroundIdle), g(firmware.StatBackgroundBusy)
			ra, rb := g(firmware.StatReadsBehindArray), g(firmware.StatReadsBehindBackground)
			lsb := report.None()
			if fw > 0 {
				lsb = report.Label(fmt.Sprintf("%.1f%%", 100*fl/fw))
			}
			t.AddRow(report.Label(a), report.Label(v),
				report.Label(fmt.Sprintf("%d / %d / %d", int64(hs), int64(hw), int64(ha))), n(hs), n(hw), n(ha),
				pct(g(StatForegroundShare)), lsb, n(fw), n(fl), n(g(firmware.StatAboveHigh)),
				report.Label(fmt.Sprintf("%d / %d", int64(bi), int64(bb))), n(bi), n(bb),
				report.Label(fmt.Sprintf("%d / %d", int64(ra), int64(rb))), n(ra), n(rb),
				n(g(firmware.StatReadSuspends)), n(g(pagecache.StatRatioSwitches)), pct(g(StatHighSetShare)))
		}
	}
	return t
}
