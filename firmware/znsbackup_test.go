package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// zoneBackupRig is finalRig (2 dies of one plane of 32 blocks of 64 pages, 2D TLC, one a
// channel; Vanilla; power-loss records on, no protection) with one zoned namespace of 8
// zones of one block (64 pages), at most 2 active, and dieSpec's die if not nil.
func zoneBackupRig(t *testing.T, dieSpec func() die.Spec) *rig {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLoss.Enabled = true
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	cs.Namespaces = []nvmectrl.Namespace{{Size: 8 * 64 * 4096, LBASize: 4096, Type: nvme.NSZoned,
		Zones: nvmectrl.ZoneSpec{Blocks: 1, MaxOpen: 2, MaxActive: 2}}}
	return newRigOn(t, s, func(c *channel.Spec) {
		c.Dies = 1
		if dieSpec != nil {
			c.Die = dieSpec()
		}
		c.Die.Planes, c.Die.BlocksPerPlane, c.Die.PagesPerBlock, c.Die.PageSize = 1, 32, 64, 4096
	}, cs)
}

// TestZoneBackupSized: the area of the zone backup rig, worked out by hand. In the 2D TLC
// shadow order of a 64-page block (pages 0–5 LSB, 6–7 CSB, then pairs of LSB, CSB and MSB
// pages from page 8; die.Spec.FinalizingPages) the LSB pages are 0–5 and 8 + 6k, 9 + 6k
// for k = 0 … 9: 26 pages. The most pages provisional at once: with pages 0 … 29
// programmed, those whose finalizing page is 30 or later: 8 (→ 30), 9 (31), 14 (36),
// 15 (37), 20 (42), 21 (43), 22 (30), 23 (31), 26 (48), 27 (49), 28 (36), 29 (37): 12 (no
// prefix leaves more). Zones of one block on 2 dies, at most 2 active: a die holds at
// most 2 zone blocks, 2 × 12 = 24 pages, one backup block of 26, plus one being erased:
// 2 blocks a die. A size of 1 is refused, and one above an eighth of a die's 32 blocks.
func TestZoneBackupSized(t *testing.T) {
	r := zoneBackupRig(t, nil)
	z := &r.fw.zbak
	require.True(t, z.on)
	require.False(t, z.slc)
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 8, 9, 14, 15, 20, 21, 26, 27, 32, 33, 38, 39, 44, 45, 50, 51, 56, 57, 62, 63}, z.pages)
	for d := range z.dies {
		require.Len(t, z.dies[d].blocks, 2, "die %d", d)
	}
	_, err := r.fw.sizeBackup(1, 26)
	require.ErrorContains(t, err, "firmware.power_loss.zone_backup_blocks: 1 blocks a die hold 0 backup pages; "+
		"the zoned namespaces can leave 24 pages a die provisional at once (2 zone blocks a die × 12 pages): at least 2 blocks")
	_, err = r.fw.sizeBackup(-1, 26)
	require.ErrorContains(t, err, "must not be negative")
	_, err = r.fw.sizeBackup(5, 26)
	require.ErrorContains(t, err, "at most an eighth of a die's 32 blocks (4)")
}

