package nvmectrl

import (
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// nsFW is a fakeFW that keeps a namespace table.
type nsFW struct {
	*fakeFW
	info map[uint32]NamespaceInfo
}

func (f nsFW) NamespaceInfo(nsid uint32) (NamespaceInfo, bool) {
	i, ok := f.info[nsid]
	return i, ok
}

// threeNS is a spec with three namespaces: 512-byte blocks, 4 KiB blocks, and a zoned one
// of 4 KiB blocks limited to 4 open and 6 active zones.
func threeNS() Spec {
	s := testSpec()
	s.Namespaces = []Namespace{{Size: 1 << 30, LBASize: 512}, {Size: 1 << 30, LBASize: 4096},
		{LBASize: 4096, Type: NSZoned, Zones: ZoneSpec{MaxOpen: 4, MaxActive: 6}}}
	return s
}

// TestIdentifyNamespaces: with three namespaces, Identify Controller's NN (bytes 516–519)
// is 3, the Active Namespace ID list after NSID 1 holds 2 and 3 then zeroes, and Identify
// Namespace of NSID 1 carries the firmware's size in NSZE and NCAP (bytes 0–7, 8–15) and its
// use in NUSE (16–23), NLBAF 1 (two formats, 0's based) at byte 25, FLBAS 0 (512-byte
// blocks) at 26, ENDGID 1 at 102, and the LBA format table from byte 128: format 0's LBADS
// (bits 23:16 of its dword, byte 130) is 9 (2^9 = 512) and format 1's (byte 134) 12 (4096).
// NSID 2's FLBAS is 1. The zoned namespace's command set structure (CNS 05h) has MAR 5 and
// MOR 3 (0's based: 6 active, 4 open) at bytes 4 and 8, and ZSZE of format 1 at
// 2816 + 16 = 2832. NSID 4 is inactive.
func TestIdentifyNamespaces(t *testing.T) {
	r := newRig(t, threeNS(), ArbRoundRobin)
	r.c.SetFirmware(nsFW{r.fw, map[uint32]NamespaceInfo{
		1: {Blocks: 2097152, Used: 1000, LBASize: 512},
		2: {Blocks: 262144, LBASize: 4096},
		3: {Blocks: 65536, LBASize: 4096, Type: NSZoned, ZoneBlocks: 2048, ZoneCap: 2048, Zones: 32, MaxOpen: 4, MaxActive: 6},
	}})
	id := r.c.IdentifyController()
	require.Equal(t, uint32(3), binary.LittleEndian.Uint32(id[516:]))
	list := r.c.activeNamespaces(1)
	require.Equal(t, uint32(2), binary.LittleEndian.Uint32(list[0:]))
	require.Equal(t, uint32(3), binary.LittleEndian.Uint32(list[4:]))
	require.Zero(t, binary.LittleEndian.Uint32(list[8:]))

	ns1, ok := r.c.IdentifyNamespace(1)
	require.True(t, ok)
	require.Equal(t, uint64(2097152), binary.LittleEndian.Uint64(ns1[0:]))
	require.Equal(t, uint64(2097152), binary.LittleEndian.Uint64(ns1[8:]))
	require.Equal(t, uint64(1000), binary.LittleEndian.Uint64(ns1[16:]))
	require.Equal(t, byte(1), ns1[25])
	require.Equal(t, byte(0), ns1[26])
	require.Equal(t, uint16(1), binary.LittleEndian.Uint16(ns1[102:]))
	require.Equal(t, byte(9), ns1[130])
	require.Equal(t, byte(12), ns1[134])
	size, err := ParseLBAFormat(ns1[:])
	require.NoError(t, err)
	require.Equal(t, 512, size)

	ns2, ok := r.c.IdentifyNamespace(2)
	require.True(t, ok)
	require.Equal(t, byte(1), ns2[26])
	size, err = ParseLBAFormat(ns2[:])
	require.NoError(t, err)
	require.Equal(t, 4096, size)

	z, ok := r.c.IdentifyZonedNamespace(3)
	require.True(t, ok)
	require.Equal(t, uint32(5), binary.LittleEndian.Uint32(z[4:]))
	require.Equal(t, uint32(3), binary.LittleEndian.Uint32(z[8:]))
	require.Equal(t, uint64(2048), binary.LittleEndian.Uint64(z[2832:]))
	_, ok = r.c.IdentifyZonedNamespace(2)
	require.False(t, ok, "NSID 2 is not zoned")
	_, ok = r.c.IdentifyNamespace(4)
	require.False(t, ok)
}

// TestNamespaceDataLength: a Write of 8 blocks is 8 × 512 = 4096 bytes on NSID 1 and
// 8 × 4096 = 32768 on NSID 2 (the firmware sees DataLen); NSID 0 and NSID 4 are failed by
// the controller with Invalid Namespace or Format (SCT 0, SC 0Bh) and Do Not Retry, never
// reaching the firmware.
func TestNamespaceDataLength(t *testing.T) {
	r := newRig(t, threeNS(), ArbRoundRobin)
	r.addPair(t, 1, 16, 16, PrioMedium, 1)
	var lens []int
	r.fw.onSubmit = func(now sim.Time, cmd *Command) {
		lens = append(lens, cmd.DataLen)
		r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None)
	}
	for i, nsid := range []uint32{1, 2, 0, 4} {
		e := r.rw(t, OpWrite, uint16(i), 8)
		if nsid == 2 { // 32 KiB of buffer for 4 KiB blocks
			buf := r.mem.Alloc(8 * 4096)
			lists := []uint64{r.mem.Alloc(PageSize)}
			prp1, prp2, _, err := BuildPRP(r.mem, buf, 8*4096, lists)
			require.NoError(t, err)
			e.SetPRP1(prp1)
			e.SetPRP2(prp2)
		}
		e.SetNSID(nsid)
		r.host.push(1, &e)
	}
	r.at(0, func() { r.host.ring(0, 1) })
	r.eng.Run()
	require.Equal(t, []int{4096, 32768}, lens)
	require.Len(t, r.host.seen, 4)
	for _, s := range r.host.seen {
		st := s.cqe.Status()
		switch s.cqe.CID() {
		case 0, 1:
			require.True(t, st.OK())
		default:
			require.Equal(t, StatusInvalidNamespace, st&0x7FF, "CID %d", s.cqe.CID())
			require.True(t, st.DNR())
		}
	}
}

