package energy

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestParseUnits(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		f    func(string) (int64, error)
	}{
		{"25mA", 25_000_000, pc}, {"30uA", 30_000, pc}, {"30µA", 30_000, pc}, {"1.2A", 1_200_000_000, pc},
		{"0", 0, pc}, {"3.3V", 3_300_000, pv}, {"1800mV", 1_800_000, pv}, {"100mW", 100_000_000, pp},
		{"2W", 2_000_000_000, pp}, {"1.25pJ/bit", 1250, pe}, {"500fJ/bit", 500, pe},
	} {
		got, err := c.f(c.in)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got, c.in)
	}
	for _, bad := range []string{"25", "-1mA", "0.5nA", "1e3mA", "mA", "3 volts"} {
		_, err := pc(bad)
		require.Error(t, err, bad)
	}
}

func pc(s string) (int64, error) {
	var c Current
	err := c.UnmarshalText([]byte(s))
	return int64(c), err
}
func pv(s string) (int64, error) {
	var v Voltage
	err := v.UnmarshalText([]byte(s))
	return int64(v), err
}
func pp(s string) (int64, error) {
	var p Power
	err := p.UnmarshalText([]byte(s))
	return int64(p), err
}
func pe(s string) (int64, error) {
	var e EnergyPerBit
	err := e.UnmarshalText([]byte(s))
	return int64(e), err
}

func TestFormatRoundTrips(t *testing.T) {
	require.Equal(t, "25mA", Current(25_000_000).String())
	require.Equal(t, "30uA", Current(30_000).String())
	require.Equal(t, "3.3V", Voltage(3_300_000).String())
	require.Equal(t, "1.25pJ/bit", EnergyPerBit(1250).String())
	require.Equal(t, "100mW", Power(100_000_000).String())
	require.Equal(t, "7nA", Current(7).String())
	b, err := yaml.Marshal(DefaultSpec())
	require.NoError(t, err)
	var back Spec
	require.NoError(t, yaml.Unmarshal(b, &back))
	require.Equal(t, DefaultSpec(), back)
}

func TestYAMLErrorNamesLine(t *testing.T) {
	var s Spec
	err := yaml.Unmarshal([]byte("nand:\n  icc1: 25\n"), &s)
	require.ErrorContains(t, err, "line 2: current \"25\": missing unit after the number")
}

func TestValidate(t *testing.T) {
	require.NoError(t, DefaultSpec().Validate())
	s := DefaultSpec()
	s.NAND.VCC = 0
	s.DRAM.IDD4R = 1_000_000 // 1 mA, below IDD3N
	s.DRAM.DeviceWidth = 12
	s.Resolution = sim.Millisecond
	s.PeakWindows = []sim.Time{1500 * sim.Microsecond}
	err := s.Validate()
	require.ErrorContains(t, err, "energy.nand.vcc: 0 must be positive")
	require.ErrorContains(t, err, "energy.dram.idd4r: 1mA is below idd3n 45mA")
	require.ErrorContains(t, err, "energy.dram.device_width: 12 is not one of 4, 8, 16")
	require.ErrorContains(t, err, "energy.peak_windows[0]: 1.5ms is not a positive whole number of buckets")
}
