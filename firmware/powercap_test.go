package firmware

import (
	"sort"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// spanFlash is the fake flash recording when each die runs each program: the fake die
// runs its transactions in submission order, a program from max(its last end, now) for
// fakeTPROG.
type spanFlash struct {
	*fakeFlash
	spans [][2]sim.Time // [start, end) of every program
	dies  map[int]int   // programs per die
}

func (f *spanFlash) Submit(g int, tx *hal.FlashCmd) {
	if tx.Op == hal.FlashProgram {
		start := max(f.free[g], f.eng.Now())
		f.spans = append(f.spans, [2]sim.Time{start, start + fakeTPROG})
		f.dies[g]++
	}
	f.fakeFlash.Submit(g, tx)
}

// maxOverlap returns the most spans running at one instant (an end at t is before a
// start at t).
func maxOverlap(spans [][2]sim.Time) int {
	type edge struct {
		t sim.Time
		d int
	}
	var es []edge
	for _, s := range spans {
		es = append(es, edge{s[0], 1}, edge{s[1], -1})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].t < es[j].t || es[i].t == es[j].t && es[i].d < es[j].d })
	n, best := 0, 0
	for _, e := range es {
		n += e.d
		best = max(best, n)
	}
	return best
}

// burstUnderCap writes pages pages (one each, 4 KiB LBAs) and flushes them under a power
// cap of cap (0: none) and 82.5 mW per programming die; it returns the flush's latency and
// the flash's record.
func burstUnderCap(t *testing.T, pages int, cap Power) (sim.Time, *spanFlash) {
	s := smallSpec(Vanilla, "sequential")
	s.Scheduler.MultiPlane = false // one program per transaction
	s.Scheduler.DieDepth = 2
	s.Scheduler.PowerCap, s.Scheduler.DiePower = cap, 82_500
	eng := sim.NewEngine()
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	fl := &spanFlash{fakeFlash: newFakeFlash(eng, smallDie()), dies: map[int]int{}}
	h := &fakeHost{spec: cs, eng: eng, data: map[*nvmectrl.Command][]byte{}, reqs: map[*nvmectrl.Command]*req{}}
	fw, err := New("ssd.fw", s, eng, Ports{Flash: fl, Memory: &fakeMemory{}, Host: h})
	require.NoError(t, err)
	r := &fake{eng: eng, fw: fw, flash: fl.fakeFlash, host: h}
	var lat sim.Time
	eng.Spawn("host", func(p *sim.Proc) {
		w := make([]uint64, pages)
		for i := range w {
			w[i] = Stamp(int64(i), 1)
		}
		r.cmd(p, nvme.OpWrite, 0, pages, nvme.Hint{}, w)
		lat = r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).latency
	})
	eng.Run()
	require.Equal(t, int64(pages), fl.programs)
	return lat, fl
}

