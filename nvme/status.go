package nvme

import "fmt"

// Status is the 15-bit status field of a completion queue entry, without the phase tag: it
// is CQE DW3 bits 31:17 shifted down by 17. Bit layout (docs/sources.md §1.3): SC [7:0], SCT [10:8],
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

// Zoned Namespace status codes, command specific (SCT 1h; NVM Express Zoned Namespace
// Command Set Specification 1.1, Figure "Status Code – Command Specific Status Values";
// Linux NVME_SC_ZONE_*).
const (
	StatusZoneBoundaryError     Status = Status(SCTCommandSpecific)<<8 | 0xB8
	StatusZoneIsFull            Status = Status(SCTCommandSpecific)<<8 | 0xB9
	StatusZoneIsReadOnly        Status = Status(SCTCommandSpecific)<<8 | 0xBA
	StatusZoneIsOffline         Status = Status(SCTCommandSpecific)<<8 | 0xBB
	StatusZoneInvalidWrite      Status = Status(SCTCommandSpecific)<<8 | 0xBC
	StatusTooManyActiveZones    Status = Status(SCTCommandSpecific)<<8 | 0xBD
	StatusTooManyOpenZones      Status = Status(SCTCommandSpecific)<<8 | 0xBE
	StatusInvalidZoneTransition Status = Status(SCTCommandSpecific)<<8 | 0xBF
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

// statusNames are the spec's names and definitions of the statuses the model produces
// (NVMe Base Specification 2.2 Figures 102, 103 and 106; NVM Command Set Specification
// 1.0 Figure 16 and §3.2.6.1 Figure 67; ZNS Command Set Specification 1.1), keyed by SCT << 8 | SC.
var statusNames = map[Status][2]string{
	StatusSuccess:                {"Successful Completion", "the command completed without error"},
	StatusInvalidOpcode:          {"Invalid Command Opcode", "the controller does not support the command"},
	StatusInvalidField:           {"Invalid Field in Command", "a field of the command holds a reserved or unsupported value"},
	StatusCommandIDConflict:      {"Command ID Conflict", "the command identifier is already in use"},
	StatusDataTransferError:      {"Data Transfer Error", "transferring the command's data failed"},
	StatusInternalError:          {"Internal Error", "the controller failed internally"},
	StatusAbortedSQDeletion:      {"Command Aborted due to SQ Deletion", "its submission queue was deleted"},
	StatusInvalidNamespace:       {"Invalid Namespace or Format", "the namespace or its format is invalid"},
	StatusCommandSequenceError:   {"Command Sequence Error", "a multi-command sequence was violated"},
	StatusLBAOutOfRange:          {"LBA Out of Range", "the command addresses blocks past the end of the namespace"},
	StatusCapacityExceeded:       {"Capacity Exceeded", "the command would exceed the namespace's capacity"},
	StatusCompletionQueueInvalid: {"Completion Queue Invalid", "the completion queue does not exist"},
	StatusInvalidQueueID:         {"Invalid Queue Identifier", "the queue identifier is invalid"},
	StatusInvalidQueueSize:       {"Invalid Queue Size", "the queue size is invalid"},
	StatusInvalidVector:          {"Invalid Interrupt Vector", "the interrupt vector is invalid"},
	StatusInvalidLogPage:         {"Invalid Log Page", "the controller has no such log page"},
	StatusInvalidQueueDeletion:   {"Invalid Queue Deletion", "the queue cannot be deleted"},
	StatusWriteReadOnlyRange:     {"Attempted Write to Read Only Range", "the drive's media is read-only, so it takes no more writes"},
	StatusWriteFault:             {"Write Fault", "the write data could not be committed to the media"},
	StatusUnrecoveredRead:        {"Unrecovered Read Error", "the read data could not be recovered from the media"},
	StatusZoneBoundaryError:      {"Zone Boundary Error", "the command's blocks cross the end of the zone's writable capacity or its boundary"},
	StatusZoneIsFull:             {"Zone Is Full", "the zone is full: it takes no write until it is reset"},
	StatusZoneIsReadOnly:         {"Zone Is Read Only", "the zone is read only"},
	StatusZoneIsOffline:          {"Zone Is Offline", "the zone is offline: it can be neither read nor written"},
	StatusZoneInvalidWrite:       {"Zone Invalid Write", "the write does not start at the zone's write pointer"},
	StatusTooManyActiveZones:     {"Too Many Active Zones", "opening the zone would exceed the namespace's Maximum Active Resources"},
	StatusTooManyOpenZones:       {"Too Many Open Zones", "opening the zone would exceed the namespace's Maximum Open Resources"},
	StatusInvalidZoneTransition:  {"Invalid Zone State Transition", "the zone's state does not allow the requested action"},
}

// Name returns the status's name in the specification ("Unrecovered Read Error"), or its
// code type and code in hex if the model does not know it.
func (s Status) Name() string {
	if n, ok := statusNames[s&0x7FF]; ok {
		return n[0]
	}
	return fmt.Sprintf("status code type %Xh, code %02Xh", s.SCT(), s.SC())
}

// Describe returns the status in words for a person: its name, what it means, and its
// code type and code, e.g. "Unrecovered Read Error: the read data could not be recovered
// from the media (NVMe status 2h/81h)".
func (s Status) Describe() string {
	code := fmt.Sprintf("NVMe status %Xh/%02Xh", s.SCT(), s.SC())
	if n, ok := statusNames[s&0x7FF]; ok {
		return fmt.Sprintf("%s: %s (%s)", n[0], n[1], code)
	}
	return code
}
