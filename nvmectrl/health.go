package nvmectrl

import (
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// HealthInfo is the content of the SMART / Health Information log page (nvme.HealthInfo).
type HealthInfo = nvme.HealthInfo

// ParseHealthLog decodes a SMART / Health log page (nvme.ParseHealthLog).
func ParseHealthLog(b []byte) HealthInfo { return nvme.ParseHealthLog(b) }

// The SMART / Health log page's size, identifier, field offsets and Critical Warning bits
// (package nvme).
const (
	HealthLogSize          = nvme.HealthLogSize
	LogHealth              = nvme.LogHealth
	HealthCriticalWarning  = nvme.HealthCriticalWarning
	HealthAvailableSpare   = nvme.HealthAvailableSpare
	HealthSpareThreshold   = nvme.HealthSpareThreshold
	HealthDataUnitsRead    = nvme.HealthDataUnitsRead
	HealthDataUnitsWritten = nvme.HealthDataUnitsWritten
	HealthHostReads        = nvme.HealthHostReads
	HealthHostWrites       = nvme.HealthHostWrites
	HealthPowerCycles      = nvme.HealthPowerCycles
	HealthUnsafeShutdowns  = nvme.HealthUnsafeShutdowns
	HealthMediaErrors      = nvme.HealthMediaErrors
	HealthErrorLogEntries  = nvme.HealthErrorLogEntries
	CriticalSpare          = nvme.CriticalSpare
	CriticalTemperature    = nvme.CriticalTemperature
	CriticalReliability    = nvme.CriticalReliability
	CriticalReadOnly       = nvme.CriticalReadOnly
	CriticalBackup         = nvme.CriticalBackup
)

// HealthReporter is implemented by firmware that keeps the SMART / Health information; a
// controller whose firmware does not has a log page of 100 % spare and nothing else.
type HealthReporter interface {
	HealthInfo() HealthInfo
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
