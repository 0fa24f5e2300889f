package nvmectrl

import "github.com/fastdrain-sim/fastdrain/nvme"

// The Zoned Namespace command set's wire formats (their data in package nvme) (NVM Express Zoned Namespace Command Set
// Specification 1.1, "I/O Commands for the Zoned Namespace Command Set"; the constants as
// Linux's include/linux/nvme.h and libnvme's nvme_zns_* name them). The zone state machine
// itself is the firmware's (firmware/zns.go); the controller moves the commands' data.

// Zone Namespace status codes (package nvme).
const (
	StatusZoneBoundaryError     = nvme.StatusZoneBoundaryError
	StatusZoneIsFull            = nvme.StatusZoneIsFull
	StatusZoneIsReadOnly        = nvme.StatusZoneIsReadOnly
	StatusZoneIsOffline         = nvme.StatusZoneIsOffline
	StatusZoneInvalidWrite      = nvme.StatusZoneInvalidWrite
	StatusTooManyActiveZones    = nvme.StatusTooManyActiveZones
	StatusTooManyOpenZones      = nvme.StatusTooManyOpenZones
	StatusInvalidZoneTransition = nvme.StatusInvalidZoneTransition
)

// ZoneState is a zone's state (package nvme).
type ZoneState = nvme.ZoneState

// ZoneDescriptor is one zone as Report Zones returns it (package nvme).
type ZoneDescriptor = nvme.ZoneDescriptor

// Zone states, zone actions and the Report Zones layout (package nvme).
const (
	ZoneEmpty          = nvme.ZoneEmpty
	ZoneImplOpen       = nvme.ZoneImplOpen
	ZoneExplOpen       = nvme.ZoneExplOpen
	ZoneClosed         = nvme.ZoneClosed
	ZoneReadOnly       = nvme.ZoneReadOnly
	ZoneFull           = nvme.ZoneFull
	ZoneOffline        = nvme.ZoneOffline
	ZoneActionClose    = nvme.ZoneActionClose
	ZoneActionFinish   = nvme.ZoneActionFinish
	ZoneActionOpen     = nvme.ZoneActionOpen
	ZoneActionReset    = nvme.ZoneActionReset
	ZoneActionOffline  = nvme.ZoneActionOffline
	ZoneSelectAll      = nvme.ZoneSelectAll
	ZoneReportZones    = nvme.ZoneReportZones
	ZoneReportAll      = nvme.ZoneReportAll
	ZonePartialReport  = nvme.ZonePartialReport
	ZoneDescriptorSize = nvme.ZoneDescriptorSize
	ZoneReportHeader   = nvme.ZoneReportHeader
	ZoneTypeSeqWrite   = nvme.ZoneTypeSeqWrite
)

// ZoneReportFilter returns the zone state a reporting option selects (nvme.ZoneReportFilter).
func ZoneReportFilter(zras uint8) (ZoneState, bool, error) { return nvme.ZoneReportFilter(zras) }

// MarshalZoneReport encodes a Report Zones data buffer of n bytes (nvme.MarshalZoneReport).
func MarshalZoneReport(ds []ZoneDescriptor, total uint64, partial bool, n int) []byte {
	return nvme.MarshalZoneReport(ds, total, partial, n)
}

// ParseZoneReport decodes a Report Zones data buffer (nvme.ParseZoneReport).
func ParseZoneReport(b []byte) (uint64, []ZoneDescriptor, error) { return nvme.ParseZoneReport(b) }

// ZoneSource is implemented by firmware with zoned namespaces: the zone table of nsid as
// Report Zones returns it (all zones, in order), false for a namespace that is not zoned.
type ZoneSource interface {
	ZoneInfo(nsid uint32) ([]ZoneDescriptor, bool)
}

// ReportZones returns namespace nsid's zones as a Report Zones of all zones from LBA 0
// would, false unless nsid is an active zoned namespace. Like IdentifyNamespace it is read
// with no link traffic: the host model reads the zones when a program opens the device
// (fio's zbd set-up, BLKREPORTZONE), outside the timed I/O.
func (c *Controller) ReportZones(nsid uint32) ([]ZoneDescriptor, bool) {
	ns, ok := c.namespace(nsid)
	if !ok || ns.Type != NSZoned {
		return nil, false
	}
	src, has := c.fw.(ZoneSource)
	if !has {
		return nil, false
	}
	return src.ZoneInfo(nsid)
}
