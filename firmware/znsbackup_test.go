package firmware

import (
	"errors"
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// zoneBackupRig is finalRig (2 dies of one plane of 32 blocks of 64 pages, 2D TLC, one a
// channel; Vanilla; power-loss records on, no protection) with one zoned namespace of 8
// zones of one block (64 pages), at most 2 active, and dieSpec's die if not nil.
func zoneBackupRig(t *testing.T, dieSpec func() die.Spec) *rig {
	return zoneBackupRigWith(t, dieSpec, 64, false, false)
}

// zoneBackupRigPages is zoneBackupRig with blocks of pages pages (zones of the next power
// of two).
func zoneBackupRigPages(t *testing.T, dieSpec func() die.Spec, pages int) *rig {
	return zoneBackupRigWith(t, dieSpec, pages, false, false)
}

// zoneBackupRigWith is zoneBackupRigPages with power-loss protection plp and the control
// durable_at_done atDone.
func zoneBackupRigWith(t *testing.T, dieSpec func() die.Spec, pages int, plp, atDone bool) *rig {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLoss.Enabled, s.PowerLossProtection, s.PowerLoss.Controls.DurableAtDone = true, plp, atDone
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	zone := int64(1)
	for zone < int64(pages) {
		zone <<= 1
	}
	cs.Namespaces = []nvmectrl.Namespace{{Size: sim.Size(8 * zone * 4096), LBASize: 4096, Type: nvme.NSZoned,
		Zones: nvmectrl.ZoneSpec{Blocks: 1, MaxOpen: 2, MaxActive: 2}}}
	return newRigOn(t, s, func(c *channel.Spec) {
		c.Dies = 1
		if dieSpec != nil {
			c.Die = dieSpec()
		}
		c.Die.Planes, c.Die.BlocksPerPlane, c.Die.PagesPerBlock, c.Die.PageSize = 1, 32, pages, 4096
	}, cs)
}

// lastLatency runs host on the rig to the end and returns the latency of the command it
// returns, and whether that command completed (successfully).
func lastLatency(t *testing.T, r *rig, host func(p *sim.Proc) *req) (sim.Time, bool) {
	var lat sim.Time
	done := false
	r.eng.Spawn("host", func(p *sim.Proc) {
		q := host(p)
		require.Equal(t, nvme.StatusSuccess, q.status)
		lat, done = q.latency, true
	})
	r.eng.Run()
	return lat, done
}

// TestZoneBackupSized: the area of the zone backup rig, worked out by hand. In the 2D TLC
// shadow order of a 64-page block (pages 0–5 LSB, 6–7 CSB, then pairs of LSB, CSB and MSB
// pages from page 8; die.Spec.FinalizingPages) the LSB pages are 0–5 and 8 + 6k, 9 + 6k
// for k = 0 … 9: 26 pages. The most pages provisional at once: with pages 0 … 29
// programmed, those whose finalizing page is 30 or later: 8 (→ 30), 9 (31), 14 (36),
// 15 (37), 20 (42), 21 (43), 22 (30), 23 (31), 26 (48), 27 (49), 28 (36), 29 (37): 12 (no
// prefix leaves more). Zones of one block on 2 dies, at most 2 active: a die holds at
// most 2 zone blocks, 2 × 12 = 24 pages, one backup block of 26, plus one being erased and
// one kept for compaction: 3 blocks a die. A size of 2 is refused, and one above an eighth
// of a die's 32 blocks.
func TestZoneBackupSized(t *testing.T) {
	r := zoneBackupRig(t, nil)
	z := &r.fw.zbak
	require.True(t, z.on)
	require.False(t, z.slc)
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 8, 9, 14, 15, 20, 21, 26, 27, 32, 33, 38, 39, 44, 45, 50, 51, 56, 57, 62, 63}, z.pages)
	for d := range z.dies {
		require.Len(t, z.dies[d].blocks, 3, "die %d", d)
	}
	_, err := r.fw.sizeBackup(2, 26)
	require.ErrorContains(t, err, "firmware.power_loss.zone_backup_blocks: 2 blocks a die; the zoned namespaces can leave 24 pages a die provisional at once "+
		"(2 zone blocks a die × 12 pages), 1 blocks of 26 backup pages, and the area needs one more being erased and one kept for compaction: at least 3 blocks")
	_, err = r.fw.sizeBackup(-1, 26)
	require.ErrorContains(t, err, "must not be negative")
	_, err = r.fw.sizeBackup(5, 26)
	require.ErrorContains(t, err, "at most an eighth of a die's 32 blocks (4)")
	require.ErrorContains(t, errors.Join(PowerLoss{ZoneBackupBlocks: 2}.validate(false)...),
		"firmware.power_loss.zone_backup_blocks: 2 is set but firmware.power_loss.enabled is false")
	s := smallSpec(Vanilla, "sequential")
	s.PowerLoss.Enabled, s.PowerLoss.ZoneBackupBlocks = true, 2
	eng := sim.NewEngine()
	_, err = New("ssd.fw", s, eng, hwPorts(t, r.chans, nvmectrl.New("ssd.nvme", nvmectrl.DefaultSpec(), eng, pcie.NewLink("ssd.pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory())))
	require.ErrorContains(t, err, "firmware.power_loss.zone_backup_blocks: 2 is set but no namespace is zoned")
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
		lat, done := lastLatency(t, r, func(p *sim.Proc) *req {
			for lba := int64(0); lba < 9; lba++ {
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
			}
			return r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		})
		require.Equal(t, area, done, "without the backup the Flush waits for the zone's next writes")
		if !area {
			continue
		}
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
		{name: "during", when: func(r *rig) bool { // the first backup program has started
			a := r.fw.geo.Addr(r.fw.geo.FirstPage(r.fw.zbak.dies[0].blocks[0]))
			return r.fw.FlashWork().Backups > 0 && r.die(0).NextPage(a.Plane, a.Block) > 0
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
				r = zoneBackupRigWith(t, nil, 64, false, true)
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

// TestZoneBackupReclaimed: on the zone backup rig the host writes zone 0 one page at a
// time with a Flush after each, pages 0 … 39, then pages 40 … 63 (the zone fills) and a
// last Flush. Each Flush backs up the pages not final and not yet backed up: the page
// just written, unless it is final at its own program (the MSB pages 12, 13, 18, 19, 24,
// 25, 30, 31, 36, 37, whose word line's last page they are): 40 − 10 = 30 backup pages,
// 26 in die 0's first backup block (its 26 LSB pages: full) and 4 in the second. Once the
// zone is full every page of its block is final, no backup page is needed, and the full
// backup block is erased and replaced by a free block of its plane; the second, still
// being filled, is kept. The FTL's invariants hold throughout (firmware.verify).
func TestZoneBackupReclaimed(t *testing.T) {
	r := zoneBackupRig(t, nil)
	f := r.fw
	first := f.zbak.dies[0].blocks[0]
	r.eng.Spawn("host", func(p *sim.Proc) {
		for lba := int64(0); lba < 64; lba++ {
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
			if lba < 40 || lba == 63 {
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status, "flush after page %d", lba)
			}
		}
	})
	r.eng.Run()
	z := &f.zbak
	require.Equal(t, int64(30), z.Pages)
	require.Equal(t, int64(1), z.Erases)
	require.Empty(t, f.fin.blocks, "the full zone's pages are final")
	require.NotEqual(t, first, z.dies[0].blocks[0], "a free block replaced the erased one")
	require.Equal(t, []uint8{bakReady, bakFilling, bakReady}, z.dies[0].state)
	require.Equal(t, 4, z.dies[0].next)
	for b, n := range z.live {
		require.Zero(t, n, "block %d", b)
	}
	require.Len(t, z.free, len(z.recs), "every record is free")
	require.NoError(t, f.ftl.Check())
	require.NoError(t, f.ftl.CheckProgrammed(func(b ftl.BlockID) int {
		d, plane, blk := f.geo.BlockAddr(b)
		return r.die(d).NextPage(plane, blk)
	}), "the FTL's write pointers agree with the dies' (the backup blocks' passed-over pages included)")
	zs, _ := f.ZoneInfo(1)
	require.Equal(t, nvme.ZoneFull, zs[0].State)
}

// TestZoneResetDropsBackup: 9 pages of zone 0 written and flushed (backed up, as in
// TestZoneFlushBacksUp), then the zone is reset and the power cut at once, with no
// protection. The backup pages are still on flash (their block is being filled, not
// erased), but the reset was acknowledged, so none of the zone's old data may come back:
// recovery ignores backup records whose sequence number is not above the zone's reset
// mark, and zone 0 recovers Empty with its write pointer at its start.
func TestZoneResetDropsBackup(t *testing.T) {
	r := zoneBackupRig(t, nil)
	f := r.fw
	r.eng.Spawn("host", func(p *sim.Proc) {
		for lba := int64(0); lba < 9; lba++ {
			require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
		}
		require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status)
		ns := &f.ns[0]
		require.Equal(t, nvme.StatusSuccess, ns.zns.action(0, nvme.ZoneActionReset, f.resetZone(ns)))
		require.NoError(t, f.PowerCut())
		r.eng.Stop()
	})
	r.eng.Run()
	require.True(t, f.PoweredOff())
	bb := f.zbak.dies[0].blocks[0]
	require.True(t, f.zbak.backupBlock(bb))
	_, _, ok := StampParts(f.pl.oob[f.geo.FirstPage(bb)])
	require.True(t, ok, "the backup of page 0 is still on flash")
	rec, err := f.Recover()
	require.NoError(t, err)
	for lpn := range int64(9) {
		require.Equal(t, ftl.NoUnit, rec.Map[lpn], "page %d of the reset zone", lpn)
	}
	require.Zero(t, rec.Restored)
	zs, err := f.RecoveredZones(rec, 1)
	require.NoError(t, err)
	require.Equal(t, nvme.ZoneEmpty, zs[0].State)
	require.Equal(t, uint64(0), zs[0].WP)
}

// oneShotPSLC is the one-shot TLC die of TestFUAOneShotPads with a pSLC mode (tPROG
// 100 µs, tR 25 µs: gen4-tlc's die.slc): its 66-page blocks (22 word lines) hold 22 pages in it.
func oneShotPSLC() die.Spec {
	d := oneShotTLC()
	d.SLC = die.SLCSpec{TRead: 25 * sim.Microsecond, TProg: 100 * sim.Microsecond, Endurance: 10}
	return d
}

// TestZoneFUAOneShotBacksUpInPSLC: one FUA write of one page to zone 0 on the one-shot
// pSLC rig. The page goes to page 0 of zone 0's block, where it is only latched (done after
// the transfer, no array time) and final at page 2 (its word line's last), which the zone
// will not be padded to. Its data is still in DRAM (a latched page keeps its in-flight
// record, final.go), so the FUA's flush programs the copy from there, with no read, on page
// 0 of die 0's backup block in pSLC mode: one transfer and the SLC tPROG, 100 µs, final
// at its own completion. The write completes after 2 transfers and 100 µs (plus the
// command's own handling); without the area it never completes.
func TestZoneFUAOneShotBacksUpInPSLC(t *testing.T) {
	for _, area := range []bool{true, false} {
		r := zoneBackupRigPages(t, oneShotPSLC, 66)
		f := r.fw
		require.True(t, f.zbak.slc)
		require.Len(t, f.zbak.pages, 22)
		f.zbak.on = area
		lat, done := lastLatency(t, r, func(p *sim.Proc) *req {
			return r.cmdFUA(p, nvme.OpWrite, 0, 1, nvme.Hint{}, []uint64{Stamp(0, 1)}, true)
		})
		require.Equal(t, area, done, "without the backup the FUA write waits for the zone's next writes")
		if !area {
			continue
		}
		require.Equal(t, int64(1), f.zbak.Pages)
		require.Zero(t, f.zbak.Reads, "the latched page's data is in DRAM")
		require.GreaterOrEqual(t, lat, 100*sim.Microsecond+2*pageXferMin)
		require.Less(t, lat, 100*sim.Microsecond+2*pageXferMax+100*sim.Microsecond)
		require.Equal(t, int64(1), r.die(0).Stats().SLCPrograms)
		// A cut now erases the latched zone page (die.Die.Cut); recovery restores it.
		require.NoError(t, f.PowerCut())
		var ppns []ftl.PPN
		for _, a := range r.die(0).Cut(r.eng.Now()) {
			ppns = append(ppns, f.geo.PPN(ftl.Addr{Die: 0, Plane: a.Plane, Block: a.Block, Page: a.Page}))
		}
		require.Len(t, ppns, 1, "the latched zone page")
		require.NoError(t, f.FlashLost(ppns))
		rec, err := f.Recover()
		require.NoError(t, err)
		require.Equal(t, int64(1), rec.Restored)
		require.Equal(t, f.geo.FirstPage(f.zbak.dies[0].blocks[0]), f.ftl.PageOf(rec.Map[0]))
		zs, err := f.RecoveredZones(rec, 1)
		require.NoError(t, err)
		require.Equal(t, uint64(1), zs[0].WP)
	}
}

// TestZoneDrainBacksUpInPSLC: with power-loss protection on the one-shot pSLC rig, one
// write to zone 0 stays dirty (Vanilla) and the power is cut. The hold-up drain programs
// it to page 0 of zone 0's block, where it is only latched, and a cut with no program
// running erases a latched page (die.Die.Cut). The drain's end would pad it final; a
// zone's block is not padded, so it backs the page up instead, from DRAM, in pSLC mode:
// the drain ends after 2 transfers and the SLC tPROG, 100 µs, and recovery restores the
// page from its backup. Under durable_at_done the drain ends after the one transfer, and
// the cut loses the acknowledged page.
func TestZoneDrainBacksUpInPSLC(t *testing.T) {
	for _, atDone := range []bool{false, true} {
		r := zoneBackupRigWith(t, oneShotPSLC, 66, true, atDone)
		f := r.fw
		spawnWritesThenCut(t, r, 1)
		r.eng.Run()
		rep := f.PowerLossReport()
		require.True(t, rep.Drained)
		var ppns []ftl.PPN
		for _, a := range r.die(0).Cut(r.eng.Now()) {
			ppns = append(ppns, f.geo.PPN(ftl.Addr{Die: 0, Plane: a.Plane, Block: a.Block, Page: a.Page}))
		}
		require.Len(t, ppns, 1, "the latched zone page (durable_at_done %v)", atDone)
		require.NoError(t, f.FlashLost(ppns))
		rec, err := f.Recover()
		require.NoError(t, err)
		if atDone {
			require.Less(t, rep.DrainTime(), pageXferMax+100*sim.Microsecond)
			require.Equal(t, ftl.NoUnit, rec.Map[0], "the control loses the acknowledged page")
			continue
		}
		require.GreaterOrEqual(t, rep.DrainTime(), 100*sim.Microsecond+2*pageXferMin)
		require.Less(t, rep.DrainTime(), 100*sim.Microsecond+2*pageXferMax+100*sim.Microsecond)
		require.Equal(t, int64(1), f.zbak.Pages)
		require.Equal(t, int64(1), rec.Restored)
		zs, err := f.RecoveredZones(rec, 1)
		require.NoError(t, err)
		require.Equal(t, uint64(1), zs[0].WP)
	}
}

// TestZoneBackupCompacts: zones 0, 2 and 4 of the zone backup rig are on die 0 (zones of
// one block rotate over the 2 dies). Six times the host writes one page of zone 0 and
// flushes, then 20 pages of zone 2 (zone 4 once zone 2 is full: 120 pages) with a Flush
// after each. Zone 0 barely moves (6 pages, none final: the first is final at page 12),
// so each of its backup pages stays needed, one in every block the others fill, while
// zones 2 and 4 become final as they fill and free theirs. Backups by hand: zone 0's 6;
// zone 2's 64 pages less the 26 final at their own program (12, 13, 18, 19, 24, 25, 30,
// 31, 36, 37, 42, 43, 48–51, 54–63: die.Spec.FinalizingPages), 38; zone 4's first 56
// less the 18 of those below 56, 38: 82, plus the pages compaction copies again. Zone 0's
// pages pin the die's 3 backup blocks in turn, so without compaction (the control) the
// area runs out and a Flush waits for ever: the host stops. With it, the full block needing
// the fewest pages has them copied again, from their zone pages, to the block kept erased,
// and is erased: every Flush completes, and recovery after a cut finds zone 0's pages.
func TestZoneBackupCompacts(t *testing.T) {
	for _, compact := range []bool{true, false} {
		r := zoneBackupRig(t, nil)
		f := r.fw
		f.zbak.noCompact = !compact
		flushes := 0
		r.eng.Spawn("host", func(p *sim.Proc) {
			write := func(lba int64) {
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpWrite, lba, 1, nvme.Hint{}, []uint64{Stamp(lba, 1)}).status)
				require.Equal(t, nvme.StatusSuccess, r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status)
				flushes++
			}
			n := int64(0) // zones 2 and 4's pages written
			for k := range int64(6) {
				write(k)
				for range 20 {
					write((2+2*(n/64))*64 + n%64)
					n++
				}
			}
		})
		r.eng.Run()
		z := &f.zbak
		t.Logf("compact %v: flushes %d backups %d, compactions %d, moved %d, erases %d starved %d; zone 0 die %v zone 2 die %v", compact, flushes, z.Pages, z.Compactions, z.Moved, z.Erases, z.Starved,
			f.geo.Addr(f.ftl.PageOf(f.ftl.Lookup(0))).Die, f.geo.Addr(f.ftl.PageOf(f.ftl.Lookup(128))).Die)
		if !compact {
			require.Less(t, flushes, 126, "without compaction a Flush waits for ever")
			require.Positive(t, z.Starved)
			continue
		}
		require.Equal(t, 126, flushes)
		require.Positive(t, z.Compactions)
		require.Positive(t, z.Moved)
		require.Equal(t, int64(82)+z.Moved, z.Pages)
		require.NoError(t, f.ftl.Check())
		require.NoError(t, f.PowerCut())
		rec, err := f.Recover()
		require.NoError(t, err)
		for k := range int64(6) {
			require.NotEqual(t, ftl.NoUnit, rec.Map[k], "zone 0 page %d", k)
		}
		t.Logf("backups %d, compactions %d, pages moved %d, erases %d", z.Pages, z.Compactions, z.Moved, z.Erases)
	}
}
