package nvmectrl

import (
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fdpFW is a fake firmware that keeps Flexible Data Placement.
type fdpFW struct {
	*fakeFW
	info FDPInfo
}

func (f fdpFW) FDPInfo() FDPInfo { return f.info }

// TestFDPLogPages reads the four FDP log pages through Get Log Page (log specific
// identifier, CDW11 bits 31:16, endurance group 1) and checks their bytes against the
// layouts of the NVMe Base Specification 2.1 (Figures "FDP Configurations Log Page", "Reclaim
// Unit Handle Usage", "FDP Statistics", "FDP Events"; libnvme's nvme_fdp_* structures).
// The firmware reports 3 handles (persistently isolated), handle 2 unused, a reclaim unit
// of 64 MiB, a volatile cache, HBMW 4 096·10, MBMW 4 096·13, MBE 4 096·512, one host event
// (Invalid Placement Identifier, PID 7, NSID 2, RUH 0, at 2.5 ms) and two controller events
// (Media Reallocated, no PID, no NSID, RUH 1, NLBAM 8 from LBA 40; Implicitly Modified
// RUH, RUH 2).
//
// Configurations (20h): a 16-byte header (NUMFDPC 0: one configuration, 0's based; SIZE at
// byte 4 = 16 + 64 + 3·4 = 92) and one descriptor: DSZE 76, FDPA 80h (valid) | 10h
// (FDPVWC) = 90h, NRG 1, NRUH 3, MAXPIDS 2 (0's based), NNSS 16, RUNS 2²⁶, then RUHT 02h
// three times at bytes 64, 68, 72 of the descriptor.
// Usage (21h): NRUH 3 at byte 0, then 8-byte descriptors from byte 8: RUHA 01h (host
// specified), 01h, 00h (unused).
// Statistics (22h): HBMW at 0, MBMW at 16, MBE at 32 (16-byte counters, high halves 0).
// Events (23h, LSP 0 host, 1 controller): NEVENTS at byte 0, events of 64 bytes from byte
// 64: type, flags (bit 0 PIV, bit 1 NSIDV), PID at 2, 48-bit timestamp in ms at 4 (2 ms:
// 2.5 ms truncated), NSID at 12, RUHID at 34; Media Reallocated's Event Type Specific
// information at 16–31 (libnvme struct nvme_fdp_event_realloc): flags 01h (LBA valid),
// NLBAM at 18, LBA at 20. Another event type leaves bytes 16–31 zero.
// Another endurance group (LSI 2) is Invalid Field; a controller without FDP answers 20h
// with Invalid Log Page.
func TestFDPLogPages(t *testing.T) {
	spec := testSpec()
	spec.HintCarrier = HintCDW2
	spec.FDP = FDP{Enabled: true, Handles: 3, Isolation: PersistentlyIsolated}
	r := newRig(t, spec, ArbRoundRobin)
	info := FDPInfo{RUSize: 64 << 20, VolatileCache: true,
		Types: []Isolation{PersistentlyIsolated, PersistentlyIsolated, PersistentlyIsolated},
		Used:  []bool{true, true, false}, HostBytes: 4096 * 10, MediaBytes: 4096 * 13, ErasedBytes: 4096 * 512,
		HostEvents: []FDPEvent{{Type: EventInvalidPlacementID, PID: 7, NSID: 2, RUHID: 0, At: 2500 * sim.Microsecond}},
		CtrlEvents: []FDPEvent{{Type: EventMediaReallocated, PID: NoPlacementID, RUHID: 1, NLBAM: 8, LBA: 40},
			{Type: EventImplicitlyModifiedRUH, PID: NoPlacementID, RUHID: 2}}}
	r.c.SetFirmware(fdpFW{r.fw, info})
	bufs := make([]uint64, 7)
	for i := range bufs {
		bufs[i] = r.mem.Alloc(8192)
	}
	logPage := func(cid uint16, lid, lsp uint8, lsi uint32) SQE {
		// NUMDL 1023: 4 KiB, the whole of every FDP page here.
		return adminSQE(AdminGetLogPage, cid, bufs[cid], 1023<<16|uint32(lsp)<<8|uint32(lid), lsi<<16)
	}
	done := r.runAdmin(t, []SQE{logPage(0, LogFDPConfigs, 0, 1), logPage(1, LogRUHUsage, 0, 1),
		logPage(2, LogFDPStats, 0, 1), logPage(3, LogFDPEvents, 0, 1), logPage(4, LogFDPEvents, 1, 1),
		logPage(5, LogFDPStats, 0, 2)})
	want := []Status{StatusSuccess, StatusSuccess, StatusSuccess, StatusSuccess, StatusSuccess, StatusInvalidField}
	for cid, cqe := range done {
		require.Equal(t, want[cid], cqe.Status(), "cid %d", cid)
	}
	read := func(i int) []byte {
		b := make([]byte, 4096)
		r.mem.Read(bufs[i], b)
		return b
	}
	le := binary.LittleEndian

	c := read(0)
	require.Equal(t, uint16(0), le.Uint16(c[0:]), "NUMFDPC")
	require.Equal(t, uint32(92), le.Uint32(c[4:]), "SIZE")
	d := c[16:]
	require.Equal(t, uint16(76), le.Uint16(d[0:]), "DSZE")
	require.Equal(t, byte(0x90), d[2], "FDPA")
	require.Equal(t, uint32(1), le.Uint32(d[4:]), "NRG")
	require.Equal(t, uint16(3), le.Uint16(d[8:]), "NRUH")
	require.Equal(t, uint16(2), le.Uint16(d[10:]), "MAXPIDS")
	require.Equal(t, uint32(16), le.Uint32(d[12:]), "NNSS")
	require.Equal(t, uint64(1<<26), le.Uint64(d[16:]), "RUNS")
	require.Equal(t, []byte{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0}, d[64:77])

	u := read(1)
	require.Equal(t, uint16(3), le.Uint16(u[0:]))
	require.Equal(t, []byte{1, 1, 0}, []byte{u[8], u[16], u[24]})

	s := read(2)
	require.Equal(t, uint64(40960), le.Uint64(s[0:]))
	require.Equal(t, uint64(53248), le.Uint64(s[16:]))
	require.Equal(t, uint64(2097152), le.Uint64(s[32:]))
	require.Zero(t, le.Uint64(s[8:])|le.Uint64(s[24:])|le.Uint64(s[40:]))

	h := read(3)
	require.Equal(t, uint32(1), le.Uint32(h[0:]))
	e := h[64:]
	require.Equal(t, []byte{0x03, 0x03}, e[0:2], "type 03h, PIV and NSIDV")
	require.Equal(t, uint16(7), le.Uint16(e[2:]))
	require.Equal(t, uint64(2), le.Uint64(e[4:])&(1<<48-1), "timestamp, ms")
	require.Equal(t, uint32(2), le.Uint32(e[12:]))
	require.Equal(t, byte(0), e[34])
	require.Equal(t, make([]byte, 64), h[128:192], "no second event")

	k := read(4)
	require.Equal(t, uint32(2), le.Uint32(k[0:]))
	require.Equal(t, []byte{0x80, 0x00}, k[64:66], "type 80h, no PID, no NSID")
	require.Equal(t, byte(1), k[64+34])
	require.Equal(t, []byte{0x01, 0, 8, 0, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, k[64+16:64+32],
		"LBAV, NLBAM 8, LBA 40")
	require.Equal(t, []byte{0x81, 0x00}, k[128:130])
	require.Equal(t, make([]byte, 16), k[128+16:128+32], "81h has no type specific information")

	bare := newRig(t, testSpec(), ArbRoundRobin)
	got := bare.runAdmin(t, []SQE{adminSQE(AdminGetLogPage, 0, bare.mem.Alloc(4096), 1023<<16|uint32(LogFDPConfigs), 1<<16)})
	cqe := got[0]
	require.Equal(t, StatusInvalidLogPage, cqe.Status())
}

// TestRUHStatusLayout: the Reclaim Unit Handle Status (I/O Management Receive MO 01h;
// libnvme struct nvme_fdp_ruh_status) puts the descriptor count in bytes 14–15 and each
// 32-byte descriptor's PID at 0, RUHID at 2 and RUAMW at 8; a truncated buffer parses the
// descriptors it holds whole.
func TestRUHStatusLayout(t *testing.T) {
	ds := []RUHStatus{{PID: 0, RUHID: 3, RUAMW: 1000}, {PID: 1, RUHID: 5, RUAMW: 7}}
	b := MarshalRUHStatus(ds)
	require.Len(t, b, 16+2*32)
	require.Equal(t, uint16(2), binary.LittleEndian.Uint16(b[14:]))
	require.Equal(t, uint16(5), binary.LittleEndian.Uint16(b[48+2:]))
	require.Equal(t, uint64(7), binary.LittleEndian.Uint64(b[48+8:]))
	require.Equal(t, ds, ParseRUHStatus(b))
	require.Equal(t, ds[:1], ParseRUHStatus(b[:60]))
	require.Nil(t, ParseRUHStatus(b[:10]))
}

// TestFDPReclaimGroupsConfig: three reclaim groups need RGIF 2 bits (2² ≥ 3 > 2¹), so a
// placement identifier is RGID << 14 | PHNDL: group 2's placement handle 1 is 8001h, and
// 8001h splits back into (2, 1); group 0's handle 1 is 0001h. The configuration
// descriptor carries FDPA 80h | RGIF 2 = 82h (no volatile cache here), NRG 3 and ERUTL 5
// (seconds, from ru_time_limit 5s); an event's RGID is at bytes 32–33. Validation names
// the fields: 65 groups (more than 64) and a limit of 1.5 s (ERUTL is whole seconds).
func TestFDPReclaimGroupsConfig(t *testing.T) {
	f := FDP{Enabled: true, Handles: 2, ReclaimGroups: 3, RUTimeLimit: 5 * sim.Second}
	require.Equal(t, 2, f.RGIF())
	require.Equal(t, uint16(0x8001), f.PID(2, 1))
	require.Equal(t, uint16(0x0001), f.PID(0, 1))
	rg, ph := f.SplitPID(0x8001)
	require.Equal(t, [2]int{2, 1}, [2]int{rg, ph})
	require.Equal(t, 0, FDP{Enabled: true}.RGIF(), "one group: the PID is the placement handle")
	require.Equal(t, uint16(5), FDP{}.PID(0, 5))

	spec := testSpec()
	spec.HintCarrier = HintCDW2
	spec.FDP = f
	r := newRig(t, spec, ArbRoundRobin)
	info := FDPInfo{RUSize: 1 << 20, Types: []Isolation{InitiallyIsolated, InitiallyIsolated}, Used: []bool{true, true},
		HostEvents: []FDPEvent{{Type: EventRUTimeLimitExceeded, PID: NoPlacementID, RUHID: 1, RGID: 2}}}
	r.c.SetFirmware(fdpFW{r.fw, info})
	bufs := []uint64{r.mem.Alloc(8192), r.mem.Alloc(8192)}
	done := r.runAdmin(t, []SQE{adminSQE(AdminGetLogPage, 0, bufs[0], 1023<<16|uint32(LogFDPConfigs), 1<<16),
		adminSQE(AdminGetLogPage, 1, bufs[1], 1023<<16|uint32(LogFDPEvents), 1<<16)})
	for cid, cqe := range done {
		require.Equal(t, StatusSuccess, cqe.Status(), "cid %d", cid)
	}
	le := binary.LittleEndian
	c := make([]byte, 4096)
	r.mem.Read(bufs[0], c)
	d := c[16:]
	require.Equal(t, byte(0x82), d[2], "FDPA: valid, RGIF 2")
	require.Equal(t, uint32(3), le.Uint32(d[4:]), "NRG")
	require.Equal(t, uint32(5), le.Uint32(d[24:]), "ERUTL, s")
	e := make([]byte, 4096)
	r.mem.Read(bufs[1], e)
	require.Equal(t, byte(EventRUTimeLimitExceeded), e[64])
	require.Equal(t, uint16(2), le.Uint16(e[64+32:]), "RGID")
	require.Equal(t, byte(1), e[64+34], "RUHID")

	bad := testSpec()
	bad.HintCarrier = HintCDW2
	bad.FDP = FDP{Enabled: true, ReclaimGroups: 65, RUTimeLimit: 1500 * sim.Millisecond}
	errs := bad.validateFDP()
	require.Len(t, errs, 2)
	require.ErrorContains(t, errs[0], "nvme.fdp.reclaim_groups: 65 is not in 1..64")
	require.ErrorContains(t, errs[1], "nvme.fdp.ru_time_limit")
	require.ErrorContains(t, errs[1], "whole number of seconds")
}
