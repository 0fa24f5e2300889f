package nvmectrl

import "encoding/binary"

// SQESize is the size of a submission queue entry in bytes (docs/sources.md §1.1; CC.IOSQES = 6).
const SQESize = 64

// SQE is one submission queue entry exactly as it sits in host memory: 16 little-endian
// dwords (docs/sources.md §1.1). The accessors read and write the fields in place.
//
//	CDW0  03:00  OPC [7:0], FUSE [9:8], PSDT [15:14], CID [31:16]
//	DW1   07:04  NSID
//	DW2-3 15:08  reserved in 1.3 (FastDrain's alternative hint carrier uses CDW2)
//	DW4-5 23:16  MPTR
//	DW6-9 39:24  PRP1, PRP2
//	DW10-15 63:40 command specific
type SQE [SQESize]byte

// DW returns dword i (0..15) of the entry.
func (e *SQE) DW(i int) uint32 { return binary.LittleEndian.Uint32(e[4*i:]) }

// SetDW sets dword i (0..15) of the entry.
func (e *SQE) SetDW(i int, v uint32) { binary.LittleEndian.PutUint32(e[4*i:], v) }

// setBits replaces the width-bit field at bit lo of dword i with v.
func (e *SQE) setBits(i int, lo, width uint, v uint32) {
	mask := uint32(1)<<width - 1
	e.SetDW(i, e.DW(i)&^(mask<<lo)|(v&mask)<<lo)
}

// bits returns the width-bit field at bit lo of dword i.
func (e *SQE) bits(i int, lo, width uint) uint32 {
	return e.DW(i) >> lo & (uint32(1)<<width - 1)
}

// Opcode returns CDW0 bits 7:0.
func (e *SQE) Opcode() Opcode { return Opcode(e[0]) }

// SetOpcode sets CDW0 bits 7:0.
func (e *SQE) SetOpcode(o Opcode) { e[0] = byte(o) }

// Fuse returns the fused-operation field, CDW0 bits 9:8 (0 normal, 1 first, 2 second).
func (e *SQE) Fuse() uint8 { return uint8(e.bits(0, 8, 2)) }

// SetFuse sets CDW0 bits 9:8.
func (e *SQE) SetFuse(f uint8) { e.setBits(0, 8, 2, uint32(f)) }

// PSDT returns the PRP-or-SGL field, CDW0 bits 15:14 (0 means PRPs).
func (e *SQE) PSDT() uint8 { return uint8(e.bits(0, 14, 2)) }

// SetPSDT sets CDW0 bits 15:14.
func (e *SQE) SetPSDT(p uint8) { e.setBits(0, 14, 2, uint32(p)) }

// CID returns the command identifier, CDW0 bits 31:16.
func (e *SQE) CID() uint16 { return binary.LittleEndian.Uint16(e[2:]) }

// SetCID sets CDW0 bits 31:16.
func (e *SQE) SetCID(c uint16) { binary.LittleEndian.PutUint16(e[2:], c) }

// BroadcastNSID is the NSID that addresses every namespace (FFFFFFFFh): a Flush with it
// flushes them all (NVMe Base Specification 2.1, "Namespace Identifier").
const BroadcastNSID = 0xFFFFFFFF

// NSID returns the namespace identifier, DW1.
func (e *SQE) NSID() uint32 { return e.DW(1) }

// SetNSID sets DW1.
func (e *SQE) SetNSID(n uint32) { e.SetDW(1, n) }

// MPTR returns the metadata pointer, DW4-5.
func (e *SQE) MPTR() uint64 { return binary.LittleEndian.Uint64(e[16:]) }

// SetMPTR sets DW4-5.
func (e *SQE) SetMPTR(p uint64) { binary.LittleEndian.PutUint64(e[16:], p) }

// PRP1 returns the first PRP entry, DW6-7.
func (e *SQE) PRP1() uint64 { return binary.LittleEndian.Uint64(e[24:]) }

// SetPRP1 sets DW6-7.
func (e *SQE) SetPRP1(p uint64) { binary.LittleEndian.PutUint64(e[24:], p) }

// PRP2 returns the second PRP entry or PRP list pointer, DW8-9.
func (e *SQE) PRP2() uint64 { return binary.LittleEndian.Uint64(e[32:]) }

