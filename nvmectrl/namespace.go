package nvmectrl

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvme"
)

// MaxNamespaces bounds the namespaces one controller exports (package nvme).
const MaxNamespaces = nvme.MaxNamespaces

// NSType is a namespace's I/O command set (package nvme).
type NSType = nvme.NSType

// Namespace types (package nvme).
const (
	NSConventional = nvme.NSConventional
	NSZoned        = nvme.NSZoned
)

// Namespace is one namespace of the controller in the configuration (package nvme).
type Namespace = nvme.Namespace

// ZoneSpec configures a zoned namespace (package nvme).
type ZoneSpec = nvme.ZoneSpec

// LBAFormats are the LBA formats every namespace offers (Identify Namespace NLBAF and the
// LBA Format table): format 0 is 512-byte and format 1 4096-byte logical blocks, neither
// with metadata.
var LBAFormats = [...]int{512, 4096}

// lbaFormat returns the index of an LBA size in LBAFormats, or −1.
func lbaFormat(size int) int {
	for i, s := range LBAFormats {
		if s == size {
			return i
		}
	}
	return -1
}

// NamespaceList returns the configured namespaces with their defaults filled in (LBASize
// from s.LBASize): the one whole-capacity namespace of s.LBASize blocks when none is
// configured.
func (s Spec) NamespaceList() []Namespace {
	if len(s.Namespaces) == 0 {
		return []Namespace{{LBASize: s.LBASize}}
	}
	out := make([]Namespace, len(s.Namespaces))
	for i, ns := range s.Namespaces {
		if ns.LBASize == 0 {
			ns.LBASize = s.LBASize
		}
		out[i] = ns
	}
	return out
}

// validateNamespaces reports every problem with the namespace list, each naming its field.
func (s Spec) validateNamespaces() []error {
	var errs []error
	if len(s.Namespaces) > MaxNamespaces {
		errs = append(errs, fmt.Errorf("nvme.namespaces: %d namespaces; at most %d", len(s.Namespaces), MaxNamespaces))
	}
	for i, ns := range s.Namespaces {
		field := fmt.Sprintf("nvme.namespaces[%d]", i)
		if ns.LBASize != 0 && lbaFormat(ns.LBASize) < 0 {
			errs = append(errs, fmt.Errorf("%s.lba_size: %d is not one of the LBA formats 512, 4096", field, ns.LBASize))
		}
		if ns.Size < 0 {
			errs = append(errs, fmt.Errorf("%s.size: %d must not be negative", field, int64(ns.Size)))
		} else if ns.Size%PageSize != 0 {
			errs = append(errs, fmt.Errorf("%s.size: %d is not a multiple of 4096 bytes", field, int64(ns.Size)))
		}
		if ns.Type > NSZoned {
			errs = append(errs, fmt.Errorf("%s.type: %v is not one of conventional, zoned", field, ns.Type))
		}
		z := ns.Zones
		if z.Blocks < 0 || z.MaxOpen < 0 || z.MaxActive < 0 {
			errs = append(errs, fmt.Errorf("%s.zones: blocks (%d), max_open (%d) and max_active (%d) must not be negative",
				field, z.Blocks, z.MaxOpen, z.MaxActive))
		}
		if z.MaxOpen > 0 && z.MaxActive > 0 && z.MaxOpen > z.MaxActive {
			errs = append(errs, fmt.Errorf("%s.zones.max_open: %d exceeds max_active %d (an open zone is active)", field, z.MaxOpen, z.MaxActive))
		}
		if ns.Type != NSZoned && (z != ZoneSpec{}) {
			errs = append(errs, fmt.Errorf("%s.zones: set on a %v namespace; only a zoned one has zones", field, ns.Type))
		}
		for j, h := range ns.PlacementHandles {
			if h < 0 || h >= s.FDP.NRUH() {
				errs = append(errs, fmt.Errorf("%s.placement_handles[%d]: reclaim unit handle %d is not one of the %d of nvme.fdp", field, j, h, s.FDP.NRUH()))
			}
		}
		if len(ns.PlacementHandles) > 0 && !s.FDP.Enabled {
			errs = append(errs, fmt.Errorf("%s.placement_handles: set without nvme.fdp.enabled", field))
		}
		if ns.Type == NSZoned && s.FDP.Enabled {
			errs = append(errs, fmt.Errorf("%s.type: zoned namespaces and Flexible Data Placement (nvme.fdp.enabled) cannot share the endurance group in this model", field))
		}
	}
	return errs
}

// NamespaceInfo is what the firmware reports of one namespace (package nvme).
type NamespaceInfo = nvme.NamespaceInfo

// NamespaceSource is implemented by firmware that keeps a namespace table; the controller
// asks it for Identify Namespace. A controller whose firmware does not has no namespace
// sizes to report (NSZE 0).
type NamespaceSource interface {
	NamespaceInfo(nsid uint32) (NamespaceInfo, bool)
}

