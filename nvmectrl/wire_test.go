package nvmectrl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSQEWriteLayout encodes a Write by field and compares with bytes laid out by hand from
// docs/sources.md §1.1–1.2.
func TestSQEWriteLayout(t *testing.T) {
	var e SQE
	e.SetRW(OpWrite, 0x1234, 1, 0x123000, 0x456000, 0x1_0000_0010, 8)
	e.SetDTYPE(1) // Streams: CDW12 bit 20 (Linux NVME_RW_DTYPE_STREAMS = 1<<4 of control)
	e.SetFUA(true)
	e.SetDSM(0x83)
	e.SetCDW13Reserved(0x01)
	e.SetDSPEC(0x0200)

	want := SQE{
		0x01, 0x00, 0x34, 0x12, // CDW0: OPC 01h, FUSE 0, PSDT 0, CID 1234h
		0x01, 0x00, 0x00, 0x00, // NSID 1
		0, 0, 0, 0, 0, 0, 0, 0, // CDW2-3 reserved
		0, 0, 0, 0, 0, 0, 0, 0, // MPTR
		0x00, 0x30, 0x12, 0, 0, 0, 0, 0, // PRP1 0x123000
		0x00, 0x60, 0x45, 0, 0, 0, 0, 0, // PRP2 0x456000
		0x10, 0, 0, 0, 0x01, 0, 0, 0, // SLBA 0x1_0000_0010
		0x07, 0x00, 0x10, 0x40, // CDW12 = NLB 7 | DTYPE 1<<20 | FUA 1<<30 = 0x40100007
		0x83, 0x01, 0x00, 0x02, // CDW13 = DSM 83h | 01h<<8 | DSPEC 0200h<<16
		0, 0, 0, 0, 0, 0, 0, 0, // CDW14-15
	}
	require.Equal(t, want, e)

	// Decoding the hand-made bytes gives the fields back.
	require.Equal(t, OpWrite, want.Opcode())
	require.Equal(t, uint16(0x1234), want.CID())
	require.Equal(t, uint32(1), want.NSID())
	require.Equal(t, uint64(0x123000), want.PRP1())
	require.Equal(t, uint64(0x456000), want.PRP2())
	require.Equal(t, uint64(0x1_0000_0010), want.SLBA())
	require.Equal(t, uint16(7), want.NLB())
	require.Equal(t, 8, want.Blocks())
	require.Equal(t, uint8(1), want.DTYPE())
	require.True(t, want.FUA())
	require.False(t, want.LR())
	require.Equal(t, uint8(0x83), want.DSM())
	require.Equal(t, uint8(0x01), want.CDW13Reserved())
	require.Equal(t, uint16(0x0200), want.DSPEC())
}

// TestSQEBitFields checks the bit fields that share bytes, against hand-computed bytes.
func TestSQEBitFields(t *testing.T) {
	cases := []struct {
		name string
		set  func(e *SQE)
		idx  int
		want byte
	}{
		// CDW0 byte 1 holds FUSE [9:8] in bits 1:0 and PSDT [15:14] in bits 7:6.
		{"fuse second", func(e *SQE) { e.SetFuse(2) }, 1, 0x02},
		{"psdt sgl", func(e *SQE) { e.SetPSDT(1) }, 1, 0x40},
		{"fuse+psdt", func(e *SQE) { e.SetFuse(1); e.SetPSDT(2) }, 1, 0x81},
		// CDW12 byte 3 (offset 51) holds bits 31:24: LR 31 → 0x80, FUA 30 → 0x40, PRINFO 29:26 → bits 5:2.
		{"lr", func(e *SQE) { e.SetLR(true) }, 51, 0x80},
		{"prinfo f", func(e *SQE) { e.SetPRINFO(0xF) }, 51, 0x3C},
		{"prinfo+fua+lr", func(e *SQE) { e.SetPRINFO(0x8); e.SetFUA(true); e.SetLR(true) }, 51, 0xE0},
		// CDW12 byte 2 (offset 50) bits 23:20 are DTYPE → high nibble.
		{"dtype f", func(e *SQE) { e.SetDTYPE(0xF) }, 50, 0xF0},
		{"opcode", func(e *SQE) { e.SetOpcode(OpDatasetManagement) }, 0, 0x09},
		{"mptr low", func(e *SQE) { e.SetMPTR(0xAB) }, 16, 0xAB},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e SQE
			c.set(&e)
			for i := range e {
				if i == c.idx {
					require.Equal(t, c.want, e[i], "byte %d", i)
				} else {
					require.Zero(t, e[i], "byte %d", i)
				}
			}
		})
	}
	var e SQE
	e.SetFuse(3)
	e.SetFuse(0) // clearing one field leaves its neighbours alone
	e.SetPSDT(3)
	require.Equal(t, uint8(0), e.Fuse())
	require.Equal(t, uint8(3), e.PSDT())
	require.Panics(t, func() { e.SetBlocks(0) })
	require.Panics(t, func() { e.SetBlocks(65537) })
	e.SetBlocks(65536)
	require.Equal(t, uint16(0xFFFF), e.NLB())
}

