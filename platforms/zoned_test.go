package platforms

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// oneZoned is a tiny machine's NVMe section with one zoned namespace of superblock zones
// (one block on each of the 8 planes: 8 × 64 pages = 2 MiB a zone) limited to 4 open and
// 6 active zones.
const oneZoned = `
nvme:
  namespaces:
    - type: zoned
      zones: {max_open: 4, max_active: 6}
`

// TestZonedWholeStack: on the tiny machine (12,288 logical pages) the zoned namespace has
// 12,288 / 512 = 24 zones of 2 MiB, each Empty with its write pointer at its start; the
// host's block queue is zoned with 2 MiB zones and the driver reads MOR 4 and MAR 6.
// Four processes each write 64 KiB to zone 0 at the same instant, at offsets 0, 64, 128
// and 192 KiB, in that order: zone write plugging lets one write at a time reach the
// device, in submission order, so all four succeed (3 wait in the plug) and the zone's
// write pointer is 256 KiB. A write at 512 KiB (not the write pointer) fails with Zone
// Invalid Write; a write crossing into zone 1 is refused by the host. After a reset the
// zone is Empty and a new write at 0 reads back through the whole stack.
func TestZonedWholeStack(t *testing.T) {
	c, err := loadWith(t, "tiny", oneZoned, "precondition.fill=0", "firmware.verify=true")
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	d, err := hostos.NewNamespaceDevice(m.Host, 1)
	require.NoError(t, err)
	const zone = 2 << 20
	require.Equal(t, int64(zone), d.ZoneBytes())
	open, active := d.ZoneLimits()
	require.Equal(t, [2]int{4, 6}, [2]int{open, active})
	zs := d.Zones()
	require.Len(t, zs, 24)
	for i, z := range zs {
		require.Equal(t, int64(i)*zone, z.Start)
		require.Equal(t, z.Start, z.WP)
		require.Equal(t, int64(zone), z.Cap)
		require.Equal(t, nvmectrl.ZoneEmpty, z.State)
	}
	stamps := func(off int64, n int, v uint64) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			out[i] = firmware.Stamp(off/4096+int64(i), v)
		}
		return out
	}
	errs := make([]error, 4)
	for k := range 4 {
		m.Eng.Spawn("writer", func(p *sim.Proc) {
			off := int64(k) * 64 << 10
			_, errs[k] = d.DoData(p, uflip.OpWrite, off, 64<<10, stamps(off, 16, 1))
		})
	}
	var bad, cross, after error
	var wpAfterWrites, wpAfterReset int64
	got := make([]uint64, 4)
	m.Eng.Spawn("main", func(p *sim.Proc) {
		p.Sleep(50 * sim.Millisecond)
		wpAfterWrites = d.Zones()[0].WP
		_, bad = d.DoData(p, uflip.OpWrite, 512<<10, 4096, stamps(512<<10, 1, 1))
		_, cross = d.DoData(p, uflip.OpWrite, zone-4096, 8192, stamps(zone-4096, 2, 1))
		if _, err := d.ResetZone(p, 0); err != nil {
			after = err
			return
		}
		wpAfterReset = d.Zones()[0].WP
		if _, err := d.DoData(p, uflip.OpWrite, 0, 4*4096, stamps(0, 4, 2)); err != nil {
			after = err
			return
		}
		_, after = d.DoData(p, uflip.OpRead, 0, 4*4096, got)
	})
	m.Eng.Run()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, int64(3), m.Host.Queues[0].Stats().Zones.Plugged)
	require.Equal(t, int64(256<<10), wpAfterWrites)
	require.ErrorContains(t, bad, "Zone Invalid Write")
	require.ErrorContains(t, cross, "crosses a zone boundary")
	require.NoError(t, after)
	require.Equal(t, int64(0), wpAfterReset)
	require.Equal(t, stamps(0, 4, 2), got)
	require.Equal(t, int64(1), m.Host.Queues[0].Stats().Zones.Resets)
	require.NoError(t, m.SSD.FW.FTL().Check())
}
