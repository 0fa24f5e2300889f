package nvme

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/enum"
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
