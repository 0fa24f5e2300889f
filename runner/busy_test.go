package runner

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestBusyGridFromResourceAccounting: the heat map's busy shares come from differencing
// the resources' own cumulative busy time at sampler ticks. Worked by hand with a 10 ms
// interval (ticks at 0, 10, 20 ms):
//   - resource a busy [0, 3 ms) and [12 ms, 14 ms), both booked at time 0 (the second in
//     the future, as channels book ahead): cumulative 0, 3, 5 ms at the ticks, so shares
//     3/10 = 0.3 and 2/10 = 0.2;
//   - a group of a and b, b busy [5 ms, 10 ms): cumulative 0, 3+5 = 8, 5+5 = 10 ms, over
//     two members: 8/(10·2) = 0.4 and 2/(10·2) = 0.1.
func TestBusyGridFromResourceAccounting(t *testing.T) {
	eng := sim.NewEngine()
	defer eng.Close()
	a, b := sim.NewResource("a", "work"), sim.NewResource("b", "work")
	a.Follow(eng)
	b.Follow(eng)
	work := a.Activity("work")
	a.Occupy(0, 3*sim.Millisecond, work)
	a.Occupy(12*sim.Millisecond, 14*sim.Millisecond, work)
	b.Occupy(5*sim.Millisecond, 10*sim.Millisecond, b.Activity("work"))
	smp := sim.NewSampler(eng, 10*sim.Millisecond)
	var pr probes
	one := pr.trackGroup(smp, eng, "a", []*sim.Resource{a})
	two := pr.trackGroup(smp, eng, "a+b", []*sim.Resource{a, b})
	eng.Spawn("clock", func(p *sim.Proc) { p.Sleep(25 * sim.Millisecond) })
	eng.Run()
	rows := []BusyRow{
		{Name: one.Name, Members: pr.members[one], Samples: one.Samples[:3]},
		{Name: two.Name, Members: pr.members[two], Samples: two.Samples[:3]},
	}
	require.Equal(t, []sim.Sample{{At: 0, Value: 0}, {At: 10 * sim.Millisecond, Value: int64(3 * sim.Millisecond)},
		{At: 20 * sim.Millisecond, Value: int64(5 * sim.Millisecond)}}, rows[0].Samples)
	g, ok := BusyGrid(rows, MaxHeatColumns)
	require.True(t, ok)
	require.Equal(t, []string{"a", "a+b"}, g.Rows)
	require.InDelta(t, 0.0, g.Start, 1e-15)
	require.InDelta(t, 0.010, g.Width, 1e-15)
	require.InDeltaSlice(t, []float64{0.3, 0.2}, g.Values[0], 1e-12)
	require.InDeltaSlice(t, []float64{0.4, 0.1}, g.Values[1], 1e-12)
	require.True(t, pr.is(one) && pr.is(two))

	_, ok = BusyGrid([]BusyRow{{Name: "short", Members: 1, Samples: rows[0].Samples[:2]}}, MaxHeatColumns)
	require.False(t, ok, "one interval is too few for a heat map")
}

// TestBusyGridMergesIntervals: six 10 ms samples (five intervals) with cumulative busy
// 0, 1, 3, 6, 8, 9 ms, at most 2 columns: k = ⌈5/2⌉ = 3 intervals a column, so column 0 is
// [0, 30 ms): (6 − 0)/30 = 0.2, and column 1 the remaining two intervals [30, 50 ms):
// (9 − 6)/20 = 0.15, drawn 30 ms wide. At most 1 column still gives two (k = 3): the same.
// Three intervals at most 400 columns stay three: 0.1, 0.2, 0.3.
func TestBusyGridMergesIntervals(t *testing.T) {
	ms := sim.Millisecond
	var s []sim.Sample
	for i, b := range []sim.Time{0, 1, 3, 6, 8, 9} {
		s = append(s, sim.Sample{At: sim.Time(i) * 10 * ms, Value: int64(b * ms)})
	}
	for _, cols := range []int{2, 1} {
		g, ok := BusyGrid([]BusyRow{{Name: "r", Members: 1, Samples: s}}, cols)
		require.True(t, ok)
		require.InDelta(t, 0.030, g.Width, 1e-15)
		require.InDeltaSlice(t, []float64{0.2, 0.15}, g.Values[0], 1e-12)
	}
	g, ok := BusyGrid([]BusyRow{{Name: "r", Members: 1, Samples: s[:4]}}, MaxHeatColumns)
	require.True(t, ok)
	require.InDelta(t, 0.010, g.Width, 1e-15)
	require.InDeltaSlice(t, []float64{0.1, 0.2, 0.3}, g.Values[0], 1e-12)
}