// Identify data structures for namespaces (NVMe Base Specification 2.1, Identify command,
// CNS values; offsets as Linux's struct nvme_id_ns and libnvme's nvme_zns_id_ns).
const (
	CNSNamespace       = 0x00 // Identify Namespace data structure for the NVM command set
	CNSActiveNSList    = 0x02 // Active Namespace ID list
	CNSCSNamespace     = 0x05 // I/O Command Set specific Identify Namespace (CDW11 CSI)
	CNSCSController    = 0x06 // I/O Command Set specific Identify Controller (CDW11 CSI)
	IdentifyNSZE       = 0    // NSZE, 8 bytes: namespace size in logical blocks
	IdentifyNCAP       = 8    // NCAP, 8 bytes
	IdentifyNUSE       = 16   // NUSE, 8 bytes
	IdentifyNLBAF      = 25   // NLBAF: number of LBA formats, 0's based
	IdentifyFLBAS      = 26   // FLBAS: bits 3:0 the format in use
	IdentifyENDGID     = 102  // ENDGID, 2 bytes: the namespace's endurance group
	IdentifyLBAF       = 128  // LBA Format 0, 4 bytes each: MS [15:0], LBADS [23:16], RP [25:24]
	ZNSIdentifyMAR     = 4    // Zoned: MAR, 4 bytes, 0's based (FFFFFFFFh: no limit)
	ZNSIdentifyMOR     = 8    // Zoned: MOR, 4 bytes, 0's based
	ZNSIdentifyLBAFE   = 2816 // Zoned: LBA Format Extension 0, 16 bytes each: ZSZE [7:0], ZDES [8]
	ZNSIdentifyZASL    = 0    // Zoned controller: ZASL, Zone Append Size Limit (2^n minimum pages; 0: MDTS)
	noZoneLimit        = 0xFFFFFFFF
	identifyLBAFStride = 4
)

// identifyNamespace builds the Identify Namespace data structure of nsid (CNS 00h) or its
// zoned command set part (CNS 05h, CSI 02h); ok is false for an inactive NSID.
func (c *Controller) identifyNamespace(nsid uint32, zoned bool) (id [IdentifySize]byte, ok bool) {
	ns, ok := c.namespace(nsid)
	if !ok {
		return id, false
	}
	var info NamespaceInfo
	if src, has := c.fw.(NamespaceSource); has {
		info, _ = src.NamespaceInfo(nsid)
	}
	le := func(off int, v uint64, n int) {
		for i := range n {
			id[off+i] = byte(v >> (8 * i))
		}
	}
	if zoned {
		if ns.Type != NSZoned {
			return id, false
		}
		limit := func(n int) uint64 {
			if n == 0 {
				return noZoneLimit
			}
			return uint64(n - 1)
		}
		le(ZNSIdentifyMAR, limit(info.MaxActive), 4)
		le(ZNSIdentifyMOR, limit(info.MaxOpen), 4)
		le(ZNSIdentifyLBAFE+16*lbaFormat(ns.LBASize), info.ZoneBlocks, 8)
		return id, true
	}
	le(IdentifyNSZE, info.Blocks, 8)
	le(IdentifyNCAP, info.Blocks, 8)
	le(IdentifyNUSE, info.Used, 8)
	id[IdentifyNLBAF] = byte(len(LBAFormats) - 1)
	id[IdentifyFLBAS] = byte(lbaFormat(ns.LBASize))
	le(IdentifyENDGID, 1, 2)
	for i, s := range LBAFormats {
		lbads := 0
		for 1<<lbads < s {
			lbads++
		}
		le(IdentifyLBAF+identifyLBAFStride*i, uint64(lbads)<<16, 4)
	}
	return id, true
}

// IdentifyNamespace returns the Identify Namespace data structure of nsid as Identify CNS
// 00h would DMA it, and false for an inactive NSID. Like IdentifyController, the driver
// reads it at set-up with no link traffic.
func (c *Controller) IdentifyNamespace(nsid uint32) ([IdentifySize]byte, bool) {
	return c.identifyNamespace(nsid, false)
}

// IdentifyZonedNamespace returns the Zoned Namespace command set's Identify Namespace data
// structure of nsid (CNS 05h, CSI 02h), and false unless nsid is an active zoned namespace.
func (c *Controller) IdentifyZonedNamespace(nsid uint32) ([IdentifySize]byte, bool) {
	return c.identifyNamespace(nsid, true)
}

// activeNamespaces builds the Active Namespace ID list (CNS 02h): the active NSIDs greater
// than after, ascending, 4 bytes each, the rest zero.
func (c *Controller) activeNamespaces(after uint32) [IdentifySize]byte {
	var id [IdentifySize]byte
	n := 0
	for i := range c.ns {
		if nsid := uint32(i + 1); nsid > after {
			id[4*n], id[4*n+1], id[4*n+2], id[4*n+3] = byte(nsid), byte(nsid>>8), byte(nsid>>16), byte(nsid>>24)
			n++
		}
	}
	return id
}

// namespace returns the namespace of nsid, 1 … len(Namespaces).
func (c *Controller) namespace(nsid uint32) (Namespace, bool) {
	if nsid == 0 || nsid > uint32(len(c.ns)) {
		return Namespace{}, false
	}
	return c.ns[nsid-1], true
}

// Namespaces returns the controller's namespaces, NSID i+1 at index i (Spec.NamespaceList).
func (c *Controller) Namespaces() []Namespace { return c.ns }

// ParseLBAFormat decodes an Identify Namespace data structure's LBA size: the LBADS of the
// format FLBAS selects. It returns an error if the structure is malformed.
func ParseLBAFormat(id []byte) (int, error) {
	if len(id) < IdentifyLBAF+identifyLBAFStride*16 {
		return 0, errors.New("nvmectrl: Identify Namespace data structure too short")
	}
	f := int(id[IdentifyFLBAS] & 0xF)
	if f > int(id[IdentifyNLBAF]) {
		return 0, fmt.Errorf("nvmectrl: FLBAS selects LBA format %d of %d", f, int(id[IdentifyNLBAF])+1)
	}
	return 1 << id[IdentifyLBAF+identifyLBAFStride*f+2], nil
}
