package energy

import (
	"math/rand/v2"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestBookedAheadSplitsAcrossBuckets: the meter's buckets come from the engine's watch,
// with no events of their own. One event at 0.5 ms books a die read over [0.6, 2.4) ms
// ahead of time; the next (and last) event is at 3.2 ms.
func TestBookedAheadSplitsAcrossBuckets(t *testing.T) {
	r := newRig()
	eng := sim.NewEngine()
	r.die.Follow(eng)
	read := act(r.die, "read")
	eng.At(500*us, func() { r.die.Occupy(600*us, 2400*us, read) })
	eng.At(3200*us, func() {})
	m, err := New(DefaultSpec(), r.parts)
	require.NoError(t, err)
	m.Start(eng)
	eng.Run()
	a := m.Stop(eng.Now())

	// By hand: the read counts only for its part in each bucket, 0.4, 1.0, 0.4 and 0 ms of
	// the buckets ending at 1, 2, 3 and 3.2 ms, at 25 mA × 3.3 V = 82.5 mW: 33, 82.5, 33
	// and 0 µJ; the die stands by the rest of each bucket at 30 µA × 3.3 V = 99 µW: 0.6,
	// 0, 0.6 and 0.2 ms, 59.4, 0, 59.4 and 19.8 nJ. The queue jumped from 0.5 to 3.2 ms
	// over three bucket ends; each was read in turn. Two events fired: the model's own
	// (a daemon per bucket made it five).
	require.Equal(t, uint64(2), eng.Fired())
	want := []struct {
		end, len sim.Time
		nandJ    float64
	}{
		{1 * ms, 1 * ms, 33e-6 + 59.4e-9}, {2 * ms, 1 * ms, 82.5e-6},
		{3 * ms, 1 * ms, 33e-6 + 59.4e-9}, {3200 * us, 200 * us, 19.8e-9},
	}
	require.Len(t, a.Buckets, len(want))
	for i, w := range want {
		b := a.Buckets[i]
		require.Equal(t, w.end, b.End, "bucket %d", i)
		require.Equal(t, w.len, b.Len, "bucket %d", i)
		require.InEpsilon(t, w.nandJ, b.J[componentIndex(NANDArray)], 1e-9, "bucket %d", i)
	}
	// The 1 ms peak is the bucket ending at 2 ms: the steady 385.4615 mW (link L0 240,
	// DRAM active standby 135 and refresh 10.4615 mW, as in TestPeaksAndTrace) plus the
	// idle core's 10 mW plus the read's 82.5 mW = 477.9615 mW.
	require.InEpsilon(t, 0.240+0.135+0.0104615385+0.010+0.0825, a.Peaks[0].Watts, 1e-9)
	require.Equal(t, 2*ms, a.Peaks[0].End)
}

// daemonMeter is how the meter read its buckets before the engine's watches, kept here
// as the reference: a daemon event in PhaseStats at the end of every bucket, which reads
// the meter and schedules the next; at the end, a final bucket up to the stop time.
type daemonMeter struct {
	m   *Meter
	eng *sim.Engine
}

func startDaemonMeter(m *Meter, eng *sim.Engine) *daemonMeter {
	d := &daemonMeter{m: m, eng: eng}
	m.start, m.last = m.Read(eng.Now()), m.Read(eng.Now())
	eng.ScheduleDaemon(eng.Now()+m.spec.Resolution, sim.PhaseStats, d, nil, 0)
	return d
}

func (d *daemonMeter) HandleEvent(ev *sim.Event) {
	d.m.bucket(ev.Time)
	d.eng.ScheduleDaemon(ev.Time+d.m.spec.Resolution, sim.PhaseStats, d, nil, 0)
}

// stop returns the buckets and peaks as the daemon's Stop made them.
func (d *daemonMeter) stop(t sim.Time) ([]Bucket, []Peak) {
	if t > d.m.last.At {
		d.m.bucket(t)
	}
	var ps []Peak
	for _, w := range d.m.spec.PeakWindows {
		ps = append(ps, peak(d.m.buckets, w, d.m.spec.Resolution))
	}
	return d.m.buckets, ps
}

// busyModel keeps every resource of a rig busy at random: each event books work on one
// resource — ahead of time behind what is booked already (a die, the bus, a link
// direction, the DRAM with an activate), or an open interval on the core — and
// schedules the next, at times that often fall on a bucket's end.
type busyModel struct {
	r    *rig
	eng  *sim.Engine
	rng  *rand.Rand
	left int
	acts [6][]sim.Activity
}

func (b *busyModel) HandleEvent(ev *sim.Event) {
	now := b.eng.Now()
	rs := []*sim.Resource{b.r.die, b.r.bus, b.r.down, b.r.up, b.r.dram, b.r.core}
	k := b.rng.IntN(len(rs))
	res := rs[k]
	a := b.acts[k][b.rng.IntN(len(b.acts[k]))]
	dur := sim.Time(1+b.rng.IntN(2500)) * us
	switch {
	case res == b.r.core && res.Busy(now):
		res.End(now)
	case res == b.r.core:
		if res.FreeAt(now) == now {
			res.Begin(now, a)
		}
	default:
		start := res.FreeAt(now) + sim.Time(b.rng.IntN(3))*100*us
		res.Occupy(start, start+dur, a)
		if res == b.r.dram {
			b.r.activates++
		}
	}
	if b.left > 0 {
		b.left--
		// Mostly on a 250 µs grid, so on a bucket's end a quarter of the time, at
		// several phases; now and then a 5 ms gap over several bucket ends.
		d := sim.Time(b.rng.IntN(5)) * 250 * us
		if b.rng.IntN(20) == 0 {
			d = 5 * ms
		}
		ph := []sim.Phase{sim.PhaseHardware, sim.PhaseDefault, sim.PhaseProcess}[b.rng.IntN(3)]
		b.eng.SchedulePhase(now+d, ph, b, nil, 0)
	}
}

// TestBucketsMatchDaemon: random runs metered by the watch and by the daemon (two meters
// of the same parts, in two runs of the same model) give bit-identical buckets and peaks,
// and the watched run fires one event fewer per bucket the daemon read.
func TestBucketsMatchDaemon(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		run := func(daemon bool) ([]Bucket, []Peak, uint64) {
			r := newRig()
			eng := sim.NewEngine()
			for _, res := range []*sim.Resource{r.die, r.bus, r.core, r.down, r.up, r.dram} {
				res.Follow(eng)
			}
			b := &busyModel{r: r, eng: eng, rng: rand.New(rand.NewPCG(seed, 24)), left: 1500}
			for k, names := range [][]string{{"read", "program-lsb", "program-csb", "program-msb", "erase", "suspend"},
				{"command", "data-in", "data-out"}, {"mem-write"}, {"mem-write"}, {"read", "write"}, {"hil"}} {
				for _, n := range names {
					b.acts[k] = append(b.acts[k], []*sim.Resource{r.die, r.bus, r.down, r.up, r.dram, r.core}[k].Activity(n))
				}
			}
			spec := DefaultSpec()
			spec.PeakWindows = []sim.Time{1 * ms, 2 * ms, 10 * ms}
			m, err := New(spec, r.parts)
			require.NoError(t, err)
			for i := 0; i < 4; i++ {
				eng.Schedule(sim.Time(i)*100*us, b, nil, 0)
			}
			var d *daemonMeter
			// Start after a first stretch of activity (as the runner does after the set-up),
			// from inside an event at 3.25 ms.
			eng.At(3250*us, func() {
				if daemon {
					d = startDaemonMeter(m, eng)
				} else {
					m.Start(eng)
				}
			})
			eng.Run()
			if daemon {
				bs, ps := d.stop(eng.Now())
				return bs, ps, eng.Fired()
			}
			a := m.Stop(eng.Now())
			return a.Buckets, a.Peaks, eng.Fired()
		}
		wantB, wantP, firedDaemon := run(true)
		gotB, gotP, fired := run(false)
		require.Greater(t, len(wantB), 100, "seed %d", seed)
		require.Equal(t, wantB, gotB, "seed %d", seed) // float64 fields: bit for bit
		require.Equal(t, wantP, gotP, "seed %d", seed)
		// The daemon fired once per bucket end before the last event (the final bucket,
		// full or part, is closed by Stop in both).
		require.Equal(t, firedDaemon-uint64(len(wantB)-1), fired, "seed %d", seed)
	}
}
