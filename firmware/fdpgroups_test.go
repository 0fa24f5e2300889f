package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFDPSizedReclaimGroupsFirmware: the fake's 4 dies in reclaim groups of 1 and 3 dies
// (reclaim_group_dies [1, 3]). The channel-first interleaved order is dies 0, 2, 1, 3, so
// group 0 is die 0 and group 1 dies 2, 1, 3; a reclaim unit is a block on each of the
// group's planes: 2 × 64 = 128 pages in group 0, 6 × 64 = 384 in group 1, and the
// configuration's nominal size (RUNS) is the larger, 384 × 4 KiB. Eight pages through PID
// 8001h (group 1's handle 1) land on dies 1–3, eight through 0000h on die 0; the Reclaim
// Unit Handle Status gives RUAMW 128 − 8, 128, 384, 384 − 8 for PIDs 0, 1, 8000h, 8001h,
// each from its own group's size, and updating 8001h logs Reclaim Unit Not Fully Written
// (8 of 384 pages). Sizes that do not add up to the dies are refused, naming the key.
func TestFDPSizedReclaimGroupsFirmware(t *testing.T) {
	cs := fdpCtrl(2, nvme.InitiallyIsolated)
	cs.FDP.ReclaimGroupDies = []int{1, 3}
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), cs)
	f := r.fw
	var status []nvme.RUHStatus
	r.eng.Spawn("host", func(p *sim.Proc) {
		writeTwoHandles(r, p)
		status = r.ruhStatusN(p, 4)
		r.ruhUpdate(p, 0x8001)
	})
	r.eng.Run()
	g := f.ftl.Geometry()
	for i := int64(0); i < 8; i++ {
		require.Contains(t, []int{1, 2, 3}, g.Addr(ftl.PPN(f.ftl.Lookup(i))).Die, "lpn %d (group 1)", i)
		require.Equal(t, 0, g.Addr(ftl.PPN(f.ftl.Lookup(100+i))).Die, "lpn %d (group 0)", 100+i)
	}
	require.NoError(t, f.ftl.Check())
	require.Equal(t, []nvme.RUHStatus{{PID: 0, RUHID: 0, RUAMW: 128 - 8}, {PID: 1, RUHID: 1, RUAMW: 128},
		{PID: 0x8000, RUHID: 0, RUAMW: 384}, {PID: 0x8001, RUHID: 1, RUAMW: 384 - 8}}, status)
	info := f.FDPInfo()
	require.Equal(t, uint64(384*4096), info.RUSize, "RUNS: the largest group's")
	require.Len(t, info.HostEvents, 1)
	require.Equal(t, nvme.EventRUNotFullyWritten, info.HostEvents[0].Type)
	require.Equal(t, uint16(1), info.HostEvents[0].RGID)

	bad := fdpCtrl(2, nvme.InitiallyIsolated)
	bad.FDP.ReclaimGroupDies = []int{1, 2}
	eng := sim.NewEngine()
	h := &fakeHost{spec: bad, eng: eng, data: map[*nvmectrl.Command][]byte{}, reqs: map[*nvmectrl.Command]*req{}}
	_, err := New("ssd.fw", smallSpec(Vanilla, "sequential"), eng, Ports{Flash: newFakeFlash(eng, smallDie()), Memory: &fakeMemory{}, Host: h})
	require.ErrorContains(t, err, "nvme.fdp.reclaim_group_dies: [1 2] gives 3 dies; the drive has 4")
}
