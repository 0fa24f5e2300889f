package nvme

import "fmt"

// Opcode is the command opcode in CDW0 bits 7:0 of a submission queue entry. NVM and admin
// opcodes share values (Write 01h and Create I/O SQ 01h), so an opcode means something only
// together with the queue it was submitted on: queue 0 is the admin queue.
type Opcode uint8

// NVM command set opcodes (docs/sources.md §1.1; SPDK enum spdk_nvme_nvm_opcode).
const (
	OpFlush              Opcode = 0x00
	OpWrite              Opcode = 0x01
	OpRead               Opcode = 0x02
	OpWriteUncorrectable Opcode = 0x04
	OpCompare            Opcode = 0x05
	OpWriteZeroes        Opcode = 0x08
	OpDatasetManagement  Opcode = 0x09
	// OpIOMgmtReceive and OpIOMgmtSend are I/O Management Receive and Send (NVM Command Set
	// Specification 1.1; Linux nvme_cmd_io_mgmt_recv 12h, nvme_cmd_io_mgmt_send 1Dh): under
	// Flexible Data Placement, Reclaim Unit Handle Status and Update.
	OpIOMgmtReceive Opcode = 0x12
	OpIOMgmtSend    Opcode = 0x1D
	// OpZoneMgmtSend, OpZoneMgmtReceive and OpZoneAppend are the Zoned Namespace command
	// set's I/O commands (ZNS Command Set Specification 1.1, "I/O Commands for the Zoned
	// Namespace Command Set"; Linux nvme_cmd_zone_mgmt_send 79h, _recv 7Ah, _append 7Dh).
	OpZoneMgmtSend    Opcode = 0x79
	OpZoneMgmtReceive Opcode = 0x7A
	OpZoneAppend      Opcode = 0x7D
)

// Admin command set opcodes (SPDK enum spdk_nvme_admin_opcode; Directive and Doorbell Buffer
// Config from docs/sources.md §1.1).
const (
	AdminDeleteIOSQ           Opcode = 0x00
	AdminCreateIOSQ           Opcode = 0x01
	AdminGetLogPage           Opcode = 0x02
	AdminDeleteIOCQ           Opcode = 0x04
	AdminCreateIOCQ           Opcode = 0x05
	AdminIdentify             Opcode = 0x06
	AdminAbort                Opcode = 0x08
	AdminSetFeatures          Opcode = 0x09
	AdminGetFeatures          Opcode = 0x0A
	AdminAsyncEventRequest    Opcode = 0x0C
	AdminDirectiveSend        Opcode = 0x19
	AdminDirectiveReceive     Opcode = 0x1A
	AdminDoorbellBufferConfig Opcode = 0x7C
	AdminFormatNVM            Opcode = 0x80
)

// Feature identifiers for Set Features and Get Features, in CDW10 bits 7:0 (docs/sources.md §1.5,
// §1.6; SPDK enum spdk_nvme_feat).
const (
	FeatureArbitration           uint8 = 0x01
	FeatureNumberOfQueues        uint8 = 0x07
	FeatureInterruptCoalescing   uint8 = 0x08
	FeatureInterruptVectorConfig uint8 = 0x09
)

// Direction is the data transfer direction encoded in opcode bits 1:0.
type Direction uint8

// Data transfer directions (docs/sources.md §1.1: 01b host to controller, 10b controller to host;
// SPDK spdk_nvme_opc_get_data_transfer).
const (
	DirNone          Direction = 0 // no data
	DirHostToDevice  Direction = 1 // e.g. Write: the controller reads host memory
	DirDeviceToHost  Direction = 2 // e.g. Read: the controller writes host memory
	DirBidirectional Direction = 3
)

// Direction returns the data transfer direction the opcode implies.
func (o Opcode) Direction() Direction { return Direction(o & 3) }

// String returns the NVM command set name of the opcode, or its hex value.
func (o Opcode) String() string {
	switch o {
	case OpFlush:
		return "Flush"
	case OpWrite:
		return "Write"
	case OpRead:
		return "Read"
	case OpWriteUncorrectable:
		return "WriteUncorrectable"
	case OpCompare:
		return "Compare"
	case OpWriteZeroes:
		return "WriteZeroes"
	case OpDatasetManagement:
		return "DatasetManagement"
	case OpIOMgmtReceive:
		return "IOManagementReceive"
	case OpIOMgmtSend:
		return "IOManagementSend"
	case OpZoneMgmtSend:
		return "ZoneManagementSend"
	case OpZoneMgmtReceive:
		return "ZoneManagementReceive"
	case OpZoneAppend:
		return "ZoneAppend"
	}
	return fmt.Sprintf("opcode %02Xh", uint8(o))
}
