package powercut

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// flagDefaults are fastdrain powercut's flag defaults, with one variant.
func flagDefaults() Flags {
	return Flags{Preset: "tiny", Variants: []string{"fd"}, PLP: "both", Mappings: []string{"page"}, Cuts: 20,
		Schedules: ScheduleNames(), Seed: 1, From: "300ms", Window: "500ms", Patience: "0", Jobs: 3, Workload: DefaultWorkload()}
}

// TestParseOptions: one variant × both PLP settings × one mapping is 2 targets; the
// instants are 300 ms and 500 ms in picoseconds (3 × 10^11, 5 × 10^11); every schedule
// in order but the 3 of the SLC cache (fold, fold-erase, slc-full), which tiny has not.
func TestParseOptions(t *testing.T) {
	o, err := ParseOptions(flagDefaults())
	require.NoError(t, err)
	require.Len(t, o.Targets, 2)
	require.Equal(t, sim.Time(300_000_000_000), o.From)
	require.Equal(t, sim.Time(500_000_000_000), o.Window)
	require.Equal(t, sim.Time(0), o.Patience)
	require.Len(t, o.Schedules, len(ScheduleNames())-3)
	for _, s := range o.Schedules {
		require.False(t, s.SLC, s.Name)
	}
	require.Equal(t, 3, o.Jobs)
	require.Equal(t, 20, o.Cuts)
}

// TestParseOptionsErrors: each bad flag is named, with what is wrong.
func TestParseOptionsErrors(t *testing.T) {
	for _, c := range []struct {
		edit func(*Flags)
		want string
	}{
		{func(f *Flags) { f.Cuts = 0 }, "--cuts: 0; want at least 1"},
		{func(f *Flags) { f.Burst = "soon" }, `--burst: "soon" is not a non-negative duration such as 300ms`},
		{func(f *Flags) { f.PLP = "maybe" }, `--plp: "maybe"; want on, off or both`},
		{func(f *Flags) { f.Schedules = []string{"random", "noon"} }, `--schedules: powercut: no schedule named "noon"`},
		{func(f *Flags) { f.From = "-1ms" }, `--from: "-1ms" is not a non-negative duration`},
		{func(f *Flags) { f.Patience = "soon" }, `--patience: "soon" is not a non-negative duration`},
		{func(f *Flags) { f.Window = "0" }, "--window: want a positive duration"},
	} {
		f := flagDefaults()
		c.edit(&f)
		_, err := ParseOptions(f)
		require.ErrorContains(t, err, c.want)
	}
}

// FuzzParseOptions: any strings in the string flags give options or an error naming a
// flag — never a panic. The variants are none, so no machine is built.
func FuzzParseOptions(f *testing.F) {
	f.Add("both", "random", "300ms", "500ms", "0")
	f.Add("", "", "", "", "")
	f.Add("on", "lookahead", "1s", "1ns", "-0")
	f.Fuzz(func(t *testing.T, plp, schedule, from, window, patience string) {
		fl := flagDefaults()
		fl.Variants, fl.PLP, fl.Schedules, fl.From, fl.Window, fl.Patience = nil, plp, []string{schedule}, from, window, patience
		if _, err := ParseOptions(fl); err != nil && !strings.HasPrefix(err.Error(), "--") && !strings.Contains(err.Error(), "variant") {
			t.Fatalf("error names no flag: %v", err)
		}
	})
}
