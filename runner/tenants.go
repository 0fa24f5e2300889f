package runner

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Tenants share a drive: each is a group of jobs or applications with its own namespace
// (and, with host.nvme.tenants, its own queue pairs). How much one tenant's work slows
// another's is MQSim's question (Tavakkol et al., "MQSim: A Framework for Enabling Realistic
// Studies of Modern Multi-Queue SSD Devices", FAST '18, and the FLIN scheduler paper, ISCA
// '18, which uses the same figures): a tenant's slowdown is its mean response time when it
// shares the drive over its mean response time when it runs alone, S = RT_shared /
// RT_alone; the fairness of a run is the smallest slowdown over the largest, F = min S /
// max S, 1 when every tenant is slowed alike and near 0 when one is hit much harder.

// TenantLatency is one tenant's response times in one run.
type TenantLatency struct {
	Name     string
	Requests int64
	Mean     sim.Time
	P99      sim.Time
}

// TenantFairness is one tenant's slowdown: its latency alone and shared.
type TenantFairness struct {
	Name          string
	Alone, Shared TenantLatency
	// Slowdown is Shared.Mean / Alone.Mean (MQSim's S); SlowdownP99 the same of p99.
	Slowdown, SlowdownP99 float64
}

// Fairness pairs each tenant's shared latency with its alone latency (by name; a tenant
// missing from alone is an error) and returns the slowdowns and the fairness figure
// F = min S / max S over the tenants. With no tenant or a zero latency it returns an error.
func Fairness(alone, shared []TenantLatency) ([]TenantFairness, float64, error) {
	if len(shared) == 0 {
		return nil, 0, fmt.Errorf("runner: fairness of no tenant")
	}
	byName := map[string]TenantLatency{} // looked up only
	for _, a := range alone {
		byName[a.Name] = a
	}
	var out []TenantFairness
	lo, hi := math.Inf(1), 0.0
	for _, s := range shared {
		a, ok := byName[s.Name]
		if !ok {
			return nil, 0, fmt.Errorf("runner: tenant %s has no run alone", s.Name)
		}
		if a.Mean <= 0 || a.P99 <= 0 || s.Mean <= 0 {
			return nil, 0, fmt.Errorf("runner: tenant %s completed no request (alone %d, shared %d)", s.Name, a.Requests, s.Requests)
		}
		f := TenantFairness{Name: s.Name, Alone: a, Shared: s,
			Slowdown: float64(s.Mean) / float64(a.Mean), SlowdownP99: float64(s.P99) / float64(a.P99)}
		lo, hi = min(lo, f.Slowdown), max(hi, f.Slowdown)
		out = append(out, f)
	}
	return out, lo / hi, nil
}

// FairnessTable is the tenants' slowdowns and the fairness figure as a table.
func FairnessTable(ts []TenantFairness, fairness float64) *report.ValueTable {
	g := &report.ValueTable{Title: fmt.Sprintf("tenants: slowdown shared / alone (MQSim); fairness min/max = %.3f", fairness),
		NumTitle: "tenants",
		Columns: []report.Column{{Text: "tenant", Name: "tenant"}, {Text: "requests", Name: "requests"},
			{Text: "mean alone", Name: "mean_alone_us"}, {Text: "mean shared", Name: "mean_shared_us"},
			{Text: "slowdown", Name: "slowdown"}, {Text: "p99 alone", Name: "p99_alone_us"},
			{Text: "p99 shared", Name: "p99_shared_us"}, {Text: "p99 slowdown", Name: "slowdown_p99"},
			{Name: "fairness"}}}
	us := func(t sim.Time) report.Cell {
		return report.Num(float64(t)/float64(sim.Microsecond), report.Duration(t))
	}
	for _, t := range ts {
		g.AddRow(report.Label(t.Name), report.Num(float64(t.Shared.Requests), fmt.Sprint(t.Shared.Requests)),
			us(t.Alone.Mean), us(t.Shared.Mean), report.Num(t.Slowdown, fmt.Sprintf("%.2f", t.Slowdown)),
			us(t.Alone.P99), us(t.Shared.P99), report.Num(t.SlowdownP99, fmt.Sprintf("%.2f", t.SlowdownP99)),
			report.Num(fairness, fmt.Sprintf("%.3f", fairness)))
	}
	return g
}

// QueueTable lists machine m's I/O submission queues as the controller served them: the
// namespace whose requests use each, its priority class, commands and the latency from
// doorbell to completion entry (arbitration, fetch, service and posting); nil if the
// controller keeps no queue statistics (one namespace and no tenant queues).
func QueueTable(m *platforms.Machine) *report.ValueTable {
	qs := m.SSD.Ctrl.QueueStats()
	if qs == nil {
		return nil
	}
	owner := map[uint16]uint32{} // looked up only
	for _, ns := range m.Host.Driver.Namespaces() {
		for _, id := range ns.QueueIDs() {
			if _, shared := owner[id]; shared {
				owner[id] = 0
			} else {
				owner[id] = ns.NSID()
			}
		}
	}
	g := &report.ValueTable{Title: "I/O submission queues (controller: doorbell to completion entry)", NumTitle: "queues",
		Columns: []report.Column{{Text: "SQ", Name: "sqid"}, {Text: "namespace", Name: "nsid"},
			{Text: "priority", Name: "priority"}, {Text: "reads", Name: "reads"}, {Text: "writes", Name: "writes"},
			{Text: "other", Name: "other"}, {Text: "mean", Name: "mean_us"}, {Text: "p99", Name: "p99_us"}}}
	for _, q := range qs {
		ns := report.Label("none") // no namespace's requests use it: every one is a tenant
		if id, ok := owner[q.SQID]; ok && id == 0 {
			ns = report.Label("shared")
		} else if ok {
			ns = report.Label(fmt.Sprint(id))
		}
		mean, p99 := report.None(), report.None()
		if q.Latency.Count() > 0 {
			m, p := sim.Time(q.Latency.Mean()), sim.Time(q.Latency.Quantile(0.99))
			mean = report.Num(float64(m)/float64(sim.Microsecond), report.Duration(m))
			p99 = report.Num(float64(p)/float64(sim.Microsecond), report.Duration(p))
		}
		g.AddRow(report.Num(float64(q.SQID), fmt.Sprint(q.SQID)), ns, report.Label(q.Priority.String()),
			report.Num(float64(q.Reads), fmt.Sprint(q.Reads)), report.Num(float64(q.Writes), fmt.Sprint(q.Writes)),
			report.Num(float64(q.Other), fmt.Sprint(q.Other)), mean, p99)
	}
	return g
}
