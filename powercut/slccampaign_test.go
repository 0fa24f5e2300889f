package powercut

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// slcTiny are the sets that give tiny an SLC cache: 66-page blocks (whole TLC word lines),
// 22 in the die's pSLC mode (tR 25 µs, tPROG 300 µs, die.SpecFor(SLC)'s times), and a
// static region of 5 % of the logical space. gen4-qlc's campaign is the same with its own
// cache (docs/reliability.md), at a few seconds of CPU a cut where tiny takes tens of ms.
var slcTiny = []string{"flash.die.pages_per_block=66", "flash.die.slc.t_read=25us", "flash.die.slc.t_prog=300us",
	"firmware.ftl.slc_cache.static=0.05"}

// TestCampaignSLCCache cuts tiny with an SLC cache where the cache is most exposed: while a
// fold's program is on a die (fold), while a folded SLC block's erase is queued or on a die
// (fold-erase), while the cache is full and host pages go to native blocks (slc-full), and
// where the checker's lookahead sees a loss coming, with and without power-loss protection.
// The host writes in bursts of 20 ms with 20 ms idle between (Workload.Burst, Idle), so the
// firmware folds its full SLC blocks in every idle part (ftl.SLCCacheConfig.Idle, 10 ms).
// No cut loses durable data, reads stale data or leaves the drain stuck, and the fold
// schedules meet their conditions (folds happen and are cut). 8 cuts a row: since a fold's
// programs merge into multi-plane ones (firmware/slcfold.go mergeFold) the cache folds in
// less time, and with protection 4 seeded cuts met no fold on a die (2 of 4 before).
//
// The control unguarded_fold erases a folded block as soon as its copies' programs are
// queued, not completed: the same fold and fold-erase cuts then lose durable versions (the
// SLC copy's records go with the erase's queueing, eraseIssued, and the folded copy is not
// on flash yet; with protection the drain drops the queued GC programs). So the checker
// sees what the fold's order protects.
//
// The same cuts (not the control) also run with the fold's own scheduling and cache
// program (firmware.scheduler.fold_share 0.25 and flash.die.cache_program, as gen4-tlc and
// gen4-qlc have them): a fold's merged page reads and a program waiting in a die's cache
// register at the cut lose nothing either.
func TestCampaignSLCCache(t *testing.T) {
	fold, _ := LookupSchedule("fold")
	foldErase, _ := LookupSchedule("fold-erase")
	full, _ := LookupSchedule("slc-full")
	look, _ := LookupSchedule("lookahead")
	w := DefaultWorkload()
	w.Burst, w.Idle = 20*sim.Millisecond, 20*sim.Millisecond
	for _, pass := range []string{"", "control", "fold-share"} {
		control := pass == "control"
		m := Matrix{Preset: "tiny", Variants: []string{"vanilla"}, PLP: []bool{true, false}, Mappings: []string{"page"}, Sets: slcTiny}
		schedules := []Schedule{fold, foldErase, full, look}
		if pass == "fold-share" {
			m.Sets = append(m.Sets[:len(m.Sets):len(m.Sets)], "firmware.scheduler.fold_share=0.25", "flash.die.cache_program=true")
		}
		if control {
			m.Sets = append(m.Sets[:len(m.Sets):len(m.Sets)], "firmware.power_loss.controls.unguarded_fold=true")
			schedules = schedules[:2]
		}
		ts, _, err := m.Targets()
		require.NoError(t, err)
		rows, _, err := Campaign(Options{Targets: ts, Schedules: schedules, Cuts: 8, Seed: 1, Workload: w,
			From: 300 * sim.Millisecond, Window: 500 * sim.Millisecond, Jobs: runtime.GOMAXPROCS(0)})
		require.NoError(t, err)
		for _, r := range rows {
			what := fmt.Sprintf("%s, %s, pass %q", r.Target, r.Schedule, pass)
			if r.Schedule == "fold" || r.Schedule == "fold-erase" {
				require.Positive(t, r.Met, "%s: the condition came", what)
			}
			if control {
				require.Positive(t, r.LossCuts, "%s: the control loses durable data", what)
				continue
			}
			require.Zero(t, r.FailedCuts, "%s: %s", what, r.First)
			if r.Schedule == "lookahead" {
				require.Zero(t, r.Met, "%s: no cut would lose a durable version", what)
			}
		}
	}
}
