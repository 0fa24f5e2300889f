package hostos_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestWriteCacheFollowsPLP: the whole stack on the tiny machine, two fsyncs of 64 KiB of
// fresh data each. The firmware reports a volatile write cache only without power-loss
// protection; the driver reads Identify Controller VWC bit 0 (byte 525) and the block
// queue, write_cache auto, follows it (Linux nvme_set_queue_limits →
// blk_queue_write_cache(q, vwc, vwc)):
//
//   - power_loss_protection false: VWC 1, write back; each fsync's cache flush reaches
//     the firmware (2 Flush commands) and its flush phase takes device time.
//   - power_loss_protection true: VWC 0, write through; blk completes each flush bio at
//     once (blk_insert_flush with no flush policy), so no Flush command is sent and the
//     flush phase takes 0 ps.
//   - true with host.block.write_cache=true (a sysfs override): the flushes are sent
//     again; the firmware, whose buffer is protected, completes them without draining.
func TestWriteCacheFollowsPLP(t *testing.T) {
	for _, c := range []struct {
		sets    []string
		vwc     byte
		wc      bool
		flushes int64
	}{
		{nil, 1, true, 2},
		{[]string{"firmware.power_loss_protection=true"}, 0, false, 0},
		{[]string{"firmware.power_loss_protection=true", "host.block.write_cache=true"}, 0, true, 2},
	} {
		cfg, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "vanilla", Sets: c.sets})
		require.NoError(t, err)
		m, err := platforms.Build(cfg)
		require.NoError(t, err)
		t.Cleanup(m.Eng.Close)
		id := m.SSD.Ctrl.IdentifyController()
		require.Equal(t, c.vwc, id[nvmectrl.IdentifyVWC], "%v: VWC", c.sets)
		require.Equal(t, c.vwc == 1, m.Host.Driver.VolatileWriteCache())
		require.Equal(t, c.wc, m.Host.Queue.WriteCache(), "%v: queue/write_cache", c.sets)
		os := m.Host.OS()
		run(t, m, func(p *sim.Proc) {
			f, err := os.Create(p, "f", 0)
			require.NoError(t, err)
			for i := range 2 {
				require.NoError(t, os.Write(p, f, int64(i)<<16, 64<<10))
				require.NoError(t, os.Fsync(p, f))
			}
		})
		require.Equal(t, c.flushes, m.SSD.FW.Stats.Flushes, "%v: Flush commands", c.sets)
		ff := &m.Host.Cache.Stats().FsyncFlush
		require.Equal(t, uint64(2), ff.Count())
		if c.wc {
			require.Positive(t, ff.Min(), "%v: the flush went to the device", c.sets)
		} else {
			require.Zero(t, ff.Max(), "%v: write through, the flush is done at once", c.sets)
		}
	}
}
