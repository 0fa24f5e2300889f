package platforms

import (
	"regexp"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fdpSets turns FDP on for the tiny preset (4 dies), as docs/placement-jobs/groups-1-3.yaml does.
var fdpSets = []string{"nvme.fdp.enabled=true", "nvme.fdp.handles=2", "nvme.hint_carrier=cdw2"}

// TestSetListAndMapValues: a --set value that is a YAML flow list or mapping is read as a
// configuration file reads it: the configuration equals the one a file layer with the same
// YAML gives, and the values are the ones written.
func TestSetListAndMapValues(t *testing.T) {
	cases := []struct {
		set, file string
		check     func(c Config)
	}{
		{"nvme.fdp.reclaim_group_dies=[1,3]", "nvme: {fdp: {reclaim_group_dies: [1, 3]}}",
			func(c Config) { require.Equal(t, []int{1, 3}, c.NVMe.FDP.ReclaimGroupDies) }},
		{"energy.peak_windows=[2ms, 20ms]", "energy: {peak_windows: [2ms, 20ms]}",
			func(c Config) {
				require.Equal(t, []sim.Time{2 * sim.Millisecond, 20 * sim.Millisecond}, c.Energy.PeakWindows)
			}},
		// A mapping onto a section: only the keys it names change.
		{"flash={channels: 2, ways: 2}", "flash: {channels: 2, ways: 2}",
			func(c Config) {
				require.Equal(t, 2, c.Flash.Channels)
				require.Equal(t, 2, c.Flash.Ways)
				def, err := Load(Options{Preset: "tiny"})
				require.NoError(t, err)
				require.Equal(t, def.Flash.Die, c.Flash.Die)
			}},
		{"energy.nand={icc2: 30mA, vccq: 1.8V}", "energy: {nand: {icc2: 30mA, vccq: 1.8V}}", nil},
		// Flow values across lines and with a comment, as a file may have them.
		{"nvme.fdp.reclaim_group_dies=[\n  1,\n  3 ] # one die, then three", "nvme: {fdp: {reclaim_group_dies: [1, 3]}}", nil},
	}
	for _, tc := range cases {
		t.Run(tc.set, func(t *testing.T) {
			viaSet, err := Load(Options{Preset: "tiny", Sets: append(append([]string{}, fdpSets...), tc.set)})
			require.NoError(t, err)
			viaFile, err := Load(Options{Preset: "tiny", Sets: fdpSets, Layers: []Source{{"file.yaml", []byte(tc.file)}}})
			require.NoError(t, err)
			require.Equal(t, viaFile, viaSet)
			if tc.check != nil {
				tc.check(viaSet)
			}
		})
	}
}

// goTypeName matches what must never reach a user: a Go type ("[]int", "platforms.Flash",
// "into int") or yaml.v3's own wording.
var goTypeName = regexp.MustCompile(`\[\]int|platforms\.|energy\.NAND|into int|!!seq|!!map|unmarshal`)

// TestSetListAndMapErrors: a list or mapping that does not fit its field is refused under
// its --set text with the field's path (an element's by index) and what is wrong, never a
// Go type name; the messages below are the ones a file with the same YAML gets, less its
// line numbers.
func TestSetListAndMapErrors(t *testing.T) {
	cases := []struct{ set, want string }{
		// A bad element type, a fraction for a count, a null element.
		{"nvme.fdp.reclaim_group_dies=[1,x]", `nvme.fdp.reclaim_group_dies[1]: "x" is not an integer`},
		{"nvme.fdp.reclaim_group_dies=[1, 2.5]", "nvme.fdp.reclaim_group_dies[1]: 2.5 is not a whole number"},
		{"nvme.fdp.reclaim_group_dies=[1, ~]", "nvme.fdp.reclaim_group_dies[1]: no value (null)"},
		{"energy.peak_windows=[1ms, 4]", `energy.peak_windows[1]: time "4": missing unit`},
		// A collection of the wrong kind.
		{"nvme.fdp.reclaim_group_dies={a: 1}", "nvme.fdp.reclaim_group_dies: a mapping is not a list"},
		{"flash.channels=[1]", "flash.channels: a list is not an integer"},
		{"flash.channels={a: 1}", "flash.channels: a mapping is not an integer"},
		{"flash=[4]", "flash: a list is not a mapping of its keys"},
		{"energy.nand=[1]", "energy.nand: a list is not a mapping of its keys"},
		{"flash.die.faults.scripted=[1]", `flash.die.faults.scripted[0]: "1" is not a mapping of its keys`},
		// Unknown keys inside a mapping or a list of mappings.
		{"energy.nand={icc2: 30mA, vcq: 1.8V}", "unknown key energy.nand.vcq (did you mean"},
		{"flash.die.faults.scripted=[{bogus: 1}]", "unknown key flash.die.faults.scripted[0].bogus"},
		{"flash={channels: ~}", "flash.channels: no value (null)"},
		// Bad values, reported by validation with the field's path.
		{"energy.peak_windows=[]", "energy.peak_windows: give at least one window"},
		{"energy.nand={icc2: 30}", `energy.nand.icc2: current "30": missing unit`},
		// Not YAML, or more than one value.
		{"nvme.fdp.reclaim_group_dies=[1,", "the value is not a YAML list [a, b] or mapping {k: v}: did not find expected node content"},
		{"nvme.fdp.reclaim_group_dies=[1] x", "the value is not a YAML list [a, b] or mapping {k: v}"},
		{"nvme.fdp.reclaim_group_dies=[1]\n---\n[2]", "more than one YAML document"},
	}
	for _, tc := range cases {
		t.Run(tc.set, func(t *testing.T) {
			_, err := Load(Options{Preset: "tiny", Sets: append(append([]string{}, fdpSets...), tc.set)})
			require.Error(t, err)
			require.ErrorContains(t, err, tc.want)
			require.NotRegexp(t, goTypeName, err.Error())
			require.NotContains(t, err.Error(), "line ")
		})
	}
}

// TestFileCollectionTypeErrors: the same type errors in a configuration file name the
// field and its line (they named a Go type before --set took lists).
func TestFileCollectionTypeErrors(t *testing.T) {
	_, err := Load(Options{Preset: "tiny", Layers: []Source{{"bad.yaml", []byte("flash:\n  channels: [1]\n")}}})
	require.EqualError(t, err, "bad.yaml: line 2: flash.channels: a list is not an integer")
	_, err = Load(Options{Preset: "tiny", Layers: []Source{{"bad.yaml", []byte("nvme:\n  fdp:\n    reclaim_group_dies: {a: 1}\n")}}})
	require.EqualError(t, err, "bad.yaml: line 3: nvme.fdp.reclaim_group_dies: a mapping is not a list")
}

// TestSetScalarsUnchanged: a value that does not open with "[" or "{" is still one scalar,
// taken as written, whatever YAML would make of it.
func TestSetScalarsUnchanged(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Sets: []string{"description=a, b: [c] {d}", "name= x # y"}})
	require.NoError(t, err)
	require.Equal(t, "a, b: [c] {d}", c.Description)
	require.Equal(t, "x # y", c.Name)
}

// TestReclaimGroupsValidated: reclaim groups that do not share out the tiny drive's 4 dies
// are refused by Load, naming the key, not only when the machine is built
// (TestValidatedConfigsBuild: what validation accepts must build).
func TestReclaimGroupsValidated(t *testing.T) {
	for _, tc := range []struct{ set, want string }{
		{"nvme.fdp.reclaim_group_dies=[1, 2]", "nvme.fdp.reclaim_group_dies: [1 2] gives 3 dies; the drive has 4"},
		{"nvme.fdp.reclaim_groups=3", "nvme.fdp.reclaim_groups: 3 does not divide the 4 dies"},
	} {
		_, err := Load(Options{Preset: "tiny", Sets: append(append([]string{}, fdpSets...), tc.set)})
		require.ErrorContains(t, err, tc.want)
	}
	_, err := Load(Options{Preset: "tiny", Sets: append(append([]string{}, fdpSets...), "nvme.fdp.reclaim_group_dies=[1, 3]")})
	require.NoError(t, err)
}