// TestZoneFlushBacksUp: 9 one-page writes at zone 0's write pointer and a Flush, on the
// zone backup rig; the host then writes nothing more. Zone 0's block is on die 0; its
// pages 0 … 8 are 6 LSB, 2 CSB and 1 LSB page (tPROG 558 / 2,201 / 558 µs: 8,308 µs, as in
// TestFlushPadsLSBPageToItsMSB). None is final (page 0 is final at page 12, page 8 at 30),
// and a zone's block is not padded, so the Flush backs the 9 pages up: each is read back
// (tR 58 µs LSB, 78 µs CSB: 7 × 58 + 2 × 78 = 562 µs) and programmed on an LSB page of the
// die's backup block (pages 0–5, 8, 9, 14: 9 × 558 = 5,022 µs). The die does one thing at
// a time, so the Flush takes 8,308 + 562 + 5,022 = 13,892 µs of array time plus 9 + 18
// page transfers (the data's programs, the backup's reads and programs); padding would
// have been 56,521 µs more (docs/reliability.md). Without the area (the control) the
// Flush never completes: the zone is never written again.
func TestZoneFlushBacksUp(t *testing.T) {
	for _, area := range []bool{true, false} {
		r := zoneBackupRig(t, nil)
		f := r.fw
		f.zbak.on = area
		var lat sim.Time
		done := false
		r.eng.Spawn("host", func(p *sim.Proc) {
			for lba := int64(0); lba < 9; lba++ {
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
			}
			q := r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
			require.Equal(t, nvme.StatusSuccess, q.status)
			lat, done = q.latency, true
		})
		r.eng.Run()
		if !area {
			require.False(t, done, "without the backup the Flush waits for the zone's next writes")
			continue
		}
		require.True(t, done)
		us := sim.Microsecond
		array := 8308*us + 562*us + 5022*us
		require.GreaterOrEqual(t, lat, array+27*pageXferMin)
		require.LessOrEqual(t, lat, array+27*pageXferMax)
		require.Equal(t, int64(9), f.zbak.Pages)
		require.Equal(t, int64(9), f.zbak.Reads)
		require.Zero(t, f.ftl.Stats.FinalityPads, "a zone is never padded")
		bb := f.zbak.dies[0].blocks[0]
		require.Equal(t, 15, f.ftl.NextPage(bb), "the backup block's LSB pages up to 14")
		a := f.geo.Addr(f.geo.FirstPage(bb))
		require.Equal(t, 15, r.die(0).NextPage(a.Plane, a.Block))
		require.Equal(t, 9, r.die(0).NextPage(0, f.geo.Addr(f.geo.FirstPage(f.geo.BlockOf(f.ftl.PageOf(f.ftl.Lookup(0))))).Block))
		zs, _ := f.ZoneInfo(1)
		require.Equal(t, uint64(9), zs[0].WP)
	}
}

// zoneCutCase is one cut of TestZoneBackupPowerCut: when (a condition polled every 5 µs,
// then a wait), and what recovery must find.
type zoneCutCase struct {
	name    string
	second  bool // the host writes pages 9 … 12 and flushes again after the first Flush
	when    func(r *rig) bool
	after   sim.Time
	lost    []int // the pages the cut destroys (die.Die.Cut): of zone 0's block, or of die 0's backup block with backup
	backup  bool
	wp      int64 // zone 0's write pointer after recovery, pages
	durable int64 // pages 0 … durable−1 were flushed before the cut
	restore int64 // Recovery.Restored
}

