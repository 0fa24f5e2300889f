package nvmectrl

import (
	"encoding/binary"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// The SMART / Health Information log page (Get Log Page, log identifier 02h; NVMe Base
// Specification 2.1 §5.2.13.1.3, Figure 213: 512 bytes, the same offsets as Linux's struct
// nvme_smart_log in include/linux/nvme.h). The fields the model fills; the temperatures,
// Percentage Used and the busy and power-on times are not modelled and read 0.
const (
	HealthLogSize = 512 // bytes of the log page

	LogHealth uint8 = 0x02 // the log page's identifier (Get Log Page CDW10 bits 7:0)

	HealthCriticalWarning  = 0   // Critical Warning, a bit field (Critical…)
	HealthAvailableSpare   = 3   // Available Spare, per cent
	HealthSpareThreshold   = 4   // Available Spare Threshold, per cent
	HealthDataUnitsRead    = 32  // 16 bytes: thousands of 512-byte units read, rounded up
	HealthDataUnitsWritten = 48  // 16 bytes: the same, written
	HealthHostReads        = 64  // 16 bytes: Host Read Commands
	HealthHostWrites       = 80  // 16 bytes: Host Write Commands
	HealthPowerCycles      = 112 // 16 bytes
	HealthUnsafeShutdowns  = 144 // 16 bytes: power lost while the controller was not ready for it
	HealthMediaErrors      = 160 // 16 bytes: Media and Data Integrity Errors
	HealthErrorLogEntries  = 176 // 16 bytes: Number of Error Information Log Entries
)

// Critical Warning bits (the same figure; libnvme's NVME_SMART_CRIT_*).
const (
	// CriticalSpare: the available spare capacity has fallen below the threshold.
	CriticalSpare uint8 = 1 << 0
	// CriticalTemperature: a temperature is beyond a threshold (not modelled).
	CriticalTemperature uint8 = 1 << 1
	// CriticalReliability: the NVM subsystem's reliability has been degraded due to
	// significant media related errors or an internal error.
	CriticalReliability uint8 = 1 << 2
	// CriticalReadOnly: all of the media has been placed in read only mode (not set for a
	// namespace's write protection).
	CriticalReadOnly uint8 = 1 << 3
	// CriticalBackup: the volatile memory backup device has failed (not modelled).
	CriticalBackup uint8 = 1 << 4
)

// HealthInfo is the content of the SMART / Health Information log page the model fills.
// The 16-byte counters are kept to 64 bits (their high half is 0).
type HealthInfo struct {
	CriticalWarning         uint8
	AvailableSpare          uint8 // per cent of the spare capacity left
	AvailableSpareThreshold uint8 // per cent
	DataUnitsRead           uint64
	DataUnitsWritten        uint64
	HostReadCommands        uint64
	HostWriteCommands       uint64
	PowerCycles             uint64
	UnsafeShutdowns         uint64
	MediaErrors             uint64
	ErrorLogEntries         uint64
}

// HealthReporter is implemented by firmware that keeps the SMART / Health information; a
// controller whose firmware does not has a log page of 100 % spare and nothing else.
type HealthReporter interface {
	HealthInfo() HealthInfo
}

// Marshal returns the 512-byte log page, little-endian as every NVMe data structure.
func (h HealthInfo) Marshal() [HealthLogSize]byte {
	var b [HealthLogSize]byte
	b[HealthCriticalWarning] = h.CriticalWarning
	b[HealthAvailableSpare] = h.AvailableSpare
	b[HealthSpareThreshold] = h.AvailableSpareThreshold
	for _, f := range h.counters() {
		binary.LittleEndian.PutUint64(b[f.off:], *f.v)
	}
	return b
}

// ParseHealthLog decodes a log page Marshal wrote (or a device returned); the counters'
// high 64 bits are ignored.
func ParseHealthLog(b []byte) HealthInfo {
	var h HealthInfo
	if len(b) < HealthLogSize {
		return h
	}
	h.CriticalWarning, h.AvailableSpare, h.AvailableSpareThreshold = b[HealthCriticalWarning], b[HealthAvailableSpare], b[HealthSpareThreshold]
	for _, f := range h.counters() {
		*f.v = binary.LittleEndian.Uint64(b[f.off:])
	}
	return h
}

// counters lists h's 16-byte counters with their offsets.
func (h *HealthInfo) counters() []struct {
	off int
	v   *uint64
} {
	return []struct {
		off int
		v   *uint64
	}{{HealthDataUnitsRead, &h.DataUnitsRead}, {HealthDataUnitsWritten, &h.DataUnitsWritten},
		{HealthHostReads, &h.HostReadCommands}, {HealthHostWrites, &h.HostWriteCommands},
		{HealthPowerCycles, &h.PowerCycles}, {HealthUnsafeShutdowns, &h.UnsafeShutdowns},
		{HealthMediaErrors, &h.MediaErrors}, {HealthErrorLogEntries, &h.ErrorLogEntries}}
}

// HealthLog returns the SMART / Health Information log page as the controller would DMA it
// for Get Log Page: the firmware's (HealthReporter), or 100 % spare if it keeps none. A
// host reads it with the admin command (getLogPage); a report reads it here, as the driver
// reads Identify Controller, with no link traffic.
func (c *Controller) HealthLog() [HealthLogSize]byte {
	h := HealthInfo{AvailableSpare: 100}
	if r, ok := c.fw.(HealthReporter); ok {
		h = r.HealthInfo()
	}
	return h.Marshal()
}

// getLogPage serves Get Log Page (NVMe Base Specification 2.1 §5.2.13: CDW10 bits 7:0 the
// log identifier, bits 11:8 the log specific parameter, bits 31:16 the lower and CDW11
// bits 15:0 the upper half of the number of dwords to return, 0's based; CDW11 bits 31:16
// the log specific identifier; CDW12 and CDW13 the byte offset into the log). The SMART /
// Health log (02h) exists, and with Flexible Data Placement the FDP log pages (20h–23h,
// fdp.go), whose log specific identifier must name endurance group 1; another identifier
// is Invalid Log Page (command specific 09h), an offset that is not a multiple of 4 or
// past the page, another endurance group, or a length past the largest transfer
// (MaxTransfer, the MDTS), is Invalid Field in Command. The page's bytes from the offset
// are DMA'd, up to the length asked (bytes past the page's end read 0).
func (c *Controller) getLogPage(now sim.Time, cmd *Command) Status {
	cdw10, cdw11 := cmd.SQE.DW(10), cmd.SQE.DW(11)
	var page []byte
	switch lid := uint8(cdw10); lid {
	case LogHealth:
		h := c.HealthLog()
		page = h[:]
	default:
		p, ok := c.fdpLog(lid, uint8(cdw10>>8&0xF))
		if !ok {
			return StatusInvalidLogPage
		}
		if cdw11>>16 != 1 {
			return StatusInvalidField // endurance group 1 is the only one
		}
		page = p
	}
	off := uint64(cmd.SQE.DW(13))<<32 | uint64(cmd.SQE.DW(12))
	if off%4 != 0 || off >= uint64(len(page)) {
		return StatusInvalidField
	}
	n := (int(cdw11&0xFFFF)<<16 | int(cdw10>>16) + 1) * 4
	if n > c.spec.MaxTransfer {
		return StatusInvalidField
	}
	cmd.DataLen = n
	if c.preparePRP(cmd) != nil {
		return StatusInvalidField.WithDNR()
	}
	data := make([]byte, n)
	copy(data, page[off:])
	c.CopyToHost(cmd, 0, data)
	c.WriteHostData(now, cmd, 0, n)
	return StatusSuccess
}