// TestPowerCapBurst: a flush of N = 8 pages programs them on the M = 4 dies, two per die
// (the sequential allocator stripes pages over the dies). Every program takes fakeTPROG =
// 558 µs; the flush's other steps (parse, data, eviction decisions, completion) take a few
// µs. A cap that allows K concurrent programming dies, at 82.5 mW each
// (25 mA × 3.3 V), runs the burst in ceil(N/K) rounds of tPROG (slots are never idle
// while programs wait, and a die holds its slot only while it programs):
//   - no cap: K = M = 4, ceil(8/4) = 2 rounds, 1,116 µs;
//   - 200 mW: K = floor(200 / 82.5) = 2, ceil(8/2) = 4 rounds, 2,232 µs;
//   - 82.5 mW: K = 1, 8 rounds, 4,464 µs;
//   - 250 mW: K = 3, ceil(8/3) = 3 rounds, 1,674 µs. Dies 0–2 take the slots, die 3 waits;
//     while it waits, no holder is handed a second program. At 558 µs each holder's program
//     ends and its slot goes to the longest waiter (die 3, then dies 0 and 1, which queued
//     again behind it): round 2 is dies 3, 0, 1, round 3 dies 2 and 3.
//
// Each run's flush also spends its other steps (parse, data, completion: ~5 µs on the fake),
// so the check is ceil(N/K)·tPROG ≤ latency < ceil(N/K)·tPROG + 20 µs.
// At no instant do more than K dies program, so the array's program power never exceeds
// K × 82.5 mW ≤ the cap.
func TestPowerCapBurst(t *testing.T) {
	const n, tprog = 8, fakeTPROG
	slack := 20 * sim.Microsecond
	for _, c := range []struct {
		cap    Power
		k      int
		rounds sim.Time
	}{{0, 4, 2}, {200_000, 2, 4}, {82_500, 1, 8}, {250_000, 3, 3}} {
		lat, fl := burstUnderCap(t, n, c.cap)
		t.Logf("cap %v: flush %v, per die %v, at most %d programming", c.cap, lat, fl.dies, maxOverlap(fl.spans))
		for g := range 4 {
			require.Equal(t, 2, fl.dies[g], "die %d", g)
		}
		require.LessOrEqual(t, maxOverlap(fl.spans), c.k, "cap %v", c.cap)
		require.GreaterOrEqual(t, lat, c.rounds*tprog, "cap %v", c.cap)
		require.Less(t, lat, c.rounds*tprog+slack, "cap %v", c.cap)
		if c.cap > 0 {
			require.LessOrEqual(t, Power(maxOverlap(fl.spans))*82_500, c.cap)
		}
	}
}

// TestParsePower: unit strings are exact in microwatts (10⁻⁶ W): "82.5mW" is 82,500 µW,
// "12W" 12,000,000; String writes them back the same way. Bad ones are errors naming the
// text.
func TestParsePower(t *testing.T) {
	for in, want := range map[string]Power{"0": 0, "82.5mW": 82_500, "12W": 12_000_000, "2.5 W": 2_500_000,
		"500uW": 500, "1µW": 1, "0.001mW": 1} {
		got, err := ParsePower(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
		back, err := ParsePower(got.String())
		require.NoError(t, err)
		require.Equal(t, got, back, "%s → %s", in, got)
	}
	require.Equal(t, "82.5mW", Power(82_500).String())
	require.Equal(t, "12W", Power(12_000_000).String())
	for _, in := range []string{"", "12", "-1W", "1e3W", "0.5uW", "W", "1/2W", "10kW", "99999999999999W"} {
		_, err := ParsePower(in)
		require.Error(t, err, in)
		require.Contains(t, err.Error(), "power", in)
	}
}

// TestPowerCapValidate: a cap below one programming die's power (82.5 mW) would let no
// die program, and is refused naming the key; so is a cap with no die power set. The slots
// keep k·82.5 mW + (dies − k)·99 µW (25 mA and 30 µA at 3.3 V) within the cap:
//   - 165 mW, no standby power, 1 die (geometry unknown): k = 165 / 82.5 = 2 (more slots
//     than dies never matter: capSlots returns at most dies);
//   - 165 mW over 4 dies at 99 µW: (165,000 − 396) / 82,401 = 1.998, so k = 1;
//   - 3 W over 480 dies (fastdrain-tlc): (3,000,000 − 47,520) / 82,401 = 35.8, k = 35,
//     35 × 82.5 mW + 445 × 99 µW = 2.9316 W ≤ 3 W (36 would draw 3.0136 W).
func TestPowerCapValidate(t *testing.T) {
	s := DefaultSpec()
	s.Scheduler.PowerCap, s.Scheduler.DiePower = 50_000, 82_500
	require.ErrorContains(t, s.Validate(), "firmware.scheduler.power_cap: 50mW is below one programming die's 82.5mW")
	s.Scheduler.DiePower = 0
	require.ErrorContains(t, s.Validate(), "firmware.scheduler.power_cap: 50mW needs the array power")
	s.Scheduler.PowerCap, s.Scheduler.DiePower = 165_000, 82_500
	require.NoError(t, s.Validate())
	require.Equal(t, 2, capSlots(s.Scheduler, 2))
	require.Equal(t, 1, capSlots(s.Scheduler, 1))
	s.Scheduler.StandbyPower = 99
	require.Equal(t, 1, capSlots(s.Scheduler, 4))
	s.Scheduler.PowerCap = 3_000_000
	require.Equal(t, 35, capSlots(s.Scheduler, 480))
	require.Equal(t, 0, capSlots(s.Scheduler, 40_000), "standby alone is over the cap")
	require.ErrorContains(t, s.Scheduler.validateCap(40_000), "with the other 39999 dies in standby at 99uW each")
	s.Scheduler.PowerCap = 0
	require.Equal(t, 0, capSlots(s.Scheduler, 480))
	require.NoError(t, s.Scheduler.validateCap(480))
}

// FuzzParsePower: any text either fails or gives a non-negative power whose String
// parses back to it.
func FuzzParsePower(f *testing.F) {
	for _, s := range []string{"0", "82.5mW", "12W", "500uW", "1µW", "-1W", "1e3W", "W", " 2.5 W "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePower(s)
		if err != nil {
			return
		}
		if p < 0 {
			t.Fatalf("%q: negative %d", s, p)
		}
		back, err := ParsePower(p.String())
		if err != nil || back != p {
			t.Fatalf("%q → %d → %q → %d, %v", s, p, p.String(), back, err)
		}
	})
}