// TestZoneBackupPowerCut cuts the power (no protection) around the zone backup of
// TestZoneFlushBacksUp and recovers: each page the host flushed reads back its version,
// and zone 0's write pointer is what the ZNS specification requires after the cut: past
// every flushed write, and not past the writes the host issued (a zone's write pointer
// never covers blocks the host did not write).
//   - before: during the first Flush's data programs, page 5's (LSB, running: the die's
//     cut loses it alone; pages 0 … 4 are done): nothing is flushed yet; the write
//     pointer is 5.
//   - during: 100 µs into the first backup program (page 0 of die 0's backup block, LSB,
//     558 µs; the Flush waits for it): the cut destroys that page alone; the zone's pages
//     0 … 8 are untouched (no program of their word lines runs), so the write pointer is
//     9 and nothing is restored.
//   - after: the first Flush done (pages 0 … 8 backed up), the host writes pages 9 … 12
//     and flushes again; the cut comes 1 ms into page 12's program, the MSB page of word
//     line 0 (LSB page 0, CSB page 6): it destroys pages 0, 6 and 12. Pages 0 and 6 were
//     flushed: recovery maps them to their backups (Restored 2); page 12 was not flushed,
//     so the write pointer is 12 (pages 9 … 11 completed).
//
// The control durable_at_done (no finality, no backup: the first Flush completes after
// the data's programs) loses pages 0 and 6 at the "after" cut: recovery finds no copy.
func TestZoneBackupPowerCut(t *testing.T) {
	zoneNext := func(r *rig, n int) bool { // zone 0's block (die 0) has its page n−1's program started
		b := r.fw.geo.BlockOf(r.fw.ftl.PageOf(r.fw.ftl.Lookup(0)))
		a := r.fw.geo.Addr(r.fw.geo.FirstPage(b))
		return r.fw.ftl.Lookup(0) != ftl.NoUnit && r.die(0).NextPage(a.Plane, a.Block) >= n
	}
	cases := []zoneCutCase{
		{name: "before", when: func(r *rig) bool { return zoneNext(r, 6) }, lost: []int{5}, wp: 5},
		{name: "during", when: func(r *rig) bool {
			return r.fw.FlashWork().Backups > 0
		}, after: 100 * sim.Microsecond, lost: []int{0}, backup: true, wp: 9},
		{name: "after", second: true, when: func(r *rig) bool { return zoneNext(r, 13) }, after: sim.Millisecond,
			lost: []int{0, 6, 12}, wp: 12, durable: 9, restore: 2},
	}
	for _, atDone := range []bool{false, true} {
		for _, c := range cases {
			if atDone && c.name != "after" {
				continue
			}
			r := zoneBackupRig(t, nil)
			f := r.fw
			if atDone {
				r = zoneBackupRigAtDone(t)
				f = r.fw
			}
			r.eng.Spawn("host", func(p *sim.Proc) {
				for lba := int64(0); lba < 9; lba++ {
					require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
				}
				if c.second {
					require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status)
					for lba := int64(9); lba < 13; lba++ {
						require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
					}
				}
				r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil) // the cut may end it
			})
			var lostPages []int
			var lostBlocks []ftl.BlockID
			r.eng.Spawn("cutter", func(p *sim.Proc) {
				for !c.when(r) {
					p.SleepUntil(p.Now() + 5*sim.Microsecond)
				}
				p.SleepUntil(p.Now() + c.after)
				require.NoError(t, f.PowerCut())
				r.eng.Stop()
				var ppns []ftl.PPN
				for _, a := range r.die(0).Cut(p.Now()) {
					ppns = append(ppns, f.geo.PPN(ftl.Addr{Die: 0, Plane: a.Plane, Block: a.Block, Page: a.Page}))
					lostPages = append(lostPages, a.Page)
					lostBlocks = append(lostBlocks, f.geo.BlockOf(ppns[len(ppns)-1]))
				}
				require.NoError(t, f.FlashLost(ppns))
			})
			r.eng.Run()
			require.True(t, f.PoweredOff(), c.name)
			require.Equal(t, c.lost, lostPages, "%s: the pages the cut destroys (durable_at_done %v)", c.name, atDone)
			for _, b := range lostBlocks {
				want := f.geo.BlockOf(f.ftl.PageOf(f.ftl.Lookup(0))) // zone 0's
				if c.backup {
					want = f.zbak.dies[0].blocks[0]
				}
				require.Equal(t, want, b, c.name)
			}
			rec, err := f.Recover()
			require.NoError(t, err)
			if atDone {
				require.Equal(t, ftl.NoUnit, rec.Map[0], "the control loses flushed page 0")
				require.Equal(t, ftl.NoUnit, rec.Map[6], "the control loses flushed page 6")
				continue
			}
			for lpn := range c.durable {
				u := rec.Map[lpn]
				require.NotEqual(t, ftl.NoUnit, u, "%s: flushed page %d", c.name, lpn)
				a := f.geo.Addr(f.ftl.PageOf(u))
				require.Equal(t, Stamp(lpn, 1), r.die(a.Die).Stamp(die.Addr{Plane: a.Plane, Block: a.Block, Page: a.Page}), "%s: page %d's data", c.name, lpn)
			}
			require.Equal(t, c.restore, rec.Restored, c.name)
			zs, err := f.RecoveredZones(rec, 1)
			require.NoError(t, err)
			require.Equal(t, uint64(c.wp), zs[0].WP, "%s: zone 0's write pointer", c.name)
			require.Equal(t, nvme.ZoneClosed, zs[0].State, c.name)
		}
	}
}

// zoneBackupRigAtDone is zoneBackupRig under the control durable_at_done.
func zoneBackupRigAtDone(t *testing.T) *rig {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLoss.Enabled, s.PowerLoss.Controls.DurableAtDone = true, true
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	cs.Namespaces = []nvmectrl.Namespace{{Size: 8 * 64 * 4096, LBASize: 4096, Type: nvme.NSZoned,
		Zones: nvmectrl.ZoneSpec{Blocks: 1, MaxOpen: 2, MaxActive: 2}}}
	return newRigOn(t, s, func(c *channel.Spec) {
		c.Dies = 1
		c.Die.Planes, c.Die.BlocksPerPlane, c.Die.PagesPerBlock, c.Die.PageSize = 1, 32, 64, 4096
	}, cs)
}
