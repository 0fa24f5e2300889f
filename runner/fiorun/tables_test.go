package fiorun

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// offsetDev serves an IO in a latency set by its offset alone, with no queue: 100 µs below
// 1 MiB and 300 µs from 1 MiB on, plus 10 µs for each 4 KiB block into its MiB. Two jobs in
// different MiBs then have latencies of their own, whatever the other does.
type offsetDev struct{}

func (offsetDev) Do(p *sim.Proc, _ uflip.Op, offset, _ int64) (sim.Time, error) {
	base := 100 * sim.Microsecond
	if offset >= 1<<20 {
		base = 300 * sim.Microsecond
	}
	lat := base + sim.Time((offset%(1<<20))/4096)*10*sim.Microsecond
	p.Sleep(lat)
	return lat, nil
}

// TestTableTenantsOwnFigures: the text table's row of each job holds the figures of that
// job's requests, not another's (docs/placement.md's conventional and FDP tenants print
// the same figures; this checks that the table cannot be the cause). Two jobs side by side,
// rw=write in 4 KiB blocks at iodepth 1, 16 KiB each (4 IOs). Worked by hand on offsetDev:
//
//	hot  at 0:     100, 110, 120, 130 µs: mean 115 µs, max 130 µs, ends at 460 µs:
//	               IOPS 4 / 460 µs = 8,696; 16,384 B / 460 µs = 35.6 MB/s
//	cold at 1 MiB: 300, 310, 320, 330 µs: mean 315 µs, max 330 µs, ends at 1,260 µs:
//	               IOPS 4 / 1,260 µs = 3,175; 16,384 B / 1,260 µs = 13.0 MB/s
func TestTableTenantsOwnFigures(t *testing.T) {
	jobs, err := fio.Decode(strings.NewReader(`[global]
rw=write
bs=4k
iodepth=1
size=16k
[hot]
offset=0
[cold]
offset=1m
`), "tenants.fio")
	require.NoError(t, err)
	eng := sim.NewEngine()
	var res []fio.JobResult
	eng.Spawn("fio", func(p *sim.Proc) { res, err = fio.Run(p, offsetDev{}, 1<<30, jobs) })
	eng.Run()
	require.NoError(t, err)
	us := sim.Microsecond
	tab := (&Result{Jobs: jobs, Results: res}).Table()
	require.Equal(t, []string{"job", "dir", "IOs", "IOPS", "MB/s", "mean", "p50", "p99", "max"}, tab.Header)
	require.Len(t, tab.Rows, 2)
	row := func(r []string) []string { return append(r[:6:6], r[8]) } // without the binned percentiles
	require.Equal(t, []string{"hot", "write", "4", "8696", "35.6", report.Duration(115 * us), report.Duration(130 * us)}, row(tab.Rows[0]))
	require.Equal(t, []string{"cold", "write", "4", "3175", "13.0", report.Duration(315 * us), report.Duration(330 * us)}, row(tab.Rows[1]))
}