// TestPowerCapWithGC: the small rig (real channels and TLC dies) preconditioned to 95 %
// full, then random overwrites of a quarter of its logical space, so GC moves pages and
// erases blocks, under a cap of 200 mW with
// 82.5 mW per programming die and 99 µW per idle one: k = floor((200,000 − 4 × 99) /
// (82,500 − 99)) = floor(2.42) = 2. Recorded on the dies' array resources, at no instant do
// more than 2 dies program or erase (4 do without the cap), GC still runs, every page reads back the version last
// written, and the FTL's invariants hold.
func TestPowerCapWithGC(t *testing.T) {
	s := smallSpec(FastDrain, "latency-aware")
	s.Scheduler.PowerCap, s.Scheduler.DiePower, s.Scheduler.StandbyPower = 200_000, 82_500, 99
	require.Equal(t, 2, capSlots(s.Scheduler, 4))
	r := newRig(t, s, nil)
	require.NoError(t, r.fw.Precondition(0.95, 0, false, 1))
	var spans [][2]sim.Time
	for g := range 4 {
		r.die(g).Array().SetHook(func(res *sim.Resource, act sim.Activity, start, end sim.Time) {
			if n := res.Activities()[act]; n != "read" {
				spans = append(spans, [2]sim.Time{start, end})
			}
		})
	}
	span := r.fw.LogicalPages() / 4
	ref := make([]uint64, span)
	const procs, ios = 4, 4000
	left := ios
	for k := range procs {
		rng := sim.NewRNG(1, "host"+string(rune('a'+k)))
		r.eng.Spawn("host", func(p *sim.Proc) {
			buf := make([]uint64, 1)
			for left > 0 {
				left--
				// Each process writes its own stripe of pages, so no two writes race.
				lba := int64(k) + procs*rng.Int64N(span/procs)
				ref[lba]++
				buf[0] = Stamp(lba, ref[lba])
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, buf).status)
			}
		})
	}
	r.eng.Run()
	require.Positive(t, r.fw.Stats.GCRuns, "GC did not run")
	require.LessOrEqual(t, maxOverlap(spans), 2)
	require.NoError(t, r.fw.FTL().Check())
	got := make([]uint64, 1)
	r.eng.Spawn("check", func(p *sim.Proc) {
		for lba, v := range ref {
			if v > 0 {
				r.cmd(p, nvme.OpRead, int64(lba), 1, nvme.Hint{}, got)
				require.Equal(t, Stamp(int64(lba), v), got[0], "lba %d", lba)
			}
		}
	})
	r.eng.Run()
	t.Logf("%d GC runs, %d erases, %d array program/erase spans, at most %d at once, sim time %v",
		r.fw.Stats.GCRuns, r.fw.FTL().Stats.Erases, len(spans), maxOverlap(spans), r.eng.Now())
}
