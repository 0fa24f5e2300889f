package hwadapter

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHostCmdDecode: a Write SQE built field by field decodes into the firmware's command
// with each field read from its place in the entry (NVM Command Set Specification 1.0
// §3.2.6: SLBA in CDW11:CDW10, NLB 0's based in CDW12 bits 15:0, FUA CDW12 bit 30, DTYPE
// CDW12 bits 23:20 with DSPEC CDW13 bits 31:16), and the controller's command comes back by
// slot with the data length the firmware set.
func TestHostCmdDecode(t *testing.T) {
	h := NewHostCmds(4)
	c := &nvmectrl.Command{SQID: 3, Slot: 2, DataLen: 8 * 4096, Flow: 77,
		Hint: nvme.Hint{Victim: true, Pages: 12}}
	c.SQE.SetRW(nvmectrl.OpWrite, 9, 2, 0x1000, 0, 0x1_0000_1234, 8)
	c.SQE.SetFUA(true)
	c.SQE.SetPlacementID(3)
	c.SQE.SetDW(15, 0xCAFE)
	got := h.Decode(c)
	// CDW10/11 are SLBA's low and high halves; CDW12 = NLB 7 | DTYPE 2h<<20 | FUA 1<<30;
	// CDW13 = DSPEC 3<<16.
	want := hal.HostCmd{Slot: 2, Op: nvme.OpWrite, NSID: 2, SLBA: 0x1_0000_1234, Blocks: 8, FUA: true,
		PID: 3, HasPID: true, CDW: [6]uint32{0x1234, 0x1, 7 | 2<<20 | 1<<30, 3 << 16, 0, 0xCAFE},
		Hint: nvme.Hint{Victim: true, Pages: 12}, DataLen: 8 * 4096, Flow: 77}
	require.Equal(t, want, *got)
	require.Equal(t, uint32(0xCAFE), got.DW(15))

	got.DataLen = 512
	require.Same(t, c, h.Command(got))
	require.Equal(t, 512, c.DataLen)

	admin := &nvmectrl.Command{SQID: 0, Slot: 0}
	admin.SQE.SetOpcode(nvmectrl.AdminIdentify)
	a := h.Decode(admin)
	require.True(t, a.Admin)
	require.False(t, a.HasPID)
	require.Equal(t, 1, a.Blocks, "NLB 0 is one block")
}

// TestHostCmdDecodeAllocates: decoding reuses the slot's HostCmd (no allocation per
// command).
func TestHostCmdDecodeAllocates(t *testing.T) {
	h := NewHostCmds(2)
	c := &nvmectrl.Command{SQID: 1, Slot: 1}
	c.SQE.SetRW(nvmectrl.OpRead, 1, 1, 0, 0, 100, 1)
	require.Zero(t, testing.AllocsPerRun(100, func() { h.Command(h.Decode(c)) }))
}

// countFW counts the commands it is handed and keeps the last.
type countFW struct {
	n    int
	last *hal.HostCmd
}

func (f *countFW) Submit(_ sim.Time, cmd *hal.HostCmd) { f.n, f.last = f.n+1, cmd }

// TestHostSubmit: a command the controller hands over reaches the firmware as its slot's
// HostCmd, decoded (a Read, opcode 02h, of 8 blocks from LBA 100 of namespace 1: CDW10 the
// SLBA, CDW12 NLB 7), and handing one over allocates nothing.
func TestHostSubmit(t *testing.T) {
	eng := sim.NewEngine()
	defer eng.Close()
	cs := nvmectrl.DefaultSpec()
	cs.MaxCommands = 4
	h := NewHost(nvmectrl.New("ssd.nvme", cs, eng, pcie.NewLink("ssd.pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory()))
	fw := &countFW{}
	h.SetFirmware(fw)
	c := &nvmectrl.Command{SQID: 1, Slot: 3, DataLen: 8 * 512}
	c.SQE.SetRW(nvmectrl.OpRead, 1, 1, 0, 0, 100, 8)
	h.Submit(0, c)
	require.Same(t, &h.cmds.cmds[3], fw.last)
	require.Equal(t, hal.HostCmd{Slot: 3, Op: nvme.OpRead, NSID: 1, SLBA: 100, Blocks: 8, CDW: [6]uint32{100, 0, 7, 0, 0, 0}, DataLen: 8 * 512}, *fw.last)
	require.Same(t, c, h.cmds.Command(fw.last))
	require.Zero(t, testing.AllocsPerRun(100, func() { h.Submit(0, c) }))
}
