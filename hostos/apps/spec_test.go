package apps

import (
	"math"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestDefaultSpecIsValid(t *testing.T) {
	require.NoError(t, DefaultSpec().Validate())
	for _, s := range []ServerSpec{DefaultApacheF(), DefaultApacheU(), DefaultImgServerF(), DefaultImgServerU()} {
		require.NoError(t, s.Validate())
	}
	require.NoError(t, DefaultDBS().Validate())
	require.NoError(t, DefaultDBU().Validate())
	require.NoError(t, DefaultUngzip().Validate())
}

// TestDefaultDataSetSizes pins the data-set sizes docs/workloads.md states, computed by
// hand: a SPECweb directory holds 102+204+307+409+512+614+717+819+922 (sizes rounded
// down) + 9·5 KiB + 9·50 KiB + 9·500 KiB = 4 606 + 46 080 + 460 800 + 4 608 000
// = 5 119 486 B; an album 9·562 KiB = 5 179 392 B.
func TestDefaultDataSetSizes(t *testing.T) {
	sum := func(s ServerSpec) int64 {
		var n int64
		for c := range s.Classes {
			for i := range s.FilesPerClass {
				n += s.classSize(c, i)
			}
		}
		return n * int64(s.Dirs)
	}
	require.EqualValues(t, 200*5119486, sum(DefaultApacheF())) // ≈ 976.5 MiB
	require.EqualValues(t, 200*5179392, sum(DefaultImgServerF()))
}

func TestDecodeOverDefaults(t *testing.T) {
	doc := `
db_u:
  clients: 8
  think_time: 2ms
ungzip:
  output_rate: 100MiB/s
apache_f:
  classes:
    - {percent: 100, min: 4KiB, max: 4KiB}
`
	s, err := Decode(strings.NewReader(doc), "apps.yaml")
	require.NoError(t, err)
	want := DefaultSpec()
	want.DBU.Client.Clients = 8
	want.DBU.Client.ThinkTime = 2 * sim.Millisecond
	want.Ungzip.OutputRate = 100 << 20
	want.ApacheF.Classes = []SizeClass{{Percent: 100, Min: 4096, Max: 4096}}
	require.Equal(t, want, s)

	s, err = Decode(strings.NewReader(""), "empty.yaml")
	require.NoError(t, err)
	require.Equal(t, DefaultSpec(), s)
}

func TestDecodeRejectsUnknownKeys(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"apache_u:\n  clients: 2\n  clientz: 3\n", `apps.yaml:3: unknown key "clientz"`},
		{"db_x:\n  op: select\n", `apps.yaml:1: unknown key "db_x"`},
		{"apache_f:\n  classes:\n    - {percent: 100, min: 1, max: 2, avg: 3}\n", `apps.yaml:3: unknown key "avg"`},
		{"ungzip:\n  output_rate: 160\n", `apps.yaml:2: apps.ungzip.output_rate: rate "160"`},
		{"db_s:\n  think_time: 5\n", `apps.yaml:2: apps.db_s.think_time: time "5"`},
		{"apache_f:\n  classes:\n    - {percent: 100, min: 1k, max: 2}\n", `apps.yaml:3: apps.apache_f.classes[0].min: size "1k"`},
		{"x: &a 1KB\nungzip:\n  write_size: *a\n", `apps.yaml:1: apps.ungzip.write_size: size "1KB"`},
		{"x: 1\n", `apps.yaml:1: unknown key "x"`},
		// Issue 38: a fractional count and a null section were taken silently.
		{"apache_u:\n  clients: 2.5\n", `apps.yaml:2: apps.apache_u.clients: 2.5 is not a whole number`},
		{"db_s: ~\n", `apps.yaml:1: apps.db_s: the section is empty (null)`},
	} {
		_, err := Decode(strings.NewReader(tc.doc), "apps.yaml")
		require.Error(t, err, tc.doc)
		require.Contains(t, err.Error(), tc.want, tc.doc)
	}
}

