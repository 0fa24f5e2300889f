package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFairness works MQSim's figures by hand: tenant a's mean goes from 100 µs alone to
// 300 µs shared (slowdown 3), b's from 200 µs to 250 µs (1.25); fairness = 1.25 / 3 =
// 0.41666…; a's p99 slowdown is 900 / 300 = 3. A tenant without an alone run, or with no
// request completed, is an error.
func TestFairness(t *testing.T) {
	us := sim.Microsecond
	alone := []TenantLatency{{"a", 10, 100 * us, 300 * us}, {"b", 10, 200 * us, 400 * us}}
	shared := []TenantLatency{{"a", 10, 300 * us, 900 * us}, {"b", 10, 250 * us, 500 * us}}
	fs, f, err := Fairness(alone, shared)
	require.NoError(t, err)
	require.InDelta(t, 3.0, fs[0].Slowdown, 1e-12)
	require.InDelta(t, 1.25, fs[1].Slowdown, 1e-12)
	require.InDelta(t, 3.0, fs[0].SlowdownP99, 1e-12)
	require.InDelta(t, 1.25/3, f, 1e-12)
	txt := FairnessTable(fs, f).Text()
	require.Equal(t, []string{"a", "10", "100.0us", "300.0us", "3.00", "300.0us", "900.0us", "3.00"}, txt.Rows[0])

	_, _, err = Fairness(alone[:1], shared)
	require.ErrorContains(t, err, "tenant b has no run alone")
	_, _, err = Fairness([]TenantLatency{{"a", 0, 0, 0}}, shared[:1])
	require.ErrorContains(t, err, "tenant a completed no request")
}

// tenantMachine builds the tiny machine with two namespaces, namespace 1 a tenant of one
// low-priority queue pair and namespace 2 one of one high-priority queue pair, the
// controller holding at most 8 commands at once (so it must choose whose to fetch), one
// command per arbitration turn and weights high 8, low 1; arbitration is arb.
func tenantMachine(t *testing.T, arb string) *platforms.Machine {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tenants.yaml")
	require.NoError(t, os.WriteFile(p, []byte(`
nvme:
  max_commands: 8
  arbitration_burst: 0
  high_weight: 8
  low_weight: 1
  namespaces:
    - lba_size: 4096
    - lba_size: 4096
host:
  nvme:
    arbitration: `+arb+`
    tenants:
      - namespace: 1
        queues: 1
        priority: low
      - namespace: 2
        queues: 1
        priority: high
`), 0o644))
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Files: []string{p}})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	return m
}

// TestWRRServesTheHighTenant: a hog on namespace 1 (preconditioned: its reads go to flash)
// keeps 32 reads of scattered pages in flight, a victim on namespace 2 (never written: its
// reads need no flash) keeps 2; the controller holds 8 commands, so the hog's reads, slow
// on the flash, hold most slots and the two queues compete for each one freed. Under round
// robin they take turns, so a victim read waits for a slot behind the hog's; under
// weighted round robin its high-priority queue gets 8 turns for the hog's 1. The victim's
// mean latency must fall (the mechanism changes the result: measured 48 µs under round
// robin, 14 µs under weighted round robin), and the queue table shows each tenant's queue
// with its namespace and priority.
func TestWRRServesTheHighTenant(t *testing.T) {
	victim := map[string]sim.Time{}
	for _, arb := range []string{"rr", "wrr"} {
		m := tenantMachine(t, arb)
		hog, err := hostos.NewNamespaceDevice(m.Host, 1)
		require.NoError(t, err)
		vic, err := hostos.NewNamespaceDevice(m.Host, 2)
		require.NoError(t, err)
		var lat sim.Histogram
		const end = 3 * sim.Millisecond
		spawn := func(name string, d *hostos.RawDevice, n int, h *sim.Histogram) {
			for i := range n {
				m.Eng.Spawn(fmt.Sprintf("%s%d", name, i), func(p *sim.Proc) {
					for k := int64(0); p.Now() < end; k++ {
						// Scattered pages of the first 8 MiB: no two requests merge.
						off := ((int64(i)*7919 + k*104729) % 2048) * 4096
						l, err := d.Do(p, uflip.OpRead, off, 4096)
						require.NoError(t, err)
						if h != nil {
							h.Record(int64(l))
						}
					}
				})
			}
		}
		spawn("hog", hog, 32, nil)
		spawn("victim", vic, 2, &lat)
		m.Eng.Run()
		require.Positive(t, lat.Count())
		victim[arb] = sim.Time(lat.Mean())
		g := QueueTable(m)
		require.NotNil(t, g)
		rows := g.Text().Rows
		require.Len(t, rows, 6, "tiny's four cores' queue pairs, unused, and each tenant's")
		require.Equal(t, []string{"1", "none", "medium", "0"}, rows[0][:4])
		require.Equal(t, []string{"5", "1", "low"}, rows[4][:3])
		require.Equal(t, []string{"6", "2", "high"}, rows[5][:3])
	}
	require.Less(t, victim["wrr"], victim["rr"]*3/4, "rr %v, wrr %v", victim["rr"], victim["wrr"])
}
