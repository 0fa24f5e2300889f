package nvme

import "encoding/binary"

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
