package apps

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// BenchmarkDBSelect measures the model's cost per request (engine, client loop, fake host).
func BenchmarkDBSelect(b *testing.B) {
	o := newFakeOS()
	o.noLog = true
	o.lat[kReadDirect] = 10 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	eng := sim.NewEngine()
	r, err := Start(eng, o, spec, Scenario{Name: "b", Apps: []string{DBS}, Duration: sim.MaxTime / 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	eng.RunUntil(sim.Millisecond) // set-up and warm the histogram and series
	n0 := r.Result(DBS).Requests
	b.ReportAllocs()
	b.ResetTimer()
	// Each request is 60 µs (50 µs CPU + 10 µs read).
	eng.RunUntil(eng.Now() + sim.Time(b.N)*60*sim.Microsecond)
	b.StopTimer()
	if got := r.Result(DBS).Requests - n0; got < int64(b.N)-1 {
		b.Fatalf("%d requests, want %d", got, b.N)
	}
	eng.Close()
}

// BenchmarkApacheFetch measures a fetch request on the default SPECweb data set (20 dirs).
func BenchmarkApacheFetch(b *testing.B) {
	o := newFakeOS()
	o.noLog = true
	o.lat[kRead] = 1 * sim.Microsecond
	spec := oneClient(DefaultSpec())
	spec.ApacheF.Dirs = 20
	spec.ApacheF.CPUPerRequest, spec.ApacheF.CPUPerMiB = 1*sim.Microsecond, 0
	eng := sim.NewEngine()
	r, err := Start(eng, o, spec, Scenario{Name: "b", Apps: []string{ApacheF}, Duration: sim.MaxTime / 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	eng.RunUntil(sim.Millisecond)
	n0 := r.Result(ApacheF).Requests
	b.ReportAllocs()
	b.ResetTimer()
	for r.Result(ApacheF).Requests-n0 < int64(b.N) {
		eng.RunUntil(eng.Now() + 100*sim.Microsecond)
	}
	b.StopTimer()
	eng.Close()
}

func BenchmarkSeriesAdd(b *testing.B) {
	s := NewSeries(DefaultSeriesSpec(), 1, "b")
	b.ReportAllocs()
	for i := range b.N {
		s.Add(sim.Time(i)*sim.Microsecond%(30*sim.Second), sim.Time(i%1000)*sim.Microsecond)
	}
}
