package nvmectrl

import "fmt"

// Status is the 15-bit status field of a completion queue entry, without the phase tag: it
// is CQE DW3 bits 31:17 shifted down by 17. Bit layout (FACTS.md §1.3): SC [7:0], SCT [10:8],
// CRD [12:11], M [13], DNR [14]. The zero value means successful completion.
type Status uint16

// Status code types (SPDK enum spdk_nvme_status_code_type).
const (
	SCTGeneric         uint8 = 0
	SCTCommandSpecific uint8 = 1
	SCTMediaError      uint8 = 2
	SCTVendorSpecific  uint8 = 7
)

// Status values used by the controller and firmware (SPDK nvme_spec.h generic and command
// specific status code enums).
const (
	StatusSuccess                Status = 0x00
	StatusInvalidOpcode          Status = 0x01
	StatusInvalidField           Status = 0x02
	StatusCommandIDConflict      Status = 0x03
	StatusDataTransferError      Status = 0x04
	StatusInternalError          Status = 0x06
	StatusAbortedSQDeletion      Status = 0x08
	StatusCommandSequenceError   Status = 0x0C
	StatusInvalidNamespace       Status = 0x0B
	StatusLBAOutOfRange          Status = 0x80
	StatusCapacityExceeded       Status = 0x81
	StatusCompletionQueueInvalid Status = Status(SCTCommandSpecific) << 8
	StatusInvalidQueueID         Status = Status(SCTCommandSpecific)<<8 | 0x01
	StatusInvalidQueueSize       Status = Status(SCTCommandSpecific)<<8 | 0x02
	StatusInvalidVector          Status = Status(SCTCommandSpecific)<<8 | 0x08
	StatusInvalidLogPage         Status = Status(SCTCommandSpecific)<<8 | 0x09
	StatusInvalidQueueDeletion   Status = Status(SCTCommandSpecific)<<8 | 0x0C
	// StatusWriteReadOnlyRange is Attempted Write to Read Only Range (command specific
	// 82h, NVM Command Set Specification 1.0 Figure 16 and §3.2.6.1 Figure 67; Linux's
	// NVME_SC_READ_ONLY, 0x182): a write to media placed in read-only mode.
	StatusWriteReadOnlyRange Status = Status(SCTCommandSpecific)<<8 | 0x82
	StatusWriteFault         Status = Status(SCTMediaError)<<8 | 0x80
	StatusUnrecoveredRead    Status = Status(SCTMediaError)<<8 | 0x81
)

// MakeStatus returns the status with the given status code type and status code, with CRD,
// More and DNR clear.
func MakeStatus(sct, sc uint8) Status { return Status(sct&7)<<8 | Status(sc) }

// SC returns the status code.
func (s Status) SC() uint8 { return uint8(s) }

// SCT returns the status code type.
func (s Status) SCT() uint8 { return uint8(s>>8) & 7 }

// CRD returns the command retry delay index.
func (s Status) CRD() uint8 { return uint8(s>>11) & 3 }

// More reports whether the M (more information in a log page) bit is set.
func (s Status) More() bool { return s&(1<<13) != 0 }

// DNR reports whether the Do Not Retry bit is set.
func (s Status) DNR() bool { return s&(1<<14) != 0 }

// WithDNR returns s with the Do Not Retry bit set.
func (s Status) WithDNR() Status { return s | 1<<14 }

// OK reports whether the status is successful completion (SCT 0, SC 0).
func (s Status) OK() bool { return s&0x7FF == 0 }

// String returns the status as "sct/sc" in hex with any set flags.
func (s Status) String() string {
	str := fmt.Sprintf("sct %d sc %02Xh", s.SCT(), s.SC())
	if s.CRD() != 0 {
		str += fmt.Sprintf(" crd %d", s.CRD())
	}
	if s.More() {
		str += " more"
	}
	if s.DNR() {
		str += " dnr"
	}
	return str
}
