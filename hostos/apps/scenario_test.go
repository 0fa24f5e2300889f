package apps

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestScenariosAreNamedAndRunnable(t *testing.T) {
	scs := Scenarios()
	var names []string
	for _, s := range scs {
		require.NoError(t, s.Validate(), s.Name)
		require.Equal(t, 30*sim.Second, s.Duration, s.Name)
		names = append(names, s.Name)
	}
	require.Equal(t, []string{
		"apache-f+ungzip", "apache-u+ungzip", "db-s+ungzip", "db-u+ungzip", "imgserver-f+ungzip", "imgserver-u+ungzip",
		"apache-f", "apache-u", "db-s", "db-u", "imgserver-f", "imgserver-u", "ungzip",
	}, names)
	s, err := LookupScenario("db-u+ungzip")
	require.NoError(t, err)
	require.Equal(t, []string{DBU, Ungzip}, s.Apps)
	_, err = LookupScenario("db-x")
	require.ErrorContains(t, err, `no scenario "db-x"`)

	// Every named scenario runs (shortened to 2 ms, with small data sets) on the fake host.
	spec := DefaultSpec()
	spec.ApacheF.Dirs, spec.ImgServerF.Dirs = 2, 2
	for _, c := range []*ClientSpec{&spec.ApacheF.Client, &spec.ApacheU.Client, &spec.DBS.Client,
		&spec.DBU.Client, &spec.ImgServerF.Client, &spec.ImgServerU.Client} {
		c.ThinkTime = 100 * sim.Microsecond
	}
	for _, sc := range scs {
		o := newFakeOS()
		o.noLog = true
		for k := range o.lat {
			o.lat[k] = 20 * sim.Microsecond
		}
		sc.Duration = 2 * sim.Millisecond
		r, err := Execute(sim.NewEngine(), o, spec, sc)
		require.NoError(t, err, sc.Name)
		for _, res := range r.Results() {
			require.Positive(t, res.Requests, "%s/%s", sc.Name, res.App)
		}
	}
}

func TestDecodeScenario(t *testing.T) {
	sc, err := DecodeScenario(strings.NewReader("name: mine\napps: [db-s, ungzip]\nduration: 5s\n"), "s.yaml")
	require.NoError(t, err)
	require.Equal(t, Scenario{Name: "mine", Apps: []string{DBS, Ungzip}, Duration: 5 * sim.Second, Seed: 1}, sc)
	for _, tc := range []struct{ doc, want string }{
		{"name: a\napps: [db-s]\nlength: 5s\n", `s.yaml:3: unknown key "length"`},
		{"name: a\napps: [db-q]\n", `scenario.apps[0]: "db-q" is not one of`},
		{"name: a\napps: [db-s, db-s]\n", `scenario.apps[1]: "db-s" is listed twice`},
		{"apps: [db-s]\n", `scenario.name: must not be empty`},
		{"name: a\napps: []\n", `scenario.apps: at least one`},
		{"name: a\napps: [db-s]\nduration: 0\n", `scenario.duration: 0s must be positive`},
		{"name: a\napps: [db-s]\nwarmup: 40s\n", `scenario.warmup: 40s must be`},
		{"name: a\napps: [db-s]\nduration: 5\n", `s.yaml:3: scenario.duration: time "5"`},
	} {
		_, err := DecodeScenario(strings.NewReader(tc.doc), "s.yaml")
		require.ErrorContains(t, err, tc.want, tc.doc)
	}
}

// runDigest runs db-u+ungzip and apache-f for 20 ms with seed and returns everything the
// runs measured.
func runDigest(t *testing.T, seed uint64) [][]Point {
	var out [][]Point
	for _, apps := range [][]string{{DBU, Ungzip}, {ApacheF}} {
		o := newFakeOS()
		o.lat[kReadDirect], o.lat[kRead], o.lat[kWrite], o.lat[kFsync] = 90*sim.Microsecond, 3*sim.Microsecond, 7*sim.Microsecond, 400*sim.Microsecond
		spec := DefaultSpec()
		spec.ApacheF.Dirs = 20
		r, err := Execute(sim.NewEngine(), o, spec, Scenario{Name: "d", Apps: apps, Duration: 20 * sim.Millisecond, Seed: seed})
		require.NoError(t, err)
		for _, res := range r.Results() {
			out = append(out, res.Series.Points())
		}
	}
	return out
}

