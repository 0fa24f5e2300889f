package sweep

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeFile(t *testing.T) {
	f, err := ReadSweepFile("testdata/channels-ways.yaml")
	require.NoError(t, err)
	require.Equal(t, File{Kind: KindFlashbench, Preset: "tiny", Set: []string{"flash.die.blocks_per_plane=16"},
		Axes: Grid{{Key: "flash.channels", Values: []string{"1", "2"}}, {Key: "flash.ways", Values: []string{"1", "2", "4"}}}}, f)

	// Values are taken as written: numbers, unit strings, booleans, names.
	f, err = DecodeFile([]byte("axes:\n  - {key: dram.capacity, values: [64MiB, 1GiB]}\n  - {key: flash.status_poll, values: [true, false]}\n  - {key: flash.policy, values: [fifo, read-first]}\n"), "x.yaml")
	require.NoError(t, err)
	require.Equal(t, []string{"64MiB", "1GiB"}, f.Axes[0].Values)
	require.Equal(t, []string{"true", "false"}, f.Axes[1].Values)
	require.Equal(t, 8, f.Axes.Size())

	f, err = DecodeFile(nil, "empty.yaml")
	require.NoError(t, err)
	require.Equal(t, File{}, f)
}

func TestDecodeFileErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		errs       []string
	}{
		{"unknown top key", "kind: run\naxis: []\n", []string{`s.yaml:2: unknown key "axis"`}},
		{"bad kind", "kind: fio\n", []string{`s.yaml:1: kind: "fio" is not one of flashbench, run`}},
		{"unknown axis key", "axes:\n  - key: a\n    values: [1]\n    step: 2\n", []string{`s.yaml:4: axes[0]: unknown key "step"`}},
		{"values not a list", "axes:\n  - key: a\n    values: 1\n", []string{"s.yaml:3: axes[0].values: want a list of values"}},
		{"nested value", "axes:\n  - key: a\n    values: [1, [2]]\n", []string{"s.yaml:3: axes[0].values[1]: want a single value"}},
		{"missing values", "axes:\n  - key: a\n", []string{"s.yaml:2: axes[0]: want both key and values"}},
		{"repeated value", "axes:\n  - key: a\n    values: [1, 2, 1]\n", []string{`s.yaml:2: axes[0]: axis a: value "1" is listed twice`}},
		{"key swept twice", "axes:\n  - {key: a, values: [1]}\n  - {key: a, values: [2]}\n",
			[]string{"s.yaml:3: axes[1]: key a is already swept at line 2"}},
		{"key given twice", "preset: tiny\npreset: fastdrain-tlc\n", []string{"s.yaml:2: key preset given twice"}},
		{"set not a list", "set: flash.channels=2\n", []string{"s.yaml:1: set: want a list of values"}},
		{"not a mapping", "- a\n- b\n", []string{"s.yaml:1: want a mapping"}},
		{"syntax", "axes:\n  - key: a\n   values: [1\n", []string{"s.yaml:"}},
		{"two documents", "kind: run\n---\nkind: flashbench\n", []string{"s.yaml: more than one YAML document"}},
		{"every problem", "kind: x\nfoo: 1\naxes:\n  - {key: a}\n", []string{"s.yaml:1:", "s.yaml:2:", "s.yaml:4:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeFile([]byte(tc.yaml), "s.yaml")
			require.Error(t, err)
			for _, e := range tc.errs {
				require.ErrorContains(t, err, e)
			}
		})
	}
}

func FuzzDecodeFile(f *testing.F) {
	f.Add([]byte("kind: flashbench\npreset: tiny\naxes:\n  - {key: flash.channels, values: [1, 2]}\n"))
	f.Add([]byte("axes:\n  - key: a\n    values: [1, 1]\n"))
	f.Add([]byte("set: [a=1]\nconfig: [x.yaml]\nvariant: fd\n"))
	f.Add([]byte("- 1\n"))
	f.Add([]byte("axes: {key: a}\n"))
	f.Add([]byte("kind: run\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := DecodeFile(data, "f.yaml")
		if err != nil {
			return
		}
		// Whatever decodes is a valid grid of a known kind.
		if err := file.Axes.Validate(); err != nil && file.Axes.Size() <= MaxPoints {
			t.Fatalf("decoded an invalid grid: %v", err)
		}
		if file.Kind != "" && file.Kind != KindFlashbench && file.Kind != KindRun {
			t.Fatalf("decoded kind %q", file.Kind)
		}
	})
}
