package nvme

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/enum"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// MaxNamespaces bounds the namespaces one controller exports (Identify Controller NN). The
// specification allows 2^32 − 2; 16 is this model's bound, enough for a tenant per core of
// any preset, and it keeps the per-namespace statistics of a run readable.
const MaxNamespaces = 16

// NSType is a namespace's I/O command set: the NVM command set (conventional, CSI 00h) or
// the Zoned Namespace command set (CSI 02h, NVM Express Zoned Namespace Command Set
// Specification 1.1).
type NSType uint8

// Namespace types. The zero value is conventional.
const (
	NSConventional NSType = iota // NVM command set: any LBA may be written at any time
	NSZoned                      // Zoned Namespace command set: zones written at their write pointer
)

// CSI returns the command set identifier of the type (NVMe Base Specification 2.1,
// "Command Set Identifier": 00h NVM, 02h Zoned Namespace).
func (t NSType) CSI() uint8 {
	if t == NSZoned {
		return 0x02
	}
	return 0x00
}

var nsTypeNames = [...]string{"conventional", "zoned"}

// String returns the configuration name of the type.
func (t NSType) String() string { return enum.Name(nsTypeNames[:], "NSType", t) }

// MarshalText implements encoding.TextMarshaler.
func (t NSType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: "conventional" or "zoned".
func (t *NSType) UnmarshalText(b []byte) error {
	if v, ok := enum.Parse[NSType](nsTypeNames[:], string(b)); ok {
		*t = v
		return nil
	}
	return fmt.Errorf("namespace type %q is not one of conventional, zoned", b)
}

// NamespaceInfo is what the firmware reports of one namespace, for Identify Namespace and
// the host's set-up: its size and use in logical blocks and, for a zoned namespace, its
// zones.
type NamespaceInfo struct {
	Blocks  uint64 // NSZE = NCAP: the namespace's logical blocks
	Used    uint64 // NUSE: logical blocks holding data (mapped)
	LBASize int
	Type    NSType
	// Zoned namespaces: zone size and capacity in logical blocks, the number of zones, and
	// the open and active limits (0: none).
	ZoneBlocks, ZoneCap uint64
	Zones               uint64
	MaxOpen, MaxActive  int
}

// Namespace is one namespace of the controller, in the configuration: NSID i+1 is entry i
// of the controller's Spec.Namespaces (nvmectrl). The firmware carves the namespaces out of
// its logical space in order, each a contiguous range of logical pages (a namespace's LBA 0 is the first byte of its
// range), as an FTL's namespace table does.
type Namespace struct {
	// Size is the namespace's capacity in bytes, a multiple of the firmware's mapping unit
	// (4096) and, for a zoned namespace, of its zone size. 0 gives the namespace an equal
	// share of what the sized namespaces leave (whole zones for a zoned one).
	Size sim.Size `yaml:"size,omitempty"`
	// LBASize is the namespace's logical block size, its LBA format: 512 (LBA format 0) or
	// 4096 (LBA format 1). 0 means nvme.lba_size.
	LBASize int `yaml:"lba_size,omitempty"`
	// Type is the namespace's command set: conventional (default) or zoned.
	Type NSType `yaml:"type,omitempty"`
	// Zones configures a zoned namespace (ignored otherwise).
	Zones ZoneSpec `yaml:"zones,omitempty"`
	// PlacementHandles is the namespace's placement handle list under Flexible Data
	// Placement (nvme.fdp): placement handle i of the namespace references reclaim unit
	// handle PlacementHandles[i]. Empty gives the namespace every reclaim unit handle, in
	// order (placement handle i = reclaim unit handle i).
	PlacementHandles []int `yaml:"placement_handles,omitempty"`
}

// ZoneSpec configures a zoned namespace. A zone is mapped onto Blocks erase blocks, one on
// each of Blocks consecutive (die, plane) pairs in the firmware's channel-first order, so
// its capacity is Blocks × pages a block × the page size; the zone size is the smallest
// power of two of logical blocks holding the capacity, as Linux requires of a zoned block
// device's zones (drivers/nvme/host/zns.c refuses a zone size that is not a power of two).
type ZoneSpec struct {
	// Blocks is the number of erase blocks a zone spans (its stripe): 1 … dies × planes.
	// 0 means dies × planes, a superblock of one block on every plane.
	Blocks int `yaml:"blocks,omitempty"`
	// MaxOpen and MaxActive are the Maximum Open Resources and Maximum Active Resources
	// (Identify Namespace for the Zoned Namespace command set, MOR and MAR, reported 0's
	// based): how many zones may be open (implicitly or explicitly), and open or closed, at
	// once. 0 means no limit.
	MaxOpen   int `yaml:"max_open,omitempty"`
	MaxActive int `yaml:"max_active,omitempty"`
}
