package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// Shorter names for the zone states in the tables below.
const (
	zse  = nvme.ZoneEmpty
	zsio = nvme.ZoneImplOpen
	zseo = nvme.ZoneExplOpen
	zsc  = nvme.ZoneClosed
	zsf  = nvme.ZoneFull
	zsro = nvme.ZoneReadOnly
	zso  = nvme.ZoneOffline
)

// TestZoneStateMachine checks every Zone Send Action from every state against the ZNS
// specification's Zone Management Send action table and zone state machine, written out
// by hand: Close takes ZSIO and ZSEO to ZSC and leaves ZSC; Finish takes ZSE, ZSIO, ZSEO
// and ZSC to ZSF with the write pointer at the capacity and leaves ZSF; Open takes ZSE,
// ZSIO and ZSC to ZSEO and leaves ZSEO; Reset takes ZSIO, ZSEO, ZSC and ZSF to ZSE with
// the write pointer at the zone's start and leaves ZSE; Offline takes ZSRO to ZSO and
// leaves ZSO. Every other pair is Invalid Zone State Transition, the zone unchanged. The
// open and active resource counts follow: an open zone holds one of each, a closed one an
// active one.
func TestZoneStateMachine(t *testing.T) {
	const invalid = nvme.StatusInvalidZoneTransition
	type want struct {
		to nvme.ZoneState
		st nvme.Status
	}
	ok := func(s nvme.ZoneState) want { return want{s, nvme.StatusSuccess} }
	bad := want{0, invalid}
	table := map[uint8]map[nvme.ZoneState]want{
		nvme.ZoneActionClose:   {zse: bad, zsio: ok(zsc), zseo: ok(zsc), zsc: ok(zsc), zsf: bad, zsro: bad, zso: bad},
		nvme.ZoneActionFinish:  {zse: ok(zsf), zsio: ok(zsf), zseo: ok(zsf), zsc: ok(zsf), zsf: ok(zsf), zsro: bad, zso: bad},
		nvme.ZoneActionOpen:    {zse: ok(zseo), zsio: ok(zseo), zseo: ok(zseo), zsc: ok(zseo), zsf: bad, zsro: bad, zso: bad},
		nvme.ZoneActionReset:   {zse: ok(zse), zsio: ok(zse), zseo: ok(zse), zsc: ok(zse), zsf: ok(zse), zsro: bad, zso: bad},
		nvme.ZoneActionOffline: {zse: bad, zsio: bad, zseo: bad, zsc: bad, zsf: bad, zsro: ok(zso), zso: ok(zso)},
	}
	resources := func(s nvme.ZoneState) (open, active int) {
		switch s {
		case zsio, zseo:
			return 1, 1
		case zsc:
			return 0, 1
		}
		return 0, 0
	}
	for zsa, row := range table {
		for from, w := range row {
			tb := &zoneTable{zones: make([]zone, 1), zsze: 128, zcap: 100}
			tb.zones[0] = zone{state: from, wp: 7}
			switch from {
			case zsf:
				tb.zones[0].wp = 100
			case zse:
				tb.zones[0].wp = 0
			}
			tb.open, tb.active = resources(from)
			resets := 0
			st := tb.action(0, zsa, func(int64) { resets++ })
			require.Equal(t, w.st, st, "action %d from %v", zsa, from)
			got := tb.zones[0]
			if st != nvme.StatusSuccess {
				require.Equal(t, from, got.state, "action %d from %v: the zone must not change", zsa, from)
				continue
			}
			require.Equal(t, w.to, got.state, "action %d from %v", zsa, from)
			open, active := resources(w.to)
			require.Equal(t, open, tb.open, "open resources after action %d from %v", zsa, from)
			require.Equal(t, active, tb.active, "active resources after action %d from %v", zsa, from)
			switch {
			case w.to == zsf:
				require.Equal(t, int64(100), got.wp)
			case w.to == zse:
				require.Equal(t, int64(0), got.wp)
			}
			wantResets := 0
			if zsa == nvme.ZoneActionReset && from != zse {
				wantResets = 1
			}
			require.Equal(t, wantResets, resets, "reset of %v frees the zone once", from)
		}
	}
}

// zonedCtrl is the fake's controller with one zoned namespace of 4 KiB blocks: zones of
// 2 blocks (2 × 64 = 128 pages, size 128), 8 of them (4 MiB), at most 2 open and 3
// active.
func zonedCtrl() nvmectrl.Spec {
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	cs.Namespaces = []nvmectrl.Namespace{{Size: 8 * 128 * 4096, LBASize: 4096, Type: nvme.NSZoned,
		Zones: nvmectrl.ZoneSpec{Blocks: 2, MaxOpen: 2, MaxActive: 3}}}
	return cs
}

