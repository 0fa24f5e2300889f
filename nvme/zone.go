package nvme

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The Zoned Namespace command set's data (NVM Express Zoned Namespace Command Set
// Specification 1.1, "I/O Commands for the Zoned Namespace Command Set"; the constants as
// Linux's include/linux/nvme.h and libnvme's nvme_zns_* name them): zone states, the zone
// actions of Zone Management Send and Receive, and the Report Zones data structure.

// ZoneState is a zone's state as the Zone Descriptor's ZS field (byte 1 bits 7:4) encodes
// it (ZNS 1.1 "Zone Descriptor Data Structure"; the state machine is "Zone State Machine").
type ZoneState uint8

// Zone states.
const (
	ZoneEmpty    ZoneState = 0x1 // ZSE
	ZoneImplOpen ZoneState = 0x2 // ZSIO: opened by a write
	ZoneExplOpen ZoneState = 0x3 // ZSEO: opened by Zone Management Send, Open Zone
	ZoneClosed   ZoneState = 0x4 // ZSC
	ZoneReadOnly ZoneState = 0xD // ZSRO
	ZoneFull     ZoneState = 0xE // ZSF
	ZoneOffline  ZoneState = 0xF // ZSO
)

// String returns the state's name in the specification.
func (s ZoneState) String() string {
	switch s {
	case ZoneEmpty:
		return "Empty"
	case ZoneImplOpen:
		return "Implicitly Opened"
	case ZoneExplOpen:
		return "Explicitly Opened"
	case ZoneClosed:
		return "Closed"
	case ZoneReadOnly:
		return "Read Only"
	case ZoneFull:
		return "Full"
	case ZoneOffline:
		return "Offline"
	}
	return fmt.Sprintf("ZoneState(%#x)", uint8(s))
}

// Open reports whether the state holds an open resource (ZSIO or ZSEO).
func (s ZoneState) Open() bool { return s == ZoneImplOpen || s == ZoneExplOpen }

// Active reports whether the state holds an active resource (ZSIO, ZSEO or ZSC).
func (s ZoneState) Active() bool { return s.Open() || s == ZoneClosed }

// Zone Send Actions (Zone Management Send CDW13 bits 7:0) and Select All (CDW13 bit 8).
const (
	ZoneActionClose   uint8  = 0x01
	ZoneActionFinish  uint8  = 0x02
	ZoneActionOpen    uint8  = 0x03
	ZoneActionReset   uint8  = 0x04
	ZoneActionOffline uint8  = 0x05
	ZoneSelectAll     uint32 = 1 << 8
)

// Zone Receive Action (Zone Management Receive CDW13 bits 7:0), its reporting options
// (ZRAS, bits 15:8) and Partial Report (bit 16).
const (
	ZoneReportZones    uint8  = 0x00
	ZoneReportAll      uint8  = 0x00
	ZonePartialReport  uint32 = 1 << 16
	ZoneDescriptorSize        = 64  // bytes a Zone Descriptor
	ZoneReportHeader          = 64  // bytes before the first descriptor
	ZoneTypeSeqWrite   uint8  = 0x2 // ZT: Sequential Write Required
)

// ZoneReportFilter returns the zone state a reporting option selects, and false for 0h
// (all zones). Options 1h … 7h list the zones in ZSE, ZSIO, ZSEO, ZSC, ZSF, ZSRO and ZSO.
func ZoneReportFilter(zras uint8) (ZoneState, bool, error) {
	states := [...]ZoneState{0, ZoneEmpty, ZoneImplOpen, ZoneExplOpen, ZoneClosed, ZoneFull, ZoneReadOnly, ZoneOffline}
	if int(zras) >= len(states) {
		return 0, false, fmt.Errorf("nvme: zone receive action specific field %#x is reserved", zras)
	}
	return states[zras], zras != 0, nil
}

// ZoneDescriptor is one zone as Report Zones returns it: its type is always Sequential
// Write Required; capacity, start and write pointer are in logical blocks.
type ZoneDescriptor struct {
	State ZoneState
	Cap   uint64 // ZCAP
	Start uint64 // ZSLBA
	WP    uint64 // write pointer
}

// MarshalZoneReport encodes a Report Zones data buffer of n bytes: the header's Number of
// Zones (bytes 7:0; with Partial Report the descriptors returned, otherwise all the zones
// matching, total) then as many 64-byte descriptors as fit: ZT in byte 0 bits 3:0, ZS in
// byte 1 bits 7:4, ZCAP bytes 15:8, ZSLBA 23:16, WP 31:24.
func MarshalZoneReport(ds []ZoneDescriptor, total uint64, partial bool, n int) []byte {
	out := make([]byte, n)
	fit := 0
	if n > ZoneReportHeader {
		fit = min(len(ds), (n-ZoneReportHeader)/ZoneDescriptorSize)
	}
	count := total
	if partial {
		count = uint64(fit)
	}
	if n >= 8 {
		binary.LittleEndian.PutUint64(out, count)
	}
	for i := range fit {
		d := out[ZoneReportHeader+i*ZoneDescriptorSize:]
		d[0] = ZoneTypeSeqWrite
		d[1] = uint8(ds[i].State) << 4
		binary.LittleEndian.PutUint64(d[8:], ds[i].Cap)
		binary.LittleEndian.PutUint64(d[16:], ds[i].Start)
		binary.LittleEndian.PutUint64(d[24:], ds[i].WP)
	}
	return out
}

// ParseZoneReport decodes a Report Zones data buffer: the header's count and the
// descriptors in it (at most what the buffer holds and the count says).
func ParseZoneReport(b []byte) (count uint64, ds []ZoneDescriptor, err error) {
	if len(b) < ZoneReportHeader {
		return 0, nil, errors.New("nvme: Report Zones data shorter than its 64-byte header")
	}
	count = binary.LittleEndian.Uint64(b)
	n := min(uint64((len(b)-ZoneReportHeader)/ZoneDescriptorSize), count)
	for i := range int(n) {
		d := b[ZoneReportHeader+i*ZoneDescriptorSize:]
		if d[0]&0xF != ZoneTypeSeqWrite {
			return 0, nil, fmt.Errorf("nvme: zone descriptor %d has zone type %#x, not Sequential Write Required", i, d[0]&0xF)
		}
		ds = append(ds, ZoneDescriptor{State: ZoneState(d[1] >> 4), Cap: binary.LittleEndian.Uint64(d[8:]),
			Start: binary.LittleEndian.Uint64(d[16:]), WP: binary.LittleEndian.Uint64(d[24:])})
	}
	return count, ds, nil
}
