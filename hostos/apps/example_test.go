package apps

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Example runs DB-U alone for 10 simulated milliseconds on a host whose every O_DIRECT
// read takes 100 µs, buffered write 5 µs, fsync 200 µs and O_DIRECT write 30 µs; with the
// default 100 µs of CPU an update answers in 435 µs.
func Example() {
	host := newFakeOS()
	host.lat[kReadDirect] = 100 * sim.Microsecond
	host.lat[kWrite] = 5 * sim.Microsecond
	host.lat[kFsync] = 200 * sim.Microsecond
	host.lat[kWriteDirect] = 30 * sim.Microsecond

	spec := DefaultSpec()
	spec.DBU.Client = ClientSpec{Clients: 1, ThinkDistribution: ThinkConstant}
	sc := Scenario{Name: "db-u-alone", Apps: []string{DBU}, Duration: 10 * sim.Millisecond, Seed: 1}
	run, err := Execute(sim.NewEngine(), host, spec, sc)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := run.Result(DBU)
	fmt.Printf("%s: %d updates, response time %v\n", res.App, res.Requests, sim.Time(res.Latency.Max()))
	fmt.Printf("per update: %d page reads, %d log writes, %d fsyncs, %d page writes\n",
		host.count[kReadDirect]/res.Requests, host.count[kWrite]/res.Requests,
		host.count[kFsync]/res.Requests, host.count[kWriteDirect]/res.Requests)
	// Output:
	// db-u: 23 updates, response time 435us
	// per update: 1 page reads, 1 log writes, 1 fsyncs, 1 page writes
}

// ExampleScenarios lists the co-location scenarios of the paper's evaluation.
func ExampleScenarios() {
	for _, s := range Scenarios()[:6] {
		fmt.Println(s.Name, s.Duration)
	}
	// Output:
	// apache-f+ungzip 30s
	// apache-u+ungzip 30s
	// db-s+ungzip 30s
	// db-u+ungzip 30s
	// imgserver-f+ungzip 30s
	// imgserver-u+ungzip 30s
}
