package nvmectrl

import "github.com/fastdrain-sim/fastdrain/nvme"

// Opcode is the command opcode in CDW0 bits 7:0 of a submission queue entry (nvme.Opcode).
type Opcode = nvme.Opcode

// Direction is the data transfer direction encoded in opcode bits 1:0 (nvme.Direction).
type Direction = nvme.Direction

// NVM and admin opcodes, feature identifiers and data transfer directions (package nvme).
const (
	OpFlush                      = nvme.OpFlush
	OpWrite                      = nvme.OpWrite
	OpRead                       = nvme.OpRead
	OpWriteUncorrectable         = nvme.OpWriteUncorrectable
	OpCompare                    = nvme.OpCompare
	OpWriteZeroes                = nvme.OpWriteZeroes
	OpDatasetManagement          = nvme.OpDatasetManagement
	OpIOMgmtReceive              = nvme.OpIOMgmtReceive
	OpIOMgmtSend                 = nvme.OpIOMgmtSend
	OpZoneMgmtSend               = nvme.OpZoneMgmtSend
	OpZoneMgmtReceive            = nvme.OpZoneMgmtReceive
	OpZoneAppend                 = nvme.OpZoneAppend
	AdminDeleteIOSQ              = nvme.AdminDeleteIOSQ
	AdminCreateIOSQ              = nvme.AdminCreateIOSQ
	AdminGetLogPage              = nvme.AdminGetLogPage
	AdminDeleteIOCQ              = nvme.AdminDeleteIOCQ
	AdminCreateIOCQ              = nvme.AdminCreateIOCQ
	AdminIdentify                = nvme.AdminIdentify
	AdminAbort                   = nvme.AdminAbort
	AdminSetFeatures             = nvme.AdminSetFeatures
	AdminGetFeatures             = nvme.AdminGetFeatures
	AdminAsyncEventRequest       = nvme.AdminAsyncEventRequest
	AdminDirectiveSend           = nvme.AdminDirectiveSend
	AdminDirectiveReceive        = nvme.AdminDirectiveReceive
	AdminDoorbellBufferConfig    = nvme.AdminDoorbellBufferConfig
	AdminFormatNVM               = nvme.AdminFormatNVM
	FeatureArbitration           = nvme.FeatureArbitration
	FeatureNumberOfQueues        = nvme.FeatureNumberOfQueues
	FeatureInterruptCoalescing   = nvme.FeatureInterruptCoalescing
	FeatureInterruptVectorConfig = nvme.FeatureInterruptVectorConfig
	DirNone                      = nvme.DirNone
	DirHostToDevice              = nvme.DirHostToDevice
	DirDeviceToHost              = nvme.DirDeviceToHost
	DirBidirectional             = nvme.DirBidirectional
)
