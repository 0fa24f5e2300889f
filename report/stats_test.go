package report

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestStatsTables: statistics sharing a Row print as one row joined by " / "; a time is a
// duration in text (2.5 ms) and µs as a number (2,500); a ratio has three decimals in text
// and every digit as a number; a statistic the snapshot lacks is in neither.
func TestStatsTables(t *testing.T) {
	runs := &sim.Stat{Name: "gc_runs", Unit: sim.UnitCount, Desc: "runs", Row: "GC runs / time"}
	gcTime := &sim.Stat{Name: "gc_time_us", Unit: sim.UnitTime, Desc: "time", Row: "GC runs / time"}
	waf := &sim.Stat{Name: "waf", Unit: sim.UnitRatio, Desc: "waf", Row: "WAF"}
	absent := &sim.Stat{Name: "absent", Unit: sim.UnitCount, Desc: "never put", Row: "absent"}
	cat := sim.NewCatalogue(runs, gcTime, absent, waf)
	sn := cat.NewSnapshot()
	sn.PutInt(runs, 12)
	sn.PutInt(gcTime, int64(2500*sim.Microsecond))
	sn.Put(waf, 1.23456)
	txt := StatsTable("statistics", sn)
	require.Equal(t, [][]string{{"GC runs / time", "12 / 2.500ms"}, {"WAF", "1.235"}}, txt.Rows)
	csv := StatsCSV("statistics", sn)
	require.Equal(t, [][]string{{"gc_runs", "12"}, {"gc_time_us", "2500"}, {"waf", "1.23456"}}, csv.Rows)
	list := CatalogueTable("statistics", cat)
	require.Equal(t, []string{"absent", "count", "never put"}, list.Rows[2])
}
