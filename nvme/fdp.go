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