func TestRunsAreDeterministic(t *testing.T) {
	a, b := runDigest(t, 3), runDigest(t, 3)
	require.Equal(t, a, b)
	c := runDigest(t, 4)
	require.NotEqual(t, a, c, "another seed gives other think times and pages")
}

// TestSetupDelaysStartAndWarmupIsSkipped: creating the DB-S table takes 1 ms, so clients
// start at 1 ms; with a 2 ms warm-up, requests issued before 3 ms are not recorded.
// One client, no think, 100 µs requests (50 µs CPU + 50 µs read): issues at 1.0, 1.1, …,
// 5.9 ms in a 5 ms run = 50 requests, of which those at ≥ 3 ms (3.0 … 5.9) = 30 recorded.
func TestSetupDelaysStartAndWarmupIsSkipped(t *testing.T) {
	o := newFakeOS()
	o.lat[kCreate] = 1 * sim.Millisecond
	o.lat[kReadDirect] = 50 * sim.Microsecond
	sc := Scenario{Name: "w", Apps: []string{DBS}, Duration: 5 * sim.Millisecond, Warmup: 2 * sim.Millisecond, Seed: 1}
	r, err := Execute(sim.NewEngine(), o, oneClient(DefaultSpec()), sc)
	require.NoError(t, err)
	require.Equal(t, 1*sim.Millisecond, r.Began())
	require.Equal(t, 6*sim.Millisecond, r.Ended())
	require.EqualValues(t, 50, o.count[kReadDirect])
	require.EqualValues(t, 30, r.Result(DBS).Requests)
	require.Equal(t, 3100*sim.Microsecond, r.Result(DBS).Series.Points()[0].At)
}

// TestIOErrorsAreCountedAndTheClientGoesOn: DB-S's direct reads take 50 µs and every 10th
// fails with an I/O error. The client counts each failed request and goes on with the next:
// of the N reads issued in the run, N/10 failed (IOErrors) and the others were recorded
// (Requests); the run has no error; the first I/O error is the 10th read's, at its end.
func TestIOErrorsAreCountedAndTheClientGoesOn(t *testing.T) {
	o := newFakeOS()
	o.lat[kReadDirect] = 50 * sim.Microsecond
	o.ioOn, o.ioEvery = kReadDirect, 10
	sc := Scenario{Name: "e", Apps: []string{DBS}, Duration: 5 * sim.Millisecond, Seed: 1}
	r, err := Execute(sim.NewEngine(), o, oneClient(DefaultSpec()), sc)
	require.NoError(t, err)
	res := r.Result(DBS)
	n := o.count[kReadDirect]
	require.GreaterOrEqual(t, n, int64(40))
	require.Equal(t, n/10, res.IOErrors)
	require.Equal(t, n-n/10, res.Requests)
	require.ErrorIs(t, res.FirstIOError, ErrIO)
	var tenth sim.Time
	k := 0
	for _, op := range o.log {
		if op.kind == kReadDirect {
			if k++; k == 10 {
				tenth = op.start
			}
		}
	}
	require.Equal(t, tenth+50*sim.Microsecond, res.FirstIOErrorAt)
}

func TestHostErrorsStopTheApplication(t *testing.T) {
	o := newFakeOS()
	o.failOn, o.failAt = kFsync, 3
	r, err := Execute(sim.NewEngine(), o, oneClient(DefaultSpec()), Scenario{Name: "e", Apps: []string{DBU}, Duration: sim.Second, Seed: 1})
	require.ErrorIs(t, err, errFake)
	require.ErrorContains(t, err, "apps: db-u:")
	require.EqualValues(t, 2, r.Result(DBU).Requests)
	require.True(t, r.Done())

	o = newFakeOS()
	o.failOn, o.failAt = kCreate, 1
	_, err = Execute(sim.NewEngine(), o, DefaultSpec(), Scenario{Name: "e", Apps: []string{Ungzip}, Duration: sim.Second, Seed: 1})
	require.ErrorContains(t, err, "set-up of ungzip")

	_, err = Start(sim.NewEngine(), o, DefaultSpec(), Scenario{Name: "bad"})
	require.ErrorContains(t, err, "scenario.apps")
}