// TestCQELayout compares field encoding with bytes laid out by hand from docs/sources.md §1.3.
func TestCQELayout(t *testing.T) {
	var c CQE
	c.SetDW0(0xAABBCCDD)
	c.SetSQHD(5)
	c.SetSQID(3)
	c.SetCID(0x1234)
	c.SetPhase(1)
	c.SetStatus(StatusInvalidField.WithDNR())
	// DW3 = CID 1234h | P<<16 | SC 02h<<17 | DNR<<31 = 0x80051234.
	want := CQE{0xDD, 0xCC, 0xBB, 0xAA, 0, 0, 0, 0, 0x05, 0x00, 0x03, 0x00, 0x34, 0x12, 0x05, 0x80}
	require.Equal(t, want, c)
	require.Equal(t, uint8(1), want.Phase())
	require.Equal(t, uint8(2), want.Status().SC())
	require.True(t, want.Status().DNR())

	// SCT 1, SC 08h, CRD 2, M, P 0: DW3[31:16] = 08h<<1 | 1<<9 | 2<<12 | 1<<14 = 0x6210.
	var d CQE
	d.SetStatus(StatusInvalidVector | 2<<11 | 1<<13)
	require.Equal(t, CQE{12: 0, 13: 0, 14: 0x10, 15: 0x62}, d)
	s := d.Status()
	require.Equal(t, SCTCommandSpecific, s.SCT())
	require.Equal(t, uint8(8), s.SC())
	require.Equal(t, uint8(2), s.CRD())
	require.True(t, s.More())
	require.False(t, s.DNR())
	require.False(t, s.OK())
	require.Equal(t, "sct 1 sc 08h crd 2 more", s.String())

	// Setting the phase leaves status alone and vice versa.
	d.SetPhase(1)
	require.Equal(t, byte(0x11), d[14])
	d.SetStatus(StatusSuccess)
	require.Equal(t, uint8(1), d.Phase())
	require.True(t, d.Status().OK())
}

func TestOpcodeDirection(t *testing.T) {
	// docs/sources.md §1.1: bits 1:0 give the direction; Write 01h host→ctrl, Read 02h ctrl→host.
	require.Equal(t, DirHostToDevice, OpWrite.Direction())
	require.Equal(t, DirDeviceToHost, OpRead.Direction())
	require.Equal(t, DirNone, OpFlush.Direction())
	require.Equal(t, DirHostToDevice, OpCompare.Direction()) // 05h = 0b101
	require.Equal(t, "Write", OpWrite.String())
	require.Equal(t, "opcode 7Fh", Opcode(0x7F).String())
	require.Equal(t, MakeStatus(SCTCommandSpecific, 0x01), StatusInvalidQueueID)
}

func FuzzSQERoundTrip(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add([]byte{0x01, 0x42, 0x34, 0x12, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var in SQE
		copy(in[:], b)
		// Re-encoding every decoded field over a zero entry must give back the same bytes.
		var out SQE
		out.SetOpcode(in.Opcode())
		out.SetFuse(in.Fuse())
		out.SetPSDT(in.PSDT())
		out.SetDW(0, out.DW(0)|in.DW(0)&0x3C00) // reserved CDW0 bits 13:10
		out.SetCID(in.CID())
		out.SetNSID(in.NSID())
		out.SetDW(2, in.DW(2))
		out.SetDW(3, in.DW(3))
		out.SetMPTR(in.MPTR())
		out.SetPRP1(in.PRP1())
		out.SetPRP2(in.PRP2())
		out.SetSLBA(in.SLBA())
		out.SetNLB(in.NLB())
		out.SetDW(12, out.DW(12)|in.DW(12)&0x030F0000) // reserved bits 19:16, 25:24
		out.SetDTYPE(in.DTYPE())
		out.SetPRINFO(in.PRINFO())
		out.SetFUA(in.FUA())
		out.SetLR(in.LR())
		out.SetDSM(in.DSM())
		out.SetCDW13Reserved(in.CDW13Reserved())
		out.SetDSPEC(in.DSPEC())
		out.SetDW(14, in.DW(14))
		out.SetDW(15, in.DW(15))
		require.Equal(t, in, out)
	})
}

func FuzzCQERoundTrip(f *testing.F) {
	f.Add(make([]byte, 16))
	f.Add([]byte{0xDD, 0xCC, 0xBB, 0xAA, 0, 0, 0, 0, 5, 0, 3, 0, 0x34, 0x12, 0x05, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		var in CQE
		copy(in[:], b)
		var out CQE
		out.SetDW0(in.DW0())
		out.SetDW1(in.DW1())
		out.SetSQHD(in.SQHD())
		out.SetSQID(in.SQID())
		out.SetCID(in.CID())
		out.SetStatus(in.Status())
		out.SetPhase(in.Phase())
		require.Equal(t, in, out)
		s := in.Status()
		require.Equal(t, s, MakeStatus(s.SCT(), s.SC())|Status(s.CRD())<<11|Status(b2u(s.More()))<<13|Status(b2u(s.DNR()))<<14)
	})
}
