package sweep

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// changedOf returns a changed function for the named flags.
func changedOf(flags ...string) func(string) bool {
	return func(f string) bool { return slices.Contains(flags, f) }
}

// flagDefaults are fastdrain sweep's flag defaults, with 10 s runs.
func flagDefaults() Flags {
	d := DefaultFlashbench()
	return Flags{Kind: string(KindRun), Base: Base{Preset: "fastdrain-tlc"}, Flashbench: d, Mix: "70/30/0",
		Run:   RunParams{Scenario: DefaultRun().Scenario},
		Times: func() (sim.Time, sim.Time, []error) { return 10 * sim.Second, 0, nil }}
}

// TestParseSpecFlashbench: --kind flashbench with two axes and --mix 1/2/3 gives a 2 × 3 =
// 6-point grid of flashbench points with those weights and --seed as the stream's seed.
func TestParseSpecFlashbench(t *testing.T) {
	f := flagDefaults()
	f.Kind, f.Axes, f.Mix, f.Seed = "flashbench", []string{"flash.channels=2,4", "flash.ways=1,2,4"}, "1/2/3", 7
	s, err := ParseSpec(f, changedOf("kind", "mix", "seed"))
	require.NoError(t, err)
	require.Equal(t, KindFlashbench, s.Kind)
	require.Equal(t, 6, s.Size())
	require.Equal(t, [3]int{1, 2, 3}, s.Flashbench.Mix)
	require.Equal(t, uint64(7), s.Flashbench.Seed)
	require.Nil(t, s.Run)
}

// TestParseSpecFile: the file's kind and preset stand unless the flag is given; --axis adds
// after the file's axes; --set layers after the file's.
func TestParseSpecFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(file, []byte("kind: flashbench\npreset: tiny\nset: [flash.die.planes=4]\naxes:\n  - {key: flash.channels, values: [1, 2]}\n"), 0o644))
	f := flagDefaults()
	f.File, f.Axes, f.Base.Sets = file, []string{"flash.ways=1,2"}, []string{"flash.die.planes=2"}
	s, err := ParseSpec(f, changedOf("axis", "set"))
	require.NoError(t, err)
	require.Equal(t, KindFlashbench, s.Kind)
	require.Equal(t, "tiny", s.Base.Preset)
	require.Equal(t, []string{"flash.die.planes=4", "flash.die.planes=2"}, s.Base.Sets)
	require.Equal(t, []string{"flash.channels", "flash.ways"}, s.Axes.Keys())
	f.Base.Preset = "gen4-tlc"
	s, err = ParseSpec(f, changedOf("preset"))
	require.NoError(t, err)
	require.Equal(t, "gen4-tlc", s.Base.Preset)
}

// TestParseSpecErrors: each bad flag is named, with what is wrong.
func TestParseSpecErrors(t *testing.T) {
	f := flagDefaults()
	f.Mix = "1/2"
	_, err := ParseSpec(f, changedOf("ops", "mix"))
	require.ErrorContains(t, err, "--ops applies to --kind flashbench only")
	require.ErrorContains(t, err, "--mix applies to --kind flashbench only")
	require.ErrorContains(t, err, "give at least one --axis")
	f.Kind, f.Axes = "flashbench", []string{"flash.channels=2"}
	_, err = ParseSpec(f, changedOf("duration"))
	require.ErrorContains(t, err, "--duration applies to --kind run only")
	require.ErrorContains(t, err, `--mix: "1/2": want three weights`)
	f.Kind = "fio"
	_, err = ParseSpec(f, changedOf())
	require.ErrorContains(t, err, `--kind "fio": want run or flashbench`)
	f.File = filepath.Join(t.TempDir(), "none.yaml")
	_, err = ParseSpec(f, changedOf())
	require.ErrorContains(t, err, "--file: ")
}

// FuzzParseSpec: any kind, axis and mix strings give a spec or an error — never a panic.
func FuzzParseSpec(f *testing.F) {
	f.Add("flashbench", "flash.channels=2,4", "70/30/0")
	f.Add("run", "=", "")
	f.Add("", "a=1,1", "-1/0/0")
	f.Fuzz(func(t *testing.T, kind, axis, mix string) {
		fl := flagDefaults()
		fl.Kind, fl.Axes, fl.Mix = kind, []string{axis}, mix
		s, err := ParseSpec(fl, changedOf("mix"))
		if err == nil && (s.Kind != KindFlashbench || strings.Count(mix, "/") != 2) {
			t.Fatalf("kind %q, mix %q accepted: %+v", kind, mix, s)
		}
	})
}