// zoneSend issues Zone Management Send: action zsa on the zone at slba (or all).
func (r *fake) zoneSend(p *sim.Proc, slba int64, zsa uint8, all bool) nvme.Status {
	r.mod = func(c *nvmectrl.Command) {
		c.SQE.SetOpcode(nvme.OpZoneMgmtSend)
		dw13 := uint32(zsa)
		if all {
			dw13 |= nvme.ZoneSelectAll
		}
		c.SQE.SetDW(12, 0)
		c.SQE.SetDW(13, dw13)
	}
	rq := r.cmd(p, nvme.OpZoneMgmtSend, slba, 1, nvme.Hint{}, nil)
	r.mod = nil
	return rq.status
}

// zoneReport issues Report Zones from slba with reporting option zras into a buffer of
// n bytes and decodes it.
func (r *fake) zoneReport(t *testing.T, p *sim.Proc, slba int64, zras uint8, partial bool, n int) (uint64, []nvme.ZoneDescriptor) {
	r.mod = func(c *nvmectrl.Command) {
		c.SQE.SetOpcode(nvme.OpZoneMgmtReceive)
		c.SQE.SetDW(12, uint32(n/4-1))
		dw13 := uint32(zras) << 8
		if partial {
			dw13 |= nvme.ZonePartialReport
		}
		c.SQE.SetDW(13, dw13)
		c.DataLen = n
	}
	var cmd *nvmectrl.Command
	r.host.onSubmit = func(c *nvmectrl.Command) { cmd = c }
	rq := r.cmd(p, nvme.OpZoneMgmtReceive, slba, 1, nvme.Hint{}, nil)
	r.mod, r.host.onSubmit = nil, nil
	require.Equal(t, nvme.StatusSuccess, rq.status)
	count, ds, err := nvme.ParseZoneReport(r.host.data[cmd][:n])
	require.NoError(t, err)
	return count, ds
}