// TestValidateNamesEveryField breaks one field at a time and checks the error names it
// with its full path.
func TestValidateNamesEveryField(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(s *Spec)
	}{
		{"apps.apache_f.op", func(s *Spec) { s.ApacheF.Op = "get" }},
		{"apps.apache_u.clients", func(s *Spec) { s.ApacheU.Client.Clients = 0 }},
		{"apps.apache_u.think_time", func(s *Spec) { s.ApacheU.Client.ThinkTime = -1 }},
		{"apps.db_s.think_distribution", func(s *Spec) { s.DBS.Client.ThinkDistribution = "pareto" }},
		{"apps.apache_f.dirs", func(s *Spec) { s.ApacheF.Dirs = 0 }},
		{"apps.apache_f.dirs", func(s *Spec) { s.ApacheF.Dirs = 1 << 30 }},
		{"apps.apache_f.files_per_class", func(s *Spec) { s.ApacheF.FilesPerClass = 0 }},
		{"apps.apache_f.classes", func(s *Spec) { s.ApacheF.Classes = nil }},
		{"apps.apache_f.classes", func(s *Spec) { s.ApacheF.Classes[0].Percent = 34 }},
		{"apps.apache_f.classes[1].percent", func(s *Spec) { s.ApacheF.Classes[1].Percent = 0 }},
		{"apps.imgserver_f.classes[0].min", func(s *Spec) { s.ImgServerF.Classes[0].Min = 0 }},
		{"apps.imgserver_u.classes[0].max", func(s *Spec) { s.ImgServerU.Classes[0].Max = 1 }},
		{"apps.apache_f.zipf_alpha", func(s *Spec) { s.ApacheF.ZipfAlpha = math.NaN() }},
		{"apps.apache_f.zipf_alpha", func(s *Spec) { s.ApacheF.ZipfAlpha = -1 }},
		{"apps.apache_f.io_size", func(s *Spec) { s.ApacheF.IOSize = 0 }},
		{"apps.apache_f.fsync", func(s *Spec) { s.ApacheF.Fsync = true }},
		{"apps.apache_f.cpu_per_request", func(s *Spec) { s.ApacheF.CPUPerRequest = -1 }},
		{"apps.apache_f.cpu_per_mib", func(s *Spec) { s.ApacheF.CPUPerMiB = 2 * sim.Second }},
		{"apps.apache_u.retain", func(s *Spec) { s.ApacheU.Retain = -1 }},
		{"apps.db_s.op", func(s *Spec) { s.DBS.Op = "insert" }},
		{"apps.db_s.page_size", func(s *Spec) { s.DBS.PageSize = 1000 }},
		{"apps.db_s.table_size", func(s *Spec) { s.DBS.TableSize = 16*KiB + 1 }},
		{"apps.db_s.table_size", func(s *Spec) { s.DBS.TableSize = 0 }},
		{"apps.db_s.reads_per_op", func(s *Spec) { s.DBS.ReadsPerOp = 0 }},
		{"apps.db_s.cpu_per_op", func(s *Spec) { s.DBS.CPUPerOp = -1 }},
		{"apps.db_s.log_write", func(s *Spec) { s.DBS.LogWrite = 512 }},
		{"apps.db_s.page_write", func(s *Spec) { s.DBS.PageWrite = true }},
		{"apps.db_u.log_write", func(s *Spec) { s.DBU.LogWrite = 0 }},
		{"apps.db_u.log_file_size", func(s *Spec) { s.DBU.LogFileSize = 100 }},
		{"apps.db_u.page_write", func(s *Spec) { s.DBU.ReadsPerOp = 0 }},
		{"apps.ungzip.output_rate", func(s *Spec) { s.Ungzip.OutputRate = 0 }},
		{"apps.ungzip.output_rate", func(s *Spec) { s.Ungzip.OutputRate, s.Ungzip.WriteSize = 1_000_000_000_000, 1 }},
		{"apps.ungzip.write_size", func(s *Spec) { s.Ungzip.WriteSize = 0 }},
		{"apps.ungzip.read_size", func(s *Spec) { s.Ungzip.ReadSize = 0 }},
		{"apps.ungzip.compressed_percent", func(s *Spec) { s.Ungzip.CompressedPercent = 0 }},
		{"apps.ungzip.file_size", func(s *Spec) { s.Ungzip.FileSize = 0 }},
		{"apps.ungzip.files", func(s *Spec) { s.Ungzip.Files = -1 }},
		{"apps.ungzip.keep", func(s *Spec) { s.Ungzip.Keep = -1 }},
		{"apps.ungzip.open_loop_rate", func(s *Spec) { s.Ungzip.OpenLoopRate = -1 }},
		{"apps.ungzip.open_loop_rate", func(s *Spec) { s.Ungzip.OpenLoopRate = s.Ungzip.OutputRate + 1 }},
		{"apps.series.max_points", func(s *Spec) { s.Series.MaxPoints = 0 }},
		{"apps.series.interval", func(s *Spec) { s.Series.Interval = 0 }},
		{"apps.series.max_intervals", func(s *Spec) { s.Series.MaxIntervals = 1 }},
	} {
		s := DefaultSpec()
		s.ApacheF.Classes = specwebClasses() // fresh slices: edits must not leak
		tc.edit(&s)
		err := s.Validate()
		require.Error(t, err, tc.field)
		require.Contains(t, err.Error(), tc.field+": ", tc.field)
	}
}

// TestValidateReportsEveryProblem checks that two broken fields give two errors.
func TestValidateReportsEveryProblem(t *testing.T) {
	s := DefaultSpec()
	s.DBS.Client.Clients = 0
	s.Ungzip.Keep = -2
	err := s.Validate()
	require.ErrorContains(t, err, "apps.db_s.clients")
	require.ErrorContains(t, err, "apps.ungzip.keep")
	require.Len(t, strings.Split(err.Error(), "\n"), 2)
}

func TestSpecRoundTripsThroughYAML(t *testing.T) {
	out, err := yaml.Marshal(DefaultSpec())
	require.NoError(t, err)
	require.Contains(t, string(out), "output_rate: 160MB/s")
	require.Contains(t, string(out), "think_time: 10ms")
	s, err := Decode(strings.NewReader(string(out)), "rt.yaml")
	require.NoError(t, err)
	require.Equal(t, DefaultSpec(), s)
}

func TestParseUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rate
		ok   bool
	}{
		{"160MB/s", 160e6, true}, {"150MiB/s", 150 << 20, true}, {"1GB/s", 1e9, true},
		{"500kB/s", 500e3, true}, {"7B/s", 7, true}, {"160", 0, false}, {"MB/s", 0, false},
		{"1.5GB/s", 0, false},
	} {
		got, err := ParseRate(tc.in)
		require.Equal(t, tc.ok, err == nil, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
	require.Equal(t, "160MB/s", Rate(160e6).String())
	require.Equal(t, "150MiB/s", Rate(150<<20).String())
	// 32 KiB at 160 MB/s = 32768/1.6e8 s = 204.8 µs exactly.
	require.Equal(t, 204800*sim.Nanosecond, Rate(160e6).Duration(32768))
	// 1 byte at 3 B/s = 333 333 333 333.33 ps, rounded down.
	require.Equal(t, sim.Time(333333333333), Rate(3).Duration(1))
	// 64 KiB at 200 µs/MiB = 12.5 µs.
	require.Equal(t, 12500*sim.Nanosecond, perMiB(65536, 200*sim.Microsecond))
}