// TestRateLine: 10 ms samples of cumulative bytes 0, 1 000 000, 1 500 000: the rates are
// 1e6 B / 0.01 s = 100 MB/s and 0.5e6 B / 0.01 s = 50 MB/s, as steps at 0 and 10 ms, with a
// closing point at 20 ms repeating 50.
func TestRateLine(t *testing.T) {
	ms := sim.Millisecond
	l := RateLine(Traffic{Name: "host write", Samples: []sim.Sample{{At: 0, Value: 0}, {At: 10 * ms, Value: 1_000_000}, {At: 20 * ms, Value: 1_500_000}}})
	require.Equal(t, "host write", l.Name)
	require.InDeltaSlice(t, []float64{0, 0.01, 0.02}, l.X, 1e-15)
	require.InDeltaSlice(t, []float64{100, 50, 50}, l.Y, 1e-9)
	require.Empty(t, RateLine(Traffic{Name: "x", Samples: []sim.Sample{{At: 0, Value: 5}}}).X)
}

// TestHeatMapRows: fastdrain-tlc has 480 dies, over MaxDieRows, so the die heat map has
// one row per channel, each over that channel's dies; fastdrain-small's 16 dies get a row
// each. Both have one row per channel bus. Every share is a fraction of its interval
// (0 to 1), the run keeps the busy and traffic probes out of its Series (series.csv and
// result.json do not change), and traffic names the host's directions then each app.
func TestHeatMapRows(t *testing.T) {
	for _, preset := range []string{"fastdrain-tlc", "fastdrain-small"} {
		c, err := platforms.Load(platforms.Options{Preset: preset, Variant: "fd"})
		require.NoError(t, err)
		sc, err := apps.LookupScenario("apache-u+ungzip")
		require.NoError(t, err)
		sc.Duration = 100 * sim.Millisecond
		r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		require.NoError(t, err)
		perCh := c.Flash.Ways * c.Flash.DiesPerPackage
		dies := c.Flash.Channels * perCh
		require.Len(t, r.ChannelBusy, c.Flash.Channels, preset)
		if dies > MaxDieRows {
			require.Len(t, r.DieBusy, c.Flash.Channels, preset)
			require.Equal(t, perCh, r.DieBusy[0].Members)
			require.Equal(t, "ch[0] dies (mean of "+strconv.Itoa(perCh)+")", r.DieBusy[0].Name)
		} else {
			require.Len(t, r.DieBusy, dies, preset)
			require.Equal(t, 1, r.DieBusy[0].Members)
			require.Equal(t, "ssd.ch[0].die[0]", r.DieBusy[0].Name)
		}
		positive := false
		for _, rows := range [][]BusyRow{r.ChannelBusy, r.DieBusy} {
			g, ok := BusyGrid(rows, MaxHeatColumns)
			require.True(t, ok)
			for _, row := range g.Values {
				for _, v := range row {
					require.GreaterOrEqual(t, v, 0.0)
					require.LessOrEqual(t, v, 1.0+1e-12)
					positive = positive || v > 0
				}
			}
		}
		require.True(t, positive, "the flash was busy at some point")
		var names []string
		for _, tr := range r.Traffic {
			names = append(names, tr.Name)
		}
		require.Equal(t, []string{"host read", "host write", "apache-u payload", "ungzip payload"}, names)
		for _, s := range r.Series {
			require.False(t, strings.HasPrefix(s.Name, "ssd.ch[") || strings.HasSuffix(s.Name, "payload") || strings.HasPrefix(s.Name, "host "), s.Name)
		}
	}
}
