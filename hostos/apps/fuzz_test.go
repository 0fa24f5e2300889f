package apps

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// FuzzDecode feeds arbitrary documents to Decode: it must never panic, a spec it accepts
// must validate, and marshalling an accepted spec must decode to the same spec.
func FuzzDecode(f *testing.F) {
	f.Add("")
	f.Add("db_u:\n  clients: 8\n  think_time: 2ms\n")
	f.Add("apache_f:\n  classes:\n    - {percent: 100, min: 4KiB, max: 8KiB}\n  zipf_alpha: 0.8\n")
	f.Add("ungzip:\n  output_rate: 100MiB/s\n  keep: 2\n")
	f.Add("ungzip:\n  open_loop_rate: 80MB/s\n")
	f.Add("ungzip:\n  output_rate: 100MB/s\n  open_loop_rate: 200MB/s\n")
	f.Add("x: &a 1KB\nungzip:\n  write_size: *a\n")
	f.Add("apache_u: [1, 2]\n")
	f.Add("apache_u:\n  clients: 2.5\ndb_s: ~\n")
	f.Fuzz(func(t *testing.T, doc string) {
		s, err := Decode(strings.NewReader(doc), "fuzz.yaml")
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		require.NoError(t, s.Validate())
		out, err := yaml.Marshal(s)
		require.NoError(t, err)
		s2, err := Decode(strings.NewReader(string(out)), "again.yaml")
		require.NoError(t, err, string(out))
		require.Equal(t, s, s2)
	})
}

// FuzzDecodeScenario does the same for scenarios.
func FuzzDecodeScenario(f *testing.F) {
	f.Add("name: a\napps: [db-s, ungzip]\nduration: 5s\n")
	f.Add("name: a\napps: [db-s]\nwarmup: 1s\nseed: 9\n")
	f.Add("name: [x]\n")
	f.Add("name: a\napps: [db-s]\nseed: 1.5\nwarmup:\n")
	f.Fuzz(func(t *testing.T, doc string) {
		sc, err := DecodeScenario(strings.NewReader(doc), "fuzz.yaml")
		if err != nil {
			return
		}
		require.NoError(t, sc.Validate())
	})
}
