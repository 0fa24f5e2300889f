package powercut

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// campaign runs every schedule cuts times on the tiny preset's machines of the matrix
// (steady state: GC runs from the first cuts), armed in [300, 800) ms, each schedule
// waiting its own patience, the cuts spread over the CPUs.
func campaign(t *testing.T, m Matrix, cuts int) []Row {
	t.Helper()
	m.Preset = "tiny"
	return runCampaign(t, m, schedulesBut("word-line", "two-cut"), DefaultWorkload(), cuts)
}

// schedulesBut returns every schedule except those named. The default tier's campaigns
// leave out word-line, whose condition is looked for with a recovery scan and a
// destruction query (Machine.RunningLoss) while armed: about 0.3 s of CPU a tiny cut
// against 8 ms for the others (7.5 s before the die's word-line tables and the scan's tR
// table, on the same loaded machine). TestCampaignCutFlash cuts it on every tiny target,
// and the long tier at 20 cuts a target. They leave out two-cut too, which
// TestCampaignTwoCut cuts (two power cycles a cut).
func schedulesBut(names ...string) []Schedule {
	var ss []Schedule
	for _, s := range Schedules() {
		if !slices.Contains(names, s.Name) {
			ss = append(ss, s)
		}
	}
	return ss
}

// runCampaign cuts the targets of m cuts times at each schedule of ss with workload w,
// armed in [300, 800) ms, the cuts spread over the CPUs, and logs the table.
func runCampaign(t *testing.T, m Matrix, ss []Schedule, w Workload, cuts int) []Row {
	t.Helper()
	ts, _, err := m.Targets()
	require.NoError(t, err)
	rows, _, err := Campaign(Options{Targets: ts, Schedules: ss, Cuts: cuts, Seed: 1, Workload: w,
		From: 300 * sim.Millisecond, Window: 500 * sim.Millisecond, Jobs: runtime.GOMAXPROCS(0)})
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, Table(rows).WriteText(&b))
	t.Log("\n" + b.String())
	return rows
}

// requireDurable asserts what the firmware guarantees at every cut of every row: no durable
// loss (with protection, no acknowledged page lost), no stale read, and no hold-up drain
// stuck — a bounded buffer always fits outside the GC reserve, whatever the allocator,
// with GC running — and that the schedules met their conditions: a block erase, a
// foreground program and a relocated page's program on a die at a third of their cuts or
// more, a Flush waiting for the flash likewise without protection and never with it (the
// host sees no volatile cache and sends none), and the lookahead never (a cut it finds is
// a loss). It also asserts that GC moved pages before the cuts of every target.
func requireDurable(t *testing.T, rows []Row) {
	t.Helper()
	moved := map[string]int64{}
	for _, r := range rows {
		require.Zero(t, r.FailedCuts, "%s, %s: %s", r.Target, r.Schedule, r.First)
		moved[r.Target] += r.GCMoved
		switch r.Schedule {
		case "gc-erase", "fg-evict", "relocation":
			require.GreaterOrEqual(t, 3*r.Met, r.Cuts, "%s, %s: condition met at %d of %d cuts", r.Target, r.Schedule, r.Met, r.Cuts)
		case "flush":
			if r.PLP {
				require.Zero(t, r.Met, r.Target)
			} else {
				require.GreaterOrEqual(t, 3*r.Met, r.Cuts, "%s: flush met at %d of %d cuts", r.Target, r.Met, r.Cuts)
			}
		case "lookahead":
			require.Zero(t, r.Met, r.Target)
		}
	}
	for target, n := range moved {
		require.Positive(t, n, "%s: GC moved no page before the cuts", target)
	}
}

// TestCampaign is the campaign in the default tier: Vanilla and FD-Buf (sequential
// allocator), LSB-only (skip-to-LSB) and FD (latency-aware), with power-loss protection
// and without, page mapping; 9 cuts of each of the 6 schedules per target: 108 cuts per
// policy, 432 in all (2 a schedule with -short). About 25 s of CPU: 15 s of wall time on 2
// idle cores, a minute on a loaded 2-core machine.
func TestCampaign(t *testing.T) {
	cuts := 9
	if testing.Short() {
		cuts = 2
	}
	rows := campaign(t, Matrix{Variants: []string{"vanilla", "fd-buf", "lsb-only", "fd"}, PLP: []bool{true, false},
		Mappings: []string{"page"}}, cuts)
	requireDurable(t, rows)
}

// TestCampaignMappings: the same on BAST and on sub-page mapping (16 KiB pages of four
// 4 KiB units), Vanilla and FD, with and without protection: 2 cuts of each schedule per
// target, 96 in all (1 with -short). BAST's merges are slower than page-level GC (a random
// write takes a full merge), so fewer of its cuts meet the GC conditions: only the
// absence of losses is asserted.
func TestCampaignMappings(t *testing.T) {
	cuts := 2
	if testing.Short() {
		cuts = 1
	}
	rows := campaign(t, Matrix{Variants: []string{"vanilla", "fd"}, PLP: []bool{true, false},
		Mappings: []string{"bast", "sub-page"}}, cuts)
	for _, r := range rows {
		require.Zero(t, r.FailedCuts, "%s, %s: %s", r.Target, r.Schedule, r.First)
	}
}

