package energy

import (
	"testing"
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

const us, ms = sim.Microsecond, sim.Millisecond

// rig is one die, one ONFI bus, one core, the two link directions and the DRAM bus, as a
// platform registers them, with a settable activate count.
type rig struct {
	die, bus, core, down, up, dram *sim.Resource
	activates                      int64
	parts                          Parts
}

func newRig() *rig {
	r := &rig{
		die:  sim.NewResource("die", "read", "program-lsb", "program-csb", "program-msb", "erase", "suspend"),
		bus:  sim.NewResource("bus", "command", "data-in", "data-out"),
		core: sim.NewResource("core", "hil"),
		down: sim.NewResource("down", "mem-write"),
		up:   sim.NewResource("up", "mem-write"),
		dram: sim.NewResource("dram.bus", "read", "write", "refresh"),
	}
	r.parts = Parts{Dies: []*sim.Resource{r.die}, Buses: []*sim.Resource{r.bus}, Cores: []*sim.Resource{r.core},
		Link: [2]*sim.Resource{r.down, r.up}, PCIe: pcie.DefaultSpec(), DRAM: r.dram, DRAMSpec: dram.DefaultSpec(),
		DRAMActivates: func() int64 { return r.activates }}
	return r
}

func act(r *sim.Resource, name string) sim.Activity { return r.Activity(name) }

// TestKnownSequence charges a known sequence of operations under the default spec and
// checks every row against energies worked out by hand from the datasheet values.
func TestKnownSequence(t *testing.T) {
	r := newRig()
	r.die.Occupy(0, 58*us, act(r.die, "read"))                                      // LSB tR
	r.die.Occupy(100*us, 658*us, act(r.die, "program-lsb"))                         // LSB tPROG 558 µs
	r.die.Occupy(1000*us, 3274*us, act(r.die, "erase"))                             // tBERS 2,274 µs
	r.bus.Occupy(0, 1*us, act(r.bus, "command"))                                    // 1 µs
	r.bus.Occupy(1*us, 11*us, act(r.bus, "data-in"))                                // 10 µs
	r.bus.Occupy(58*us, 68*us, act(r.bus, "data-out"))                              // 10 µs
	r.core.Occupy(0, 2*ms, act(r.core, "hil"))                                      // 2 ms busy
	r.down.Occupy(0, 1*ms, act(r.down, "mem-write"))                                // 1 ms on the wire
	r.up.Occupy(0, 500*us, act(r.up, "mem-write"))                                  // 0.5 ms
	r.dram.Occupy(0, 1*us, act(r.dram, "read"))                                     // 1 µs of read bursts
	r.dram.Occupy(1*us, 3*us, act(r.dram, "write"))                                 // 2 µs of write bursts
	r.dram.Occupy(7800*sim.Nanosecond, 7960*sim.Nanosecond, act(r.dram, "refresh")) // charged by rate instead
	r.activates = 3
	m, err := New(DefaultSpec(), r.parts)
	require.NoError(t, err)
	got := m.Read(10 * ms)

	// By hand, at t = 10 ms, with the defaults (docs/energy.md):
	//   NAND, VCC 3.3 V: 25 mA × 3.3 V = 82.5 mW while the array works.
	//     read     82.5 mW × 58 µs    =   4.785 µJ
	//     prog-lsb 82.5 mW × 558 µs   =  46.035 µJ
	//     erase    82.5 mW × 2,274 µs = 187.605 µJ
	//     standby  30 µA × 3.3 V = 99 µW × (10,000 − 58 − 558 − 2,274) µs = 99 µW × 7,110 µs
	//              = 0.70389 µJ
	//   ONFI, VCCQ 3.3 V: 10 mA × 3.3 V = 33 mW: command 33 mW × 1 µs = 33 nJ; data-in and
	//     data-out 33 mW × 10 µs = 330 nJ each.
	//   Core: busy 100 mW × 2 ms = 200 µJ; idle 10 mW × 8 ms = 80 µJ.
	//   PCIe Gen3 x4 moves 8e9 × 4 × 128/130 / 8 = 3,938,461,538 B/s per direction;
	//     × 8 bit × 1.25 pJ/bit = 39.3846 mW while busy: down 1 ms → 39.3846 µJ, up
	//     0.5 ms → 19.6923 µJ. L0: 2 directions × 4 lanes × 30 mW = 240 mW × 10 ms = 2.4 mJ.
	//   DRAM, 32-bit bus of x16 devices = 2 devices, VDD 1.5 V:
	//     read bursts  2 × 1.5 V × (270 − 45) mA = 675 mW × 1 µs = 0.675 µJ
	//     write bursts 2 × 1.5 V × (280 − 45) mA = 705 mW × 2 µs = 1.41 µJ
	//     activate: tRC = tRAS + tRP = 35 + 13.75 = 48.75 ns; per device
	//       1.5 V × (110 mA × 48.75 ns − 45 mA × 35 ns − 42 mA × 13.75 ns)
	//       = 1.5 × (5,362.5 − 1,575 − 577.5) pJ = 4,815 pJ; × 2 devices × 3 = 28.89 nJ
	//     refresh 2 × 1.5 V × (215 − 45) mA × 160 ns / 7,800 ns = 10.4615 mW × 10 ms
	//       = 104.615 µJ (the bus's refresh interval is not charged again)
	//     active standby 2 × 1.5 V × 45 mA = 135 mW × 10 ms = 1.35 mJ
	want := map[Row]float64{
		{NANDArray, "read"}: 4.785e-6, {NANDArray, "program-lsb"}: 46.035e-6, {NANDArray, "erase"}: 187.605e-6,
		{NANDArray, "standby"}: 0.70389e-6,
		{ONFIBus, "command"}:   33e-9, {ONFIBus, "data-in"}: 330e-9, {ONFIBus, "data-out"}: 330e-9,
		{Cores, "busy"}: 200e-6, {Cores, "idle"}: 80e-6,
		{PCIeLink, "down data"}: 39.384615384e-6, {PCIeLink, "up data"}: 19.692307692e-6, {PCIeLink, "L0 standby"}: 2.4e-3,
		{DRAMRank, "read bursts"}: 0.675e-6, {DRAMRank, "write bursts"}: 1.41e-6, {DRAMRank, "activate/precharge"}: 28.89e-9,
		{DRAMRank, "refresh"}: 104.6153846e-6, {DRAMRank, "active standby"}: 1.35e-3,
	}
	for i, row := range Rows() {
		w, ok := want[row]
		if !ok {
			require.Zero(t, got.J[i], "%v", row)
			continue
		}
		require.InEpsilon(t, w, got.J[i], 1e-8, "%v", row)
	}
	require.Equal(t, sim.Time(10*ms), got.At)
}

// TestReadCountsOnlyElapsed: a program booked ahead counts only for its elapsed part.
func TestReadCountsOnlyElapsed(t *testing.T) {
	r := newRig()
	r.die.Occupy(0, 1*ms, act(r.die, "program-msb"))
	m, err := New(DefaultSpec(), r.parts)
	require.NoError(t, err)
	// 82.5 mW × 0.4 ms = 33 µJ of the 82.5 µJ booked.
	require.InEpsilon(t, 33e-6, m.Read(400 * us).J[rowIndex(NANDArray, "program-msb")], 1e-9)
}

// TestPeaksAndTrace drives the meter's buckets on an engine: a core busy over [3, 4) ms
// and [5, 5.5) ms and idle otherwise, read in 1 ms buckets.
func TestPeaksAndTrace(t *testing.T) {
	r := newRig()
	r.core.Occupy(3*ms, 4*ms, act(r.core, "hil"))
	r.core.Occupy(5*ms, 5500*us, act(r.core, "hil"))
	spec := DefaultSpec()
	spec.PeakWindows = []sim.Time{1 * ms, 2 * ms}
	m, err := New(spec, r.parts)
	require.NoError(t, err)
	eng := sim.NewEngine()
	m.Start(eng)
	eng.RunUntil(8*ms + 300*us)
	a := m.Stop(eng.Now())

	// Steady power (always on): link L0 240 mW + DRAM active standby 135 mW + refresh
	// 10.4615 mW = 385.4615 mW; NAND standby 99 µW. The core adds 10 mW idle, 100 mW busy.
	// Buckets of 1 ms: the one ending at 4 ms has the core busy throughout (100 µJ), the one
	// ending at 6 ms half (50 + 5 µJ), the rest idle (10 µJ). Peak over 1 ms: the bucket
	// ending at 4 ms, 385.5614 + 100 = 485.5614 mW. Over 2 ms: [2, 4) and [3, 5) both hold
	// 110 µJ of core energy; the first one wins: 385.5614 + 55 = 440.5614 mW, ending at 4 ms.
	steady := 0.240 + 0.135 + 0.0104615385 + 99e-6
	require.Len(t, a.Peaks, 2)
	require.InEpsilon(t, steady+0.100, a.Peaks[0].Watts, 1e-9)
	require.Equal(t, 4*ms, a.Peaks[0].End)
	require.InEpsilon(t, steady+0.055, a.Peaks[1].Watts, 1e-9)
	require.Equal(t, 4*ms, a.Peaks[1].End)
	// Eight full buckets and a 0.3 ms one.
	require.Len(t, a.Buckets, 9)
	require.Equal(t, 300*us, a.Buckets[8].Len)
	// Trace in 2-bucket groups: the group ending at 4 ms averages core 110 µJ / 2 ms = 55 mW.
	s := a.Series(2)
	require.Equal(t, "energy.controller_cores_mW", s[3].Name)
	require.Equal(t, sim.Sample{At: 4 * ms, Value: 55}, s[3].Samples[1])
	// Whole window: core busy 1.5 ms × 100 mW + idle 6.8 ms × 10 mW = 218 µJ.
	require.InEpsilon(t, 218e-6, a.Component(Cores), 1e-9)
	require.InEpsilon(t, 8.3e-3, a.Seconds(), 1e-12)
}

func TestNewRejectsBadParts(t *testing.T) {
	r := newRig()
	p := r.parts
	p.DRAMSpec.BusWidth = 8 // narrower than one x16 device
	_, err := New(DefaultSpec(), p)
	require.ErrorContains(t, err, "energy.dram.device_width: 16 does not divide dram.bus_width 8")
	p = r.parts
	p.DRAMActivates = nil
	_, err = New(DefaultSpec(), p)
	require.ErrorContains(t, err, "activate count")
}

// TestTraceBytes: 10 s at the default 1 ms resolution is 10,000 buckets of 16 + 8 × 5 =
// 56 B each, appended (their arrays, outgrown ones included, by sim.AppendAllBytes) and a
// Reading of the rows' energies, 8 B a row, per bucket.
func TestTraceBytes(t *testing.T) {
	s := DefaultSpec()
	require.Equal(t, sim.Millisecond, s.Resolution)
	require.Equal(t, 56, int(unsafe.Sizeof(Bucket{})))
	require.Equal(t, sim.AppendAllBytes(10_000, 56)+10_000*int64(len(rows))*8, TraceBytes(s, 10*sim.Second))
	require.Zero(t, TraceBytes(s, 0))
}
