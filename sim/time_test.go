package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestParseTime(t *testing.T) {
	cases := []struct {
		in   string
		want Time
	}{
		{"558us", 558_000_000},
		{"13.75ns", 13_750},
		{"2.2ms", 2_200_000_000},
		{"1s", 1_000_000_000_000},
		{"0", 0},
		{"250ps", 250},
		{"250 ps", 250},
		{"5001µs", 5_001_000_000},
		{"0.5ns", 500},
		{".5us", 500_000},
		{"1.000ns", 1000},
	}
	for _, c := range cases {
		got, err := ParseTime(c.in)
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got, c.in)
	}
}

func TestParseTimeErrors(t *testing.T) {
	for _, in := range []string{"", "12", "1.5ps", "abc", "ms", "3 parsecs", "1e3ns", "99999999999999999s", "1..2ns", "."} {
		_, err := ParseTime(in)
		require.Error(t, err, in)
	}
}

func TestTimeString(t *testing.T) {
	cases := []struct {
		in   Time
		want string
	}{
		{0, "0s"},
		{558 * Microsecond, "558us"},
		{13_750, "13.75ns"},
		{2_200_000_000, "2.2ms"},
		{Second, "1s"},
		{999, "999ps"},
		{1_234_567, "1234.567ns"},
		{-3 * Nanosecond, "-3ns"},
		{MaxTime, "never"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.in.String())
		if c.in != MaxTime {
			back, err := ParseTime(c.want)
			require.NoError(t, err)
			require.Equal(t, c.in, back, "round trip of %s", c.want)
		}
	}
}

func TestTimeYAML(t *testing.T) {
	var v struct {
		T Time `yaml:"t"`
		F Freq `yaml:"f"`
	}
	require.NoError(t, yaml.Unmarshal([]byte("t: 13.75ns\nf: 333MHz\n"), &v))
	require.Equal(t, Time(13750), v.T)
	require.Equal(t, 333*MHz, v.F)
	out, err := yaml.Marshal(v)
	require.NoError(t, err)
	require.Equal(t, "t: 13.75ns\nf: 333MHz\n", string(out))
	require.Error(t, yaml.Unmarshal([]byte("t: 12\n"), &v), "a bare number has no unit")
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"558us", "13.75ns", "0", "1.5ps", "-2ms", "9223372036854775807ps"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTime(s)
		if err != nil {
			return
		}
		// Whatever parses must format and parse back to the same value.
		back, err := ParseTime(v.String())
		if v == MaxTime {
			return
		}
		require.NoError(t, err, "%q → %v", s, v)
		require.Equal(t, v, back)
	})
}

// TestParseTimeUnitMessages: a time whose unit is missing or unknown says which, with the
// text given and the units accepted; hours, minutes and days also say what to write
// (1 h = 3,600 s, 1.5 min = 90 s, 2 d = 172,800 s).
func TestParseTimeUnitMessages(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1h", `time "1h": unknown unit "h" (want ps, ns, us, ms or s); 1h is 3600s`},
		{"1.5min", `time "1.5min": unknown unit "min" (want ps, ns, us, ms or s); 1.5min is 90s`},
		{"2 days", `time "2 days": unknown unit "days" (want ps, ns, us, ms or s); 2 days is 172800s`},
		{"5x", `time "5x": unknown unit "x" (want ps, ns, us, ms or s)`},
		{"10", `time "10": missing unit after the number (want ps, ns, us, ms or s)`},
		{"ms", `time "ms": missing number`},
		{"h", `time "h": no number before the unit (want a number with a unit: ps, ns, us, ms or s)`},
		{"", `time "": empty`},
	} {
		_, err := ParseTime(c.in)
		require.EqualError(t, err, c.want, c.in)
	}
}
