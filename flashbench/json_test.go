package flashbench

import (
	"encoding/json"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestJSONUtilizationIsFractions: the JSON's utilization holds numbers, each share a
// fraction of the elapsed time. One 384-page TLC block programmed at QD 1 keeps the die's
// array busy 132 · 558 µs with LSB pages, 128 · 2201 µs with CSB and 124 · 5001 µs with MSB
// (TestProgramOneBlockByHand works them out), so each fraction is that time over the
// run's elapsed time, and the busy fraction their sum (nothing else runs on the array).
func TestJSONUtilizationIsFractions(t *testing.T) {
	c := oneDie()
	c.ReadWeight, c.ProgramWeight, c.EraseWeight = 0, 1, 0
	c.Ops = 384
	r, err := Run(c)
	require.NoError(t, err)
	b, err := json.Marshal(r.JSON())
	require.NoError(t, err)
	var doc struct {
		Utilization map[string][]map[string]any `json:"utilization"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	dies := doc.Utilization["dies"]
	require.Len(t, dies, 1)
	d := dies[0]
	require.Equal(t, "ssd.ch[0].die[0]", d["resource"])
	el := float64(r.Elapsed)
	lsb, csb, msb := float64(132*558*sim.Microsecond), float64(128*2201*sim.Microsecond), float64(124*5001*sim.Microsecond)
	require.Equal(t, lsb/el, d["program-lsb_frac"])
	require.Equal(t, csb/el, d["program-csb_frac"])
	require.Equal(t, msb/el, d["program-msb_frac"])
	require.InDelta(t, (lsb+csb+msb)/el, d["busy_frac"], 1e-15)
	ch := doc.Utilization["channels"]
	require.Len(t, ch, 1)
	busy, ok := ch[0]["busy_frac"].(float64)
	require.True(t, ok, "a number, not a string")
	require.Greater(t, busy, 0.0)
	require.Less(t, busy, 0.1, "the bus moves 16 KiB in ≈ 49 µs per page of a multi-ms program")
}
