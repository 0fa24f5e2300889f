package platforms

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBadSetsAndNames checks the exact messages docs/errors.md lists for bad --set
// overrides, unknown presets and variants, and a YAML syntax error: each names the --set
// text, the file and line, or the list of valid names.
func TestBadSetsAndNames(t *testing.T) {
	dir := t.TempDir()
	syntax := filepath.Join(dir, "syntax.yaml")
	require.NoError(t, os.WriteFile(syntax, []byte("flash: [\n"), 0o644))
	fraction := filepath.Join(dir, "fraction.yaml")
	require.NoError(t, os.WriteFile(fraction, []byte("flash:\n  die:\n    blocks_per_plane: 31.5\n"), 0o644))
	null := filepath.Join(dir, "null.yaml")
	require.NoError(t, os.WriteFile(null, []byte("name: x\nflash: ~\n"), 0o644))
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"set without =", Options{Preset: "tiny", Sets: []string{"flash.channels"}}, `--set "flash.channels": want path.to.key=value`},
		{"set empty key part", Options{Preset: "tiny", Sets: []string{"flash..channels=1"}}, `--set "flash..channels=1": bad key ""`},
		{"set wrong type", Options{Preset: "tiny", Sets: []string{"flash.channels=four"}}, `--set flash.channels=four: flash.channels: "four" is not an integer`},
		{"set missing unit", Options{Preset: "tiny", Sets: []string{"firmware.core_freq=400"}}, `--set firmware.core_freq=400: firmware.core_freq: frequency "400": missing unit after the number (want Hz, kHz, MHz or GHz)`},
		{"set unknown key", Options{Preset: "tiny", Sets: []string{"flash.chanels=4"}}, "--set flash.chanels=4: unknown key flash.chanels (did you mean flash.channels?)"},
		{"set invalid value", Options{Preset: "tiny", Sets: []string{"pcie.lanes=3"}}, "pcie.lanes: 3 is not one of 1, 2, 4, 8, 16"},
		// Found by FuzzDecode: a zero lba_size made Validate divide by zero instead of reporting it.
		{"set zero lba size", Options{Preset: "tiny", Sets: []string{"nvme.lba_size=0"}}, "nvme.lba_size: 0 is not one of 512, 1024, 2048, 4096"},
		// Issue 38: what the decoder took silently — a fraction truncated, a null keeping the
		// preset's value — is refused, in flags and in files alike.
		{"set fraction", Options{Preset: "tiny", Sets: []string{"flash.channels=3.7"}}, "--set flash.channels=3.7: flash.channels: 3.7 is not a whole number"},
		{"set empty value", Options{Preset: "tiny", Sets: []string{"flash.channels="}}, `--set "flash.channels=": no value after "="`},
		{"set blank value", Options{Preset: "tiny", Sets: []string{"name= "}}, `--set "name= ": no value after "="`},
		{"set not a number", Options{Preset: "tiny", Sets: []string{"precondition.fill=.nan"}}, "--set precondition.fill=.nan: precondition.fill: .nan is not a finite number"},
		{"set null", Options{Preset: "tiny", Sets: []string{"flash=~"}}, "--set flash=~: flash: the section is empty (null): give its keys or leave it out"},
		{"file fraction", Options{Preset: "tiny", Files: []string{fraction}}, fraction + ": line 3: flash.die.blocks_per_plane: 31.5 is not a whole number"},
		{"file null section", Options{Preset: "tiny", Files: []string{null}}, null + ": line 2: flash: the section is empty (null)"},
		{"unknown preset", Options{Preset: "nosuch"}, `no preset named "nosuch" (have: `},
		{"unknown variant", Options{Preset: "tiny", Variant: "nosuch"}, `no variant named "nosuch" (have: fd, fd-buf, fd-ftl, lsb-only, oracle, oracle-bg, vanilla)`},
		{"syntax error", Options{Preset: "tiny", Files: []string{syntax}}, syntax + ": yaml: line 1: did not find expected node content"},
		{"missing file", Options{Preset: "tiny", Files: []string{filepath.Join(dir, "none.yaml")}}, "none.yaml: no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.o)
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}
