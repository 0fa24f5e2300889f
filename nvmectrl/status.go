package nvmectrl

import "github.com/fastdrain-sim/fastdrain/nvme"

// Status is the 15-bit status field of a completion queue entry (package nvme holds the
// protocol's data; the controller and the host driver use these names for it).
type Status = nvme.Status

// MakeStatus returns the status with the given status code type and status code, with CRD,
// More and DNR clear (nvme.MakeStatus).
func MakeStatus(sct, sc uint8) Status { return nvme.MakeStatus(sct, sc) }

// Status code types and status values (package nvme).
const (
	SCTGeneric                   = nvme.SCTGeneric
	SCTCommandSpecific           = nvme.SCTCommandSpecific
	SCTMediaError                = nvme.SCTMediaError
	SCTVendorSpecific            = nvme.SCTVendorSpecific
	StatusSuccess                = nvme.StatusSuccess
	StatusInvalidOpcode          = nvme.StatusInvalidOpcode
	StatusInvalidField           = nvme.StatusInvalidField
	StatusCommandIDConflict      = nvme.StatusCommandIDConflict
	StatusDataTransferError      = nvme.StatusDataTransferError
	StatusInternalError          = nvme.StatusInternalError
	StatusAbortedSQDeletion      = nvme.StatusAbortedSQDeletion
	StatusCommandSequenceError   = nvme.StatusCommandSequenceError
	StatusInvalidNamespace       = nvme.StatusInvalidNamespace
	StatusLBAOutOfRange          = nvme.StatusLBAOutOfRange
	StatusCapacityExceeded       = nvme.StatusCapacityExceeded
	StatusCompletionQueueInvalid = nvme.StatusCompletionQueueInvalid
	StatusInvalidQueueID         = nvme.StatusInvalidQueueID
	StatusInvalidQueueSize       = nvme.StatusInvalidQueueSize
	StatusInvalidVector          = nvme.StatusInvalidVector
	StatusInvalidLogPage         = nvme.StatusInvalidLogPage
	StatusInvalidQueueDeletion   = nvme.StatusInvalidQueueDeletion
	StatusWriteReadOnlyRange     = nvme.StatusWriteReadOnlyRange
	StatusWriteFault             = nvme.StatusWriteFault
	StatusUnrecoveredRead        = nvme.StatusUnrecoveredRead
)