// TestCampaignLong is the long tier's campaign (FASTDRAIN_LONG=1): 167 cuts of each of
// the 6 schedules (1,002) per target, for Vanilla and FD-Buf (sequential), LSB-only
// (skip-to-LSB), FD-FTL and FD (latency-aware) on page mapping, and Vanilla and FD on
// BAST, each with and without power-loss protection: 14,028 cuts; and 300 per target on
// sub-page mapping (Vanilla and FD, with and without protection). No durable loss, no stale read,
// no stuck drain, and the schedules meet their conditions.
func TestCampaignLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "the durability campaign at 1,000 cuts per policy")
	for _, c := range []struct {
		variants []string
		mapping  string
		cuts     int
	}{
		{[]string{"vanilla", "fd-buf", "fd-ftl", "lsb-only", "fd"}, "page", 167},
		{[]string{"vanilla", "fd"}, "bast", 167},
		{[]string{"vanilla", "fd"}, "sub-page", 50},
	} {
		t.Run(c.mapping, func(t *testing.T) {
			rows := campaign(t, Matrix{Variants: c.variants, PLP: []bool{true, false}, Mappings: []string{c.mapping}}, c.cuts)
			if c.mapping == "page" {
				requireDurable(t, rows)
				return
			}
			for _, r := range rows {
				require.Zero(t, r.FailedCuts, "%s, %s: %s", r.Target, r.Schedule, r.First)
			}
		})
	}
}

// TestControlsLoseData: the two mechanisms change the result against a control that lacks
// them (firmware.power_loss.controls), and the schedules find the instants they expose.
//   - Without protection, the erase guard: LSB-only's lookahead cuts (12, seeds 1000 on)
//     look for an erase queued while a newer copy of a durable page's data is being
//     programmed; with unguarded_erase some find one and the cut there loses that durable
//     version (recovery returns an older one, or none). With the guard the same cuts find
//     no such instant and lose nothing.
//   - With protection, the hold-up reserve: Vanilla's gc-erase cuts (12, seeds 1 on) come
//     while GC is collecting; with no_holdup_reserve some come while every plane is down to
//     its GC reserve, the drain is stuck there and acknowledged pages are lost. With the
//     reserve they all drain.
//
// With the controls these cuts lose data at 3 and 4 of 12 (measured when this was written);
// the test asks for at least one, so that a change of timing elsewhere in the firmware does
// not break it while the mechanisms still matter.
func TestControlsLoseData(t *testing.T) {
	look, _ := LookupSchedule("lookahead")
	erase, _ := LookupSchedule("gc-erase")
	for _, c := range []struct {
		variant string
		plp     bool
		s       Schedule
		control string
		seed    uint64
	}{
		{"lsb-only", false, look, "unguarded_erase", 1000},
		{"vanilla", true, erase, "no_holdup_reserve", 1},
	} {
		for _, control := range []bool{true, false} {
			m := Matrix{Preset: "tiny", Variants: []string{c.variant}, PLP: []bool{c.plp}, Mappings: []string{"page"}}
			if control {
				m.Sets = []string{fmt.Sprintf("firmware.power_loss.controls.%s=true", c.control)}
			}
			ts, _, err := m.Targets()
			require.NoError(t, err)
			rows, cuts, err := Campaign(Options{Targets: ts, Schedules: []Schedule{c.s}, Cuts: 12, Seed: c.seed, Workload: DefaultWorkload(),
				From: 300 * sim.Millisecond, Window: 500 * sim.Millisecond, Jobs: runtime.GOMAXPROCS(0)})
			require.NoError(t, err)
			what := fmt.Sprintf("%s, %s, control %s %v", ts[0].Label, c.s.Name, c.control, control)
			if !control {
				require.Zero(t, rows[0].FailedCuts, "%s: %s", what, rows[0].First)
				continue
			}
			require.Positive(t, rows[0].FailedCuts, what)
			for _, cut := range cuts {
				if !cut.Lost() {
					continue
				}
				require.Positive(t, cut.DurableLoss, "%s, seed %d", what, cut.Seed)
				if c.plp {
					require.True(t, cut.Report.Stuck, "%s, seed %d", what, cut.Seed)
				} else {
					// A durable version lost. Not always where the lookahead saw it coming: it
					// recovers the flash as it is (RecoverNow), without what die.Die.Cut
					// destroys (a paired lower page, a latched word line), which the control's
					// unguarded copies are also exposed to (platforms.Machine.CutFlash).
					require.Contains(t, cut.First, "was durable", "%s, seed %d", what, cut.Seed)
				}
			}
		}
	}
}

// TestCampaignPastReadOnly: flash faults past the spare pool. On tiny a die's spare pool is
// 1 block (2 % of 64), so erase failures at 1 % and program failures at 0.2 % retire more
// blocks than that during preconditioning and the drive goes read-only (NVMe status 82h)
// with the checked workload running: its writes and flushes fail from then on, the failed
// writes' data may be read back (undefined by the spec, checker.failedWrite) and nothing
// acknowledged may be lost, with power-loss protection and without. Before the campaign
// handled read-only, every one of these cuts stopped with the I/O error instead of a verdict.
func TestCampaignPastReadOnly(t *testing.T) {
	m := Matrix{Preset: "tiny", Variants: []string{"vanilla", "fd"}, PLP: []bool{true, false}, Mappings: []string{"page"},
		Sets: []string{"flash.die.faults.program_fail=0.002", "flash.die.faults.erase_fail=0.01"}}
	ts, _, err := m.Targets()
	require.NoError(t, err)
	rows, cuts, err := Campaign(Options{Targets: ts, Schedules: Schedules()[:1], Cuts: 2, Seed: 1, Workload: DefaultWorkload(),
		From: 300 * sim.Millisecond, Window: 500 * sim.Millisecond, Jobs: runtime.GOMAXPROCS(0)})
	require.NoError(t, err)
	for _, r := range rows {
		require.Zero(t, r.FailedCuts, "%s, %s: %s", r.Target, r.Schedule, r.First)
	}
	readOnly := 0
	for _, c := range cuts {
		if c.ReadOnly {
			readOnly++
		}
	}
	require.Equal(t, len(cuts), readOnly, "every cut's drive went read-only")
}
