package nvmectrl

import "encoding/binary"

// CQESize is the size of a completion queue entry in bytes (docs/sources.md §1.3; CC.IOCQES = 4).
const CQESize = 16

// CQE is one completion queue entry exactly as it sits in host memory: 4 little-endian
// dwords (docs/sources.md §1.3).
//
//	DW0  command specific
//	DW1  reserved in 1.3/1.4 (FastDrain's alternative status carrier)
//	DW2  SQHD [15:0], SQID [31:16]
//	DW3  CID [15:0], P [16], SC [24:17], SCT [27:25], CRD [29:28], M [30], DNR [31]
type CQE [CQESize]byte

// DW0 returns the command-specific dword 0.
func (c *CQE) DW0() uint32 { return binary.LittleEndian.Uint32(c[0:]) }

// SetDW0 sets dword 0.
func (c *CQE) SetDW0(v uint32) { binary.LittleEndian.PutUint32(c[0:], v) }

// DW1 returns dword 1.
func (c *CQE) DW1() uint32 { return binary.LittleEndian.Uint32(c[4:]) }

// SetDW1 sets dword 1.
func (c *CQE) SetDW1(v uint32) { binary.LittleEndian.PutUint32(c[4:], v) }

// SQHD returns the submission queue head pointer, DW2 bits 15:0.
func (c *CQE) SQHD() uint16 { return binary.LittleEndian.Uint16(c[8:]) }

// SetSQHD sets DW2 bits 15:0.
func (c *CQE) SetSQHD(h uint16) { binary.LittleEndian.PutUint16(c[8:], h) }

// SQID returns the submission queue identifier, DW2 bits 31:16.
func (c *CQE) SQID() uint16 { return binary.LittleEndian.Uint16(c[10:]) }

// SetSQID sets DW2 bits 31:16.
func (c *CQE) SetSQID(q uint16) { binary.LittleEndian.PutUint16(c[10:], q) }

// CID returns the command identifier, DW3 bits 15:0.
func (c *CQE) CID() uint16 { return binary.LittleEndian.Uint16(c[12:]) }

// SetCID sets DW3 bits 15:0.
func (c *CQE) SetCID(id uint16) { binary.LittleEndian.PutUint16(c[12:], id) }

// Phase returns the phase tag, DW3 bit 16 (0 or 1).
func (c *CQE) Phase() uint8 { return c[14] & 1 }

// SetPhase sets DW3 bit 16 to p&1.
func (c *CQE) SetPhase(p uint8) { c[14] = c[14]&^1 | p&1 }

// Status returns DW3 bits 31:17.
func (c *CQE) Status() Status { return Status(binary.LittleEndian.Uint16(c[14:]) >> 1) }

// SetStatus sets DW3 bits 31:17, keeping the phase tag.
func (c *CQE) SetStatus(s Status) {
	binary.LittleEndian.PutUint16(c[14:], uint16(s)<<1|uint16(c.Phase()))
}
