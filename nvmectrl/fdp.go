package nvmectrl

import (
	"encoding/binary"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flexible Data Placement (TP4146, folded into NVMe Base Specification 2.1, "Flexible Data
// Placement"): the host tags each write with a placement identifier, which selects one of
// the namespace's placement handles; a placement handle references a reclaim unit handle
// (RUH), and the controller writes the data of each RUH into reclaim units (RUs, the media
// it erases together) of that handle alone. An RUH is initially isolated (data written
// through different handles starts in different RUs, but the controller may mix them when
// it moves data) or persistently isolated (the controller keeps them apart when it moves
// data too).

// MaxReclaimUnitHandles bounds the reclaim unit handles of the FDP configuration (package nvme).
const MaxReclaimUnitHandles = nvme.MaxReclaimUnitHandles

// Isolation is a reclaim unit handle's type (package nvme).
type Isolation = nvme.Isolation

// Reclaim unit handle types (package nvme).
const (
	InitiallyIsolated    = nvme.InitiallyIsolated
	PersistentlyIsolated = nvme.PersistentlyIsolated
)

// FDP configures Flexible Data Placement on the controller's one endurance group (package
// nvme).
type FDP = nvme.FDP

// MaxReclaimGroups bounds NRG (package nvme).
const MaxReclaimGroups = nvme.MaxReclaimGroups

// validate reports every problem with the FDP section, each naming its field.
func (s Spec) validateFDP() []error {
	var errs []error
	f := s.FDP
	if f.Handles < 0 || f.Handles > MaxReclaimUnitHandles {
		errs = append(errs, fmt.Errorf("nvme.fdp.handles: %d is not in 1..%d (0: %d)", f.Handles, MaxReclaimUnitHandles, nvme.DefaultReclaimUnitHandles))
	}
	if f.Isolation > PersistentlyIsolated {
		errs = append(errs, fmt.Errorf("nvme.fdp.isolation: %v is not one of initially, persistently", f.Isolation))
	}
	if f.ReclaimGroups < 0 || f.ReclaimGroups > MaxReclaimGroups {
		errs = append(errs, fmt.Errorf("nvme.fdp.reclaim_groups: %d is not in 1..%d (0: 1)", f.ReclaimGroups, MaxReclaimGroups))
	}
	if n := len(f.ReclaimGroupDies); n > 0 {
		if n > MaxReclaimGroups {
			errs = append(errs, fmt.Errorf("nvme.fdp.reclaim_group_dies: %d groups; at most %d", n, MaxReclaimGroups))
		}
		if f.ReclaimGroups != 0 && f.ReclaimGroups != n {
			errs = append(errs, fmt.Errorf("nvme.fdp.reclaim_groups: %d, but reclaim_group_dies sizes %d groups", f.ReclaimGroups, n))
		}
		for g, d := range f.ReclaimGroupDies {
			if d < 1 {
				errs = append(errs, fmt.Errorf("nvme.fdp.reclaim_group_dies: group %d has %d dies; each needs at least 1", g, d))
			}
		}
	}
	if t := f.RUTimeLimit; t < 0 || t%sim.Second != 0 || t/sim.Second > 0xFFFFFFFF {
		errs = append(errs, fmt.Errorf("nvme.fdp.ru_time_limit: %v is not a whole number of seconds from 0 to 2³²−1 (ERUTL is in seconds; 0: no limit)", t))
	}
	// FastDrain's default hint carrier puts the victimization page count in DSPEC (CDW13
	// bits 31:16), the field that carries the placement identifier under FDP: the two
	// cannot share it. The hint has its own carrier in CDW2 (FlashShare's), which FDP
	// leaves alone; the choice is the user's, so it is refused rather than moved.
	if f.Enabled && s.HintCarrier == HintCDW13 {
		errs = append(errs, fmt.Errorf("nvme.hint_carrier: cdw13 carries FastDrain's hint page count in DSPEC (CDW13 bits 31:16), which holds the placement identifier when nvme.fdp.enabled; set nvme.hint_carrier to cdw2 (or none)"))
	}
	return errs
}

// FDP log pages (Get Log Page, NVMe Base Specification 2.1; their layouts as libnvme's
// struct nvme_fdp_config_log, nvme_fdp_ruhu_log, nvme_fdp_stats_log and
// nvme_fdp_events_log, and Linux's include/linux/nvme.h). Each is scoped to an endurance
// group, named by the Log Specific Identifier (CDW11 bits 31:16): this controller has one,
// endurance group 1.
const (
	LogFDPConfigs uint8 = 0x20 // FDP Configurations
	LogRUHUsage   uint8 = 0x21 // Reclaim Unit Handle Usage
	LogFDPStats   uint8 = 0x22 // FDP Statistics
	LogFDPEvents  uint8 = 0x23 // FDP Events (LSP bit 0: 0 host events, 1 controller events)
)

// FDP event types (package nvme) and the FDP log pages' layout.
const (
	EventRUNotFullyWritten                   = nvme.EventRUNotFullyWritten
	EventRUTimeLimitExceeded                 = nvme.EventRUTimeLimitExceeded
	EventResetModifiedHandles                = nvme.EventResetModifiedHandles
	EventInvalidPlacementID                  = nvme.EventInvalidPlacementID
	EventMediaReallocated                    = nvme.EventMediaReallocated
	EventImplicitlyModifiedRUH               = nvme.EventImplicitlyModifiedRUH
	fdpEventFlagPIDValid               uint8 = 1 << 0
	fdpEventFlagNSIDValid              uint8 = 1 << 1
	fdpReallocFlagLBAValid             uint8 = 1 << 0 // Media Reallocated's LBAV
	fdpEventSize                             = 64
	fdpEventsMax                             = 63 // the log page holds 63 events after its 64-byte header
	fdpConfigDescSize                        = 64
	fdpHeaderSize                            = 16
	ruhUsageHeader, ruhUsageDesc             = 8, 8
	fdpStatsSize                             = 64
	fdpAttrValid, fdpAttrVolatileCache       = 1 << 7, 1 << 4
	ruhaHostSpecified                        = 1 << 0
)

// FDPEvent is one event of the FDP Events log page (package nvme).
type FDPEvent = nvme.FDPEvent

// FDPInfo is what the firmware reports for the FDP log pages (package nvme).
type FDPInfo = nvme.FDPInfo

// FDPReporter is implemented by firmware that keeps Flexible Data Placement.
type FDPReporter interface {
	FDPInfo() FDPInfo
}

// fdpLog returns the FDP log page lid (with lsp, its Log Specific Parameter) built from
// the firmware's report, or false if the controller has no FDP.
func (c *Controller) fdpLog(lid, lsp uint8) ([]byte, bool) {
	r, ok := c.fw.(FDPReporter)
	if !c.spec.FDP.Enabled || !ok {
		return nil, false
	}
	info := r.FDPInfo()
	le := binary.LittleEndian
	switch lid {
	case LogFDPConfigs:
		// One configuration: header, then its descriptor and one 4-byte RUH descriptor a
		// handle (RUHT in byte 0).
		n := len(info.Types)
		dsze := fdpConfigDescSize + 4*n
		b := make([]byte, fdpHeaderSize+dsze)
		le.PutUint16(b[0:], 0) // NUMFDPC, 0's based: one configuration
		le.PutUint32(b[4:], uint32(len(b)))
		d := b[fdpHeaderSize:]
		le.PutUint16(d[0:], uint16(dsze))
		fdp := c.spec.FDP
		d[2] = fdpAttrValid | uint8(fdp.RGIF()) // RGIF, bits 3:0
		if info.VolatileCache {
			d[2] |= fdpAttrVolatileCache
		}
		le.PutUint32(d[4:], uint32(fdp.Groups()))                // NRG
		le.PutUint16(d[8:], uint16(n))                           // NRUH
		le.PutUint16(d[10:], uint16(n-1))                        // MAXPIDS, 0's based
		le.PutUint32(d[12:], MaxNamespaces)                      // NNSS
		le.PutUint64(d[16:], info.RUSize)                        // RUNS
		le.PutUint32(d[24:], uint32(fdp.RUTimeLimit/sim.Second)) // ERUTL, s (0: no limit)
		for i, t := range info.Types {
			d[fdpConfigDescSize+4*i] = t.RUHT()
		}
		return b, true
	case LogRUHUsage:
		b := make([]byte, ruhUsageHeader+ruhUsageDesc*len(info.Used))
		le.PutUint16(b[0:], uint16(len(info.Used)))
		for i, u := range info.Used {
			if u {
				b[ruhUsageHeader+ruhUsageDesc*i] = ruhaHostSpecified
			}
		}
		return b, true
	case LogFDPStats:
		b := make([]byte, fdpStatsSize) // 16-byte counters; the high 8 bytes stay 0
		le.PutUint64(b[0:], info.HostBytes)
		le.PutUint64(b[16:], info.MediaBytes)
		le.PutUint64(b[32:], info.ErasedBytes)
		return b, true
	case LogFDPEvents:
		evs := info.HostEvents
		if lsp&1 != 0 {
			evs = info.CtrlEvents
		}
		b := make([]byte, fdpEventSize*(1+fdpEventsMax))
		le.PutUint32(b[0:], uint32(len(evs)))
		for i, e := range evs {
			d := b[fdpEventSize*(i+1):]
			d[0] = e.Type
			if e.PID != NoPlacementID {
				d[1] |= fdpEventFlagPIDValid
				le.PutUint16(d[2:], e.PID)
			}
			ms := uint64(e.At / sim.Millisecond)
			for k := range 6 { // the timestamp's 48 bits of milliseconds
				d[4+k] = byte(ms >> (8 * k))
			}
			if e.NSID != 0 {
				d[1] |= fdpEventFlagNSIDValid
				le.PutUint32(d[12:], e.NSID)
			}
			if e.Type == EventMediaReallocated {
				// Event Type Specific information, bytes 16–31 (libnvme struct
				// nvme_fdp_event_realloc): flags (bit 0 LBA valid), NLBAM at 2, LBA at 4.
				d[16] = fdpReallocFlagLBAValid
				le.PutUint16(d[18:], e.NLBAM)
				le.PutUint64(d[20:], e.LBA)
			}
			le.PutUint16(d[32:], e.RGID)
			d[34] = byte(e.RUHID)
		}
		return b, true
	}
	return nil, false
}

// NoPlacementID marks an FDP event that carries no placement identifier (package nvme).
const NoPlacementID = nvme.NoPlacementID

// FDPLog returns the FDP log page lid (LSP lsp) as the controller would DMA it, and false
// if the controller has no FDP or lid is not an FDP log page. Like HealthLog, it is read
// for reports with no link traffic.
func (c *Controller) FDPLog(lid, lsp uint8) ([]byte, bool) { return c.fdpLog(lid, lsp) }

// ParseFDPStats decodes an FDP Statistics log page (the counters' low 64 bits).
func ParseFDPStats(b []byte) (hbmw, mbmw, mbe uint64) {
	if len(b) < fdpStatsSize {
		return 0, 0, 0
	}
	le := binary.LittleEndian
	return le.Uint64(b[0:]), le.Uint64(b[16:]), le.Uint64(b[32:])
}

// Placement directives in a Write (NVM Command Set Specification 1.1, Write command: CDW12
// DTYPE bits 23:20, CDW13 DSPEC bits 31:16; Linux NVME_RW_DTYPE_DPLCMT).
const DTypeDataPlacement uint8 = 0x2

// PlacementID returns the placement identifier a Write carries (DSPEC) and whether it
// carries one (DTYPE 2h, data placement).
func (e *SQE) PlacementID() (uint16, bool) {
	if e.DTYPE() != DTypeDataPlacement {
		return 0, false
	}
	return e.DSPEC(), true
}

// SetPlacementID makes a Write carry placement identifier pid (DTYPE 2h, DSPEC pid).
func (e *SQE) SetPlacementID(pid uint16) {
	e.SetDTYPE(DTypeDataPlacement)
	e.SetDSPEC(pid)
}

// Reclaim Unit Handle Status and the I/O Management operations (package nvme).
const (
	IOMgmtReclaimUnitStatus = nvme.IOMgmtReclaimUnitStatus
	IOMgmtReclaimUnitUpdate = nvme.IOMgmtReclaimUnitUpdate
	RUHStatusHeader         = nvme.RUHStatusHeader
	RUHStatusDesc           = nvme.RUHStatusDesc
)

// RUHStatus is one descriptor of the Reclaim Unit Handle Status (package nvme).
type RUHStatus = nvme.RUHStatus

// MarshalRUHStatus returns the Reclaim Unit Handle Status data structure of ds (nvme.MarshalRUHStatus).
func MarshalRUHStatus(ds []RUHStatus) []byte { return nvme.MarshalRUHStatus(ds) }

// ParseRUHStatus decodes a Reclaim Unit Handle Status data structure (nvme.ParseRUHStatus).
func ParseRUHStatus(b []byte) []RUHStatus { return nvme.ParseRUHStatus(b) }