// SetPRP2 sets DW8-9.
func (e *SQE) SetPRP2(p uint64) { binary.LittleEndian.PutUint64(e[32:], p) }

// SLBA returns the starting LBA of an NVM Read or Write, CDW10-11 (docs/sources.md §1.2).
func (e *SQE) SLBA() uint64 { return binary.LittleEndian.Uint64(e[40:]) }

// SetSLBA sets CDW10-11.
func (e *SQE) SetSLBA(lba uint64) { binary.LittleEndian.PutUint64(e[40:], lba) }

// NLB returns the raw, 0's based number of logical blocks, CDW12 bits 15:0.
func (e *SQE) NLB() uint16 { return binary.LittleEndian.Uint16(e[48:]) }

// SetNLB sets the raw, 0's based CDW12 bits 15:0.
func (e *SQE) SetNLB(n uint16) { binary.LittleEndian.PutUint16(e[48:], n) }

// Blocks returns the number of logical blocks of a Read or Write: NLB + 1.
func (e *SQE) Blocks() int { return int(e.NLB()) + 1 }

// SetBlocks sets NLB to n − 1. It panics unless 1 ≤ n ≤ 65536.
func (e *SQE) SetBlocks(n int) {
	if n < 1 || n > 1<<16 {
		panic("nvmectrl: SetBlocks: block count out of range 1..65536")
	}
	e.SetNLB(uint16(n - 1))
}

// DTYPE returns the directive type, CDW12 bits 23:20 (1 = Streams).
func (e *SQE) DTYPE() uint8 { return uint8(e.bits(12, 20, 4)) }

// SetDTYPE sets CDW12 bits 23:20.
func (e *SQE) SetDTYPE(d uint8) { e.setBits(12, 20, 4, uint32(d)) }

// PRINFO returns the protection information field, CDW12 bits 29:26.
func (e *SQE) PRINFO() uint8 { return uint8(e.bits(12, 26, 4)) }

// SetPRINFO sets CDW12 bits 29:26.
func (e *SQE) SetPRINFO(p uint8) { e.setBits(12, 26, 4, uint32(p)) }

// FUA reports the Force Unit Access bit, CDW12 bit 30.
func (e *SQE) FUA() bool { return e.bits(12, 30, 1) != 0 }

// SetFUA sets CDW12 bit 30.
func (e *SQE) SetFUA(on bool) { e.setBits(12, 30, 1, b2u(on)) }

// LR reports the Limited Retry bit, CDW12 bit 31.
func (e *SQE) LR() bool { return e.bits(12, 31, 1) != 0 }

// SetLR sets CDW12 bit 31.
func (e *SQE) SetLR(on bool) { e.setBits(12, 31, 1, b2u(on)) }

// DSM returns the dataset management hints, CDW13 bits 7:0.
func (e *SQE) DSM() uint8 { return e[52] }

// SetDSM sets CDW13 bits 7:0.
func (e *SQE) SetDSM(d uint8) { e[52] = d }

// CDW13Reserved returns CDW13 bits 15:8, reserved in NVMe 1.3/1.4 (docs/sources.md §1.9) and used
// by FastDrain's default hint carrier for the victimization flag.
func (e *SQE) CDW13Reserved() uint8 { return e[53] }

// SetCDW13Reserved sets CDW13 bits 15:8.
func (e *SQE) SetCDW13Reserved(v uint8) { e[53] = v }

// DSPEC returns the directive specific field, CDW13 bits 31:16.
func (e *SQE) DSPEC() uint16 { return binary.LittleEndian.Uint16(e[54:]) }

// SetDSPEC sets CDW13 bits 31:16.
func (e *SQE) SetDSPEC(d uint16) { binary.LittleEndian.PutUint16(e[54:], d) }

// SetRW fills the common part of an NVM Read or Write: opcode, CID, NSID, PRP1/PRP2, SLBA
// and the block count. Other fields are left as they are.
func (e *SQE) SetRW(op Opcode, cid uint16, nsid uint32, prp1, prp2, slba uint64, blocks int) {
	e.SetOpcode(op)
	e.SetCID(cid)
	e.SetNSID(nsid)
	e.SetPRP1(prp1)
	e.SetPRP2(prp2)
	e.SetSLBA(slba)
	e.SetBlocks(blocks)
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
