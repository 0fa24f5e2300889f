package nvme

import (
	"encoding/binary"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/enum"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flexible Data Placement's data (TP4146, folded into NVMe Base Specification 2.1,
// "Flexible Data Placement"; layouts as libnvme's struct nvme_fdp_* and Linux's
// include/linux/nvme.h): reclaim unit handle types, FDP events, what the firmware reports
// for the FDP log pages, and the Reclaim Unit Handle Status data structure.

// MaxReclaimUnitHandles bounds the reclaim unit handles of the FDP configuration (NRUH).
// The specification allows 65,535 (fio keeps at most 128); 16 is this model's bound, which
// keeps the per-handle statistics of a run readable.
const MaxReclaimUnitHandles = 16

// Isolation is a reclaim unit handle's type (FDP Configurations log page, Reclaim Unit
// Handle Descriptor RUHT: 01h initially isolated, 02h persistently isolated).
type Isolation uint8

// Reclaim unit handle types. The zero value is initially isolated.
const (
	InitiallyIsolated    Isolation = iota // RUHT 01h
	PersistentlyIsolated                  // RUHT 02h
)

// RUHT returns the type's Reclaim Unit Handle Type code.
func (i Isolation) RUHT() uint8 { return uint8(i) + 1 }

var isolationNames = [...]string{"initially", "persistently"}

// String returns the configuration name of the type.
func (i Isolation) String() string { return enum.Name(isolationNames[:], "Isolation", i) }

// MarshalText implements encoding.TextMarshaler.
func (i Isolation) MarshalText() ([]byte, error) { return []byte(i.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: "initially" or "persistently".
func (i *Isolation) UnmarshalText(b []byte) error {
	if v, ok := enum.Parse[Isolation](isolationNames[:], string(b)); ok {
		*i = v
		return nil
	}
	return fmt.Errorf("isolation %q is not one of initially, persistently", b)
}

// FDP event types (FDP Events log page; libnvme enum nvme_fdp_event_type): host events
// below 80h, controller events from 80h.
const (
	EventRUNotFullyWritten     uint8 = 0x00
	EventRUTimeLimitExceeded   uint8 = 0x01
	EventResetModifiedHandles  uint8 = 0x02
	EventInvalidPlacementID    uint8 = 0x03
	EventMediaReallocated      uint8 = 0x80
	EventImplicitlyModifiedRUH uint8 = 0x81
)

// FDPEvent is one event of the FDP Events log page.
type FDPEvent struct {
	Type  uint8
	PID   uint16 // the placement identifier, for events that carry one
	NSID  uint32
	RUHID uint16
	RGID  uint16   // the reclaim group
	At    sim.Time // when it happened (the timestamp field, in ms)
	// Media Reallocated (80h) only, its Event Type Specific information: the number of
	// logical blocks moved (NLBAM) and the first of them (LBA, always valid here).
	NLBAM uint16
	LBA   uint64
}

// FDPInfo is what the firmware reports for the FDP log pages.
type FDPInfo struct {
	RUSize                 uint64 // the reclaim unit nominal size, bytes (RUNS)
	VolatileCache          bool   // FDPVWC: data written may sit in a volatile write cache
	Types                  []Isolation
	Used                   []bool // per reclaim unit handle: some namespace's placement handle references it
	HostBytes, MediaBytes  uint64 // HBMW and MBMW
	ErasedBytes            uint64 // MBE
	HostEvents, CtrlEvents []FDPEvent
}

// NoPlacementID marks an FDP event that carries no placement identifier.
const NoPlacementID = 0xFFFF

// Reclaim Unit Handle Status (I/O Management Receive, Management Operation 01h; libnvme
// struct nvme_fdp_ruh_status): a 16-byte header whose last two bytes count the
// descriptors, then one 32-byte descriptor a placement handle of the namespace: PID,
// RUHID, EARUTR (estimated active RU time remaining, s; 0 = not reported) and RUAMW
// (logical blocks the current reclaim unit can still take).
const (
	IOMgmtReclaimUnitStatus uint8 = 0x01 // MO of I/O Management Receive
	IOMgmtReclaimUnitUpdate uint8 = 0x01 // MO of I/O Management Send
	RUHStatusHeader               = 16
	RUHStatusDesc                 = 32
)

// RUHStatus is one descriptor of the Reclaim Unit Handle Status.
type RUHStatus struct {
	PID, RUHID uint16
	RUAMW      uint64
}

// MarshalRUHStatus returns the Reclaim Unit Handle Status data structure of ds.
func MarshalRUHStatus(ds []RUHStatus) []byte {
	b := make([]byte, RUHStatusHeader+RUHStatusDesc*len(ds))
	le := binary.LittleEndian
	le.PutUint16(b[14:], uint16(len(ds)))
	for i, d := range ds {
		o := b[RUHStatusHeader+RUHStatusDesc*i:]
		le.PutUint16(o[0:], d.PID)
		le.PutUint16(o[2:], d.RUHID)
		le.PutUint64(o[8:], d.RUAMW)
	}
	return b
}

// ParseRUHStatus decodes a Reclaim Unit Handle Status data structure.
func ParseRUHStatus(b []byte) []RUHStatus {
	le := binary.LittleEndian
	if len(b) < RUHStatusHeader {
		return nil
	}
	n := int(le.Uint16(b[14:]))
	var out []RUHStatus
	for i := 0; i < n && RUHStatusHeader+RUHStatusDesc*(i+1) <= len(b); i++ {
		o := b[RUHStatusHeader+RUHStatusDesc*i:]
		out = append(out, RUHStatus{PID: le.Uint16(o[0:]), RUHID: le.Uint16(o[2:]), RUAMW: le.Uint64(o[8:])})
	}
	return out
}

// FDP configures Flexible Data Placement on the controller's one endurance group. With it,
// a write whose DTYPE (CDW12 bits 23:20) is 2h (Data Placement) carries a placement
// identifier in DSPEC (CDW13 bits 31:16): its RGIF most significant bits are the reclaim
// group identifier and the rest the placement handle (TP4146, "Placement Identifier";
// the configuration descriptor's FDP Attributes bits 3:0, RGIF). With one reclaim group
// RGIF is 0 and the placement identifier is the placement handle.
type FDP struct {
	// Enabled turns Flexible Data Placement on (the FDP feature's FDPE, configuration 0).
	Enabled bool `yaml:"enabled,omitempty"`
	// Handles is the number of reclaim unit handles, NRUH: 1 … MaxReclaimUnitHandles.
	// 0 means DefaultReclaimUnitHandles (8).
	Handles int `yaml:"handles,omitempty"`
	// Isolation is every reclaim unit handle's type: initially (default) or persistently.
	Isolation Isolation `yaml:"isolation,omitempty"`
	// ReclaimGroups is NRG: 1 … MaxReclaimGroups (0: 1). Each group is an equal share of
	// the dies (the firmware refuses a count that does not divide them), with its own
	// reclaim unit per handle.
	ReclaimGroups int `yaml:"reclaim_groups,omitempty"`
	// ReclaimGroupDies, if given, sizes the reclaim groups instead: group g has
	// ReclaimGroupDies[g] dies (the firmware checks they add up to the drive's), so groups
	// of different sizes have reclaim units of different sizes. NRG is its length
	// (reclaim_groups, if also given, must equal it).
	ReclaimGroupDies []int `yaml:"reclaim_group_dies,omitempty"`
	// RUTimeLimit is ERUTL, the reclaim unit time limit, in whole seconds (0: none): a
	// reclaim unit still not fully written that long after its first write is closed and
	// its handle moved to a fresh one, with the Reclaim Unit Time Limit Exceeded event.
	RUTimeLimit sim.Time `yaml:"ru_time_limit,omitempty"`
}

// MaxReclaimGroups bounds NRG (RGIF at most 6 bits; the FTL's group tags are bytes).
const MaxReclaimGroups = 64

// Groups returns NRG: the number of ReclaimGroupDies if given, else ReclaimGroups, or 1
// if it is 0.
func (f FDP) Groups() int {
	if len(f.ReclaimGroupDies) > 0 {
		return len(f.ReclaimGroupDies)
	}
	return max(f.ReclaimGroups, 1)
}

// RGIF returns the reclaim group identifier format: the bits of a placement identifier
// that name the reclaim group, the fewest that count Groups (0 for one group).
func (f FDP) RGIF() int {
	n := 0
	for 1<<n < f.Groups() {
		n++
	}
	return n
}

// PID returns the placement identifier of reclaim group rg and placement handle ph.
func (f FDP) PID(rg, ph int) uint16 {
	if f.RGIF() == 0 {
		return uint16(ph)
	}
	return uint16(rg<<(16-f.RGIF()) | ph)
}

// SplitPID returns the reclaim group and placement handle placement identifier pid names.
func (f FDP) SplitPID(pid uint16) (rg, ph int) {
	b := f.RGIF()
	if b == 0 {
		return 0, int(pid)
	}
	return int(pid >> (16 - b)), int(pid & (1<<(16-b) - 1))
}

// DefaultReclaimUnitHandles is NRUH when FDP.Handles is 0.
const DefaultReclaimUnitHandles = 8

// NRUH returns the configured number of reclaim unit handles: Handles, or
// DefaultReclaimUnitHandles if it is 0, whether or not FDP is enabled.
func (f FDP) NRUH() int {
	if f.Handles == 0 {
		return DefaultReclaimUnitHandles
	}
	return f.Handles
}

// ReclaimUnitHandles returns NRUH: FDP.Handles, or 8 if it is 0; 0 when FDP is off.
func (f FDP) ReclaimUnitHandles() int {
	if !f.Enabled {
		return 0
	}
	return f.NRUH()
}
