package nvmectrl

import "encoding/binary"

// Identify Controller data structure (Identify CNS 01h, 4096 bytes; NVMe base
// specification, "Identify Controller Data Structure"; the same offsets as Linux's
// struct nvme_id_ctrl, include/linux/nvme.h): the fields the model fills.
const (
	IdentifySize = 4096 // bytes of every Identify data structure
	IdentifySQES = 512  // SQES: bits 3:0 required, 7:4 maximum SQ entry size, log2 bytes
	IdentifyCQES = 513  // CQES: the same for CQ entries
	IdentifyNN   = 516  // NN: number of namespaces, 4 bytes little-endian
	IdentifyVWC  = 525  // VWC: bit 0 set = a volatile write cache is present
	// IdentifyCTRATT is CTRATT, 4 bytes: Controller Attributes; bit 19 (FDPS) says the
	// controller supports Flexible Data Placement (Linux NVME_CTRL_ATTR_FDPS).
	IdentifyCTRATT = 96
	// CTRATTFDPS is CTRATT bit 19, Flexible Data Placement Supported.
	CTRATTFDPS = 1 << 19
)

// CNSController is Identify's CNS value (CDW10 bits 7:0) for the Identify Controller data
// structure.
const CNSController = 0x01

// VWCPresent is the VWC field's bit 0, Linux's NVME_CTRL_VWC_PRESENT.
const VWCPresent = 1 << 0

// CacheReporter is implemented by firmware that tells the controller whether its write
// cache is volatile. A cache whose contents the drive writes to flash on power loss (a
// capacitor-backed buffer) is not volatile in NVMe's sense: the Volatile Write Cache
// feature does not cover it and VWC bit 0 is clear.
type CacheReporter interface {
	VolatileWriteCache() bool
}

// IdentifyController returns the Identify Controller data structure the controller would
// DMA to the host for Identify CNS 01h, with SQES 66h and CQES 44h (64-byte SQEs and
// 16-byte CQEs, the only sizes the model moves), NN the number of namespaces, CTRATT bit 19
// (FDPS) when Flexible Data Placement is on, and VWC bit 0 from the firmware
// (CacheReporter; set when the firmware does not say, or none is attached). Other fields
// are zero. An admin Identify with CNS 01h DMAs it to the host; the driver
// reads it at set-up, as it reads the registers, with no link traffic.
func (c *Controller) IdentifyController() [IdentifySize]byte {
	var id [IdentifySize]byte
	id[IdentifySQES] = 6<<4 | 6
	id[IdentifyCQES] = 4<<4 | 4
	binary.LittleEndian.PutUint32(id[IdentifyNN:], uint32(len(c.ns)))
	if c.spec.FDP.Enabled {
		binary.LittleEndian.PutUint32(id[IdentifyCTRATT:], CTRATTFDPS)
	}
	vwc := true
	if r, ok := c.fw.(CacheReporter); ok {
		vwc = r.VolatileWriteCache()
	}
	if vwc {
		id[IdentifyVWC] = VWCPresent
	}
	return id
}
