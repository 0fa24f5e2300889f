package onfi

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestFastRates works the data-out of one 16 KiB page by hand at the ONFI 4.2, ONFI 5.x and
// Toggle 5 rates: ⌈16384 · 10⁶ / rate⌉ ps on an 8-bit bus, plus one burst's preamble and
// postamble (t_burst) when set.
//
//	NV-DDR3 1,600 MT/s:   16384e6/1600 = 10,240,000 ps exactly
//	NV-LPDDR4 2,400 MT/s: 16384e6/2400 = 6,826,666.7 → 6,826,667 ps
//	Toggle 3,600 MT/s:    16384e6/3600 = 4,551,111.1 → 4,551,112 ps, + t_burst 5 ns
func TestFastRates(t *testing.T) {
	for _, c := range []struct {
		iface Interface
		rate  int
		burst sim.Time
		want  sim.Time
	}{
		{NVDDR3, 1600, 0, 10_240_000},
		{NVLPDDR4, 2400, 0, 6_826_667},
		{Toggle, 3600, 5 * sim.Nanosecond, 4_551_112 + 5000},
	} {
		s, err := SpecForRate(c.iface, c.rate)
		require.NoError(t, err)
		s.TBurst = c.burst
		require.NoError(t, s.Validate())
		require.Equal(t, c.rate, s.MTps())
		require.Equal(t, c.want, s.Transfer(16384), "%v %d", c.iface, c.rate)
		// A whole one-plane read's data-out: tRR 20 ns + the transfer.
		require.Equal(t, 20*sim.Nanosecond+c.want, s.ReadDataOut(1, 16384))
	}
}

// TestRateValidation names the field of every rate problem.
func TestRateValidation(t *testing.T) {
	s, err := SpecForRate(Toggle, 2400)
	require.NoError(t, err)
	s.Rate = 0
	require.ErrorContains(t, s.Validate(), "onfi.rate: toggle needs its data rate")
	s.Rate = 4000
	require.ErrorContains(t, s.Validate(), "onfi.rate: 4000 MT/s is not in 1 … 3600")
	d := DefaultSpec()
	d.Rate = 1600
	require.ErrorContains(t, d.Validate(), "onfi.rate: 1600 is set, but nv-ddr2 is given by its timing mode")
	_, err = SpecForRate(NVDDR2, 400)
	require.ErrorContains(t, err, "given by timing mode")
	var y Spec
	require.NoError(t, yaml.Unmarshal([]byte("interface: nv-lpddr4\nrate: 2400\nt_burst: 4ns\n"), &y))
	require.Equal(t, NVLPDDR4, y.Interface)
	require.Equal(t, 2400, y.Rate)
	require.Equal(t, 4*sim.Nanosecond, y.TBurst)
}
