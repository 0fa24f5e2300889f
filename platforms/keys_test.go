package platforms

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConfigErrorsSpeakKeyPaths(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"nested typo", "firmware:\n  ftl:\n    gc_treshold: 4\n", "line 3: unknown key firmware.ftl.gc_treshold (did you mean firmware.ftl.gc_threshold?)"},
		{"top level", "flsh:\n  channels: 2\n", "line 1: unknown key flsh (did you mean flash?)"},
		{"no near key lists the known ones", "pcie:\n  zzz: 1\n", "line 2: unknown key pcie.zzz (known here: pcie.addr64"},
		{"wrong kind", "flash:\n  die:\n    planes: many\n", `line 3: flash.die.planes: "many" is not an integer`},
		{"bool", "firmware:\n  verify: sometimes\n", `line 2: firmware.verify: "sometimes" is not true or false`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(Source{Name: "f.yaml", Data: []byte(c.yaml)})
			require.ErrorContains(t, err, "f.yaml: "+c.want)
		})
	}
	// Every preset and variant has only known keys (no false alarms from the walk).
	for _, p := range Presets() {
		b, err := PresetYAML("presets", p)
		require.NoError(t, err)
		require.Empty(t, keyProblems(b), p)
	}
	for _, v := range Variants() {
		b, err := PresetYAML("variants", v)
		require.NoError(t, err)
		require.Empty(t, keyProblems(b), v)
	}
}