// TestZonedNamespaceCommands drives the zoned namespace of zonedCtrl through the HIL, each
// expected status from the ZNS specification's rules:
//
//   - Writes at zone 0's write pointer succeed and advance it (0 → 4 → 8); a write at
//     LBA 4 again is Zone Invalid Write (not at the write pointer, 8).
//   - Zone Append of 3 blocks to zone 1 (ZSLBA 128) returns ALBA 128, the next 2 blocks
//     ALBA 131; an append naming LBA 129 (not a zone's start) is Invalid Field.
//   - A write of 121 blocks at zone 0's write pointer 8 would end at 129, past its
//     capacity (128): Zone Boundary Error; a read of LBAs 127–128 crosses into zone 1: Zone Boundary
//     Error (RAZB 0).
//   - Limits (2 open, 3 active): zones 0 and 1 are implicitly open; writing zone 2 closes
//     zone 0, the one opened first (ZSIO → ZSC), so 0 is Closed, 1 and 2 Implicitly Opened;
//     three zones are active, so writing zone 3 is Too Many Active Zones. Explicitly
//     opening zones 1 and 2 (both open already) is allowed; then a write to zone 0 needs an
//     open resource and no zone is implicitly opened to close: Too Many Open Zones.
//   - Finish of zone 2 makes it Full with its write pointer at 256 + 128; a write to it is
//     Zone Is Full.
//   - Report Zones of all zones from LBA 0 lists 8 zones: ZSC wp 8, ZSEO wp 133, ZSF wp 384,
//     then Empty; the Full option lists zone 2 alone; a buffer for 2 descriptors with
//     Partial Report has Number of Zones 2, without it 8.
//   - Zones set Read Only and Offline (as a drive does on media failure) refuse writes with
//     Zone Is Read Only and Zone Is Offline; Offline on the Read Only zone makes it Offline.
//   - Reset of zone 0 frees its blocks (2 erases) and lets LBA 0 be written again; the data
//     read back is the new write's, and zone 1's appended data reads back as written.
func TestZonedNamespaceCommands(t *testing.T) {
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), zonedCtrl())
	f := r.fw
	st := func(rq *req) nvme.Status { return rq.status }
	stamps := func(lba int64, n int, v uint64) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			out[i] = Stamp(lba+int64(i), v)
		}
		return out
	}
	var got []nvme.Status
	var alba []uint32
	var all, full []nvme.ZoneDescriptor
	var partialCount, wholeCount uint64
	var erasesBefore, erasesAfter int64
	read := make([]uint64, 4)
	read1 := make([]uint64, 5)
	r.eng.Spawn("host", func(p *sim.Proc) {
		w := func(lba int64, n int) nvme.Status {
			return st(r.cmd(p, nvme.OpWrite, lba, n, nvme.Hint{}, stamps(lba, n, 1)))
		}
		got = append(got, w(0, 4), w(4, 4), w(4, 4)) // ok, ok, invalid write
		a := r.cmd(p, nvme.OpZoneAppend, 128, 3, nvme.Hint{}, stamps(128, 3, 1))
		b := r.cmd(p, nvme.OpZoneAppend, 128, 2, nvme.Hint{}, stamps(131, 2, 1))
		c := r.cmd(p, nvme.OpZoneAppend, 129, 1, nvme.Hint{}, stamps(129, 1, 1))
		got = append(got, a.status, b.status, c.status)
		alba = append(alba, a.dw0, b.dw0)
		got = append(got, w(8, 121)) // 8 + 121 = 129 > 128
		got = append(got, st(r.cmd(p, nvme.OpRead, 127, 2, nvme.Hint{}, make([]uint64, 2))))
		got = append(got, w(256, 1))                                      // zone 2: closes zone 0
		got = append(got, w(384, 1))                                      // zone 3: too many active
		got = append(got, r.zoneSend(p, 128, nvme.ZoneActionOpen, false)) // ZSIO → ZSEO
		got = append(got, r.zoneSend(p, 256, nvme.ZoneActionOpen, false))
		got = append(got, w(8, 1))                                          // zone 0 closed: needs an open resource
		got = append(got, r.zoneSend(p, 256, nvme.ZoneActionFinish, false)) // zone 2 → ZSF
		got = append(got, w(257, 1))                                        // Zone Is Full
		wholeCount, all = r.zoneReport(t, p, 0, nvme.ZoneReportAll, false, 64+8*64)
		_, full = r.zoneReport(t, p, 0, 5, false, 64+8*64)
		partialCount, _ = r.zoneReport(t, p, 0, nvme.ZoneReportAll, true, 64+2*64)
		wc, _ := r.zoneReport(t, p, 0, nvme.ZoneReportAll, false, 64+2*64)
		require.Equal(t, uint64(8), wc)
		zt := f.ns[0].zns
		zt.zones[6].state, zt.zones[7].state = zsro, zso
		got = append(got, w(6*128, 1), w(7*128, 1))
		got = append(got, r.zoneSend(p, 6*128, nvme.ZoneActionOffline, false))
		got = append(got, r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil).status)
		erasesBefore = f.ftl.Stats.Erases
		got = append(got, r.zoneSend(p, 0, nvme.ZoneActionReset, false))
		got = append(got, w(0, 4))
		r.cmd(p, nvme.OpRead, 0, 4, nvme.Hint{}, read)
		r.cmd(p, nvme.OpRead, 128, 5, nvme.Hint{}, read1)
		p.Sleep(10 * sim.Millisecond)
		erasesAfter = f.ftl.Stats.Erases
	})
	r.eng.Run()
	S := nvme.StatusSuccess
	require.Equal(t, []nvme.Status{
		S, S, nvme.StatusZoneInvalidWrite,
		S, S, nvme.StatusInvalidField,
		nvme.StatusZoneBoundaryError, nvme.StatusZoneBoundaryError,
		S, nvme.StatusTooManyActiveZones,
		S, S, nvme.StatusTooManyOpenZones,
		S, nvme.StatusZoneIsFull,
		nvme.StatusZoneIsReadOnly, nvme.StatusZoneIsOffline, S,
		S, S, S,
	}, got)
	require.Equal(t, []uint32{128, 131}, alba)
	require.Equal(t, uint64(8), wholeCount)
	require.Len(t, all, 8)
	require.Equal(t, nvme.ZoneDescriptor{State: zsc, Cap: 128, Start: 0, WP: 8}, all[0])
	require.Equal(t, nvme.ZoneDescriptor{State: zseo, Cap: 128, Start: 128, WP: 133}, all[1])
	require.Equal(t, nvme.ZoneDescriptor{State: zsf, Cap: 128, Start: 256, WP: 384}, all[2])
	require.Equal(t, nvme.ZoneDescriptor{State: zse, Cap: 128, Start: 384, WP: 384}, all[3])
	require.Equal(t, []nvme.ZoneDescriptor{all[2]}, full)
	require.Equal(t, uint64(2), partialCount)
	require.Equal(t, stamps(0, 4, 1), read)
	require.Equal(t, stamps(128, 5, 1), read1)
	require.Equal(t, int64(2), erasesAfter-erasesBefore, "zone 0's two blocks erased by its reset")
	zs, ok := f.ZoneInfo(1)
	require.True(t, ok)
	require.Equal(t, zso, zs[6].State)
	require.Equal(t, zsio, zs[0].State)
	require.Equal(t, uint64(4), zs[0].WP)
	require.NoError(t, f.ftl.Check())
	require.Equal(t, int64(0), f.ftl.Stats.GCWrites, "a zoned namespace needs no GC")
}