// TestNamespaceValidate: every problem of the namespace list and the FDP section is named.
func TestNamespaceValidate(t *testing.T) {
	s := DefaultSpec()
	s.Namespaces = []Namespace{
		{LBASize: 1024},
		{Size: 5000},
		{Type: NSConventional, Zones: ZoneSpec{MaxOpen: 2}},
		{Type: NSZoned, Zones: ZoneSpec{MaxOpen: 8, MaxActive: 4}},
		{PlacementHandles: []int{1}},
	}
	err := s.Validate()
	require.Error(t, err)
	for _, want := range []string{
		"nvme.namespaces[0].lba_size: 1024 is not one of the LBA formats 512, 4096",
		"nvme.namespaces[1].size: 5000 is not a multiple of 4096 bytes",
		"nvme.namespaces[2].zones: set on a conventional namespace",
		"nvme.namespaces[3].zones.max_open: 8 exceeds max_active 4",
		"nvme.namespaces[4].placement_handles: set without nvme.fdp.enabled",
	} {
		require.Contains(t, err.Error(), want)
	}
	s = DefaultSpec()
	s.FDP = FDP{Enabled: true, Handles: 200}
	err = s.Validate()
	require.ErrorContains(t, err, "nvme.fdp.handles: 200 is not in 1..16")
	require.ErrorContains(t, err, "nvme.hint_carrier: cdw13 carries FastDrain's hint page count in DSPEC")
	s.FDP.Handles, s.HintCarrier = 4, HintCDW2
	require.NoError(t, s.Validate())
}
