package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
)

// The namespace table: each namespace of the controller (hal.HostSpec.Namespaces, NSID
// i+1 at index i) is a contiguous range of the FTL's logical pages, carved in order from
// page 0, as an SSD's namespace management keeps a table of (start, length) in its logical
// space. A command's LBA is turned into a logical page by the namespace's LBA size and
// start; the map, buffer, GC and power-loss recovery see only logical pages. Logical pages
// no namespace holds are never written (over-provisioning in effect). With no namespaces
// configured there is one, the whole logical space, as before namespaces were modelled.

// fwNamespace is one entry of the namespace table.
type fwNamespace struct {
	nsid    uint32
	base    int64 // first logical page
	pages   int64 // logical pages
	lbaSize int
	typ     nvme.NSType
	stats   NSStats
	ph      []uint8    // FDP: placement handle i references reclaim unit handle ph[i] (fdp.go)
	zns     *zoneTable // a zoned namespace's zones (zns.go), nil for a conventional one
}

// NSStats are one namespace's host commands and pages.
type NSStats struct {
	Reads, Writes         int64 // commands
	ReadPages, WritePages int64 // logical pages the commands covered (4 KiB each)
}

// nsExtent is where a namespace lies in the logical space.
type nsExtent struct{ base, pages int64 }

// layoutNamespaces carves the logical space of logical pages into list's namespaces (in
// pages of pageSize bytes): a sized namespace takes Size / pageSize pages; the unsized ones
// share what is left equally, each rounded down to whole zones (zonePages(i), 1 for a
// conventional namespace). It reports every namespace that does not fit, naming its field.
func layoutNamespaces(list []nvme.Namespace, logical int64, pageSize int, zonePages func(i int) int64) ([]nsExtent, error) {
	out := make([]nsExtent, len(list))
	var sized int64
	unsized := 0
	var errs []error
	for i, ns := range list {
		z := zonePages(i)
		if ns.Size == 0 {
			unsized++
			continue
		}
		p := int64(ns.Size) / int64(pageSize)
		if p%z != 0 {
			errs = append(errs, fmt.Errorf("nvme.namespaces[%d].size: %d bytes is not a whole number of %d-byte zones", i, int64(ns.Size), z*int64(pageSize)))
		}
		out[i].pages = p
		sized += p
	}
	if sized > logical {
		errs = append(errs, fmt.Errorf("nvme.namespaces: the sized namespaces need %d logical pages of %d bytes; the FTL exports %d (firmware.ftl.over_provisioning)",
			sized, pageSize, logical))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if unsized > 0 {
		share := (logical - sized) / int64(unsized)
		for i, ns := range list {
			if ns.Size != 0 {
				continue
			}
			z := zonePages(i)
			out[i].pages = share / z * z
			if out[i].pages == 0 {
				errs = append(errs, fmt.Errorf("nvme.namespaces[%d]: no room left for it (%d logical pages shared by %d namespaces without a size)", i, logical-sized, unsized))
			}
		}
	}
	var base int64
	for i := range out {
		out[i].base = base
		base += out[i].pages
	}
	return out, errors.Join(errs...)
}

// buildNamespaces fills f.ns from the controller's namespace list.
func (f *Firmware) buildNamespaces(list []nvme.Namespace) error {
	ext, err := layoutZoned(list, f.ftl.LogicalPages(), f.spec.PageSize, f.geo.Dies()*f.geo.Planes, f.geo.PagesPerBlock)
	if err != nil {
		return err
	}
	f.ns = make([]fwNamespace, len(list))
	for i, ns := range list {
		f.ns[i] = fwNamespace{nsid: uint32(i + 1), base: ext[i].base, pages: ext[i].pages, lbaSize: ns.LBASize, typ: ns.Type}
	}
	return f.addZones(list)
}

// layoutZoned is layoutNamespaces with each zoned namespace checked (validateZoned) and
// sized in whole zones.
func layoutZoned(list []nvme.Namespace, logical int64, pageSize, planes, pagesPerBlock int) ([]nsExtent, error) {
	var errs []error
	for i, ns := range list {
		if ns.Type == nvme.NSZoned {
			if err := validateZoned(i, ns, planes, pageSize); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return layoutNamespaces(list, logical, pageSize, func(i int) int64 {
		if list[i].Type != nvme.NSZoned {
			return 1
		}
		_, _, size := zoneGeometry(list[i].Zones, planes, pagesPerBlock)
		return size
	})
}

// ValidateNamespaces reports what New would refuse about the namespaces of the host
// interface hs on channels × diesPerChannel dies of ds with this firmware spec: namespaces
// that do not fit the logical space, and FDP reclaim groups that do not share out the dies,
// each error naming its field. The spec and geometry must be valid.
func (s Spec) ValidateNamespaces(hs hal.HostSpec, ds hal.DieSpec, channels, diesPerChannel int) error {
	g := ftl.GeometryOf(channels, diesPerChannel, ds)
	if hs.FDP.Enabled {
		if err := placementGroupsFit(hs.FDP, g.Dies()); err != nil {
			return err
		}
	}
	_, err := layoutZoned(hs.Namespaces, s.FTL.LogicalPages(g), s.PageSize, g.Dies()*g.Planes, g.PagesPerBlock)
	return err
}

// nsOf returns the namespace a command addresses (its NSID), or nil for an NSID that names
// none (the controller refuses those before they reach the firmware; a port that does not
// gets Invalid Namespace from the HIL).
func (f *Firmware) nsOf(cmd *hal.HostCmd) *fwNamespace {
	if id := cmd.NSID - 1; id < uint32(len(f.ns)) {
		return &f.ns[id]
	}
	return nil
}

// NamespaceInfo implements hal.HostReports: the namespace's size in logical
// blocks and how many of them hold data (mapped in the FTL or in the write buffer).
func (f *Firmware) NamespaceInfo(nsid uint32) (nvme.NamespaceInfo, bool) {
	if nsid == 0 || nsid > uint32(len(f.ns)) {
		return nvme.NamespaceInfo{}, false
	}
	ns := &f.ns[nsid-1]
	per := int64(f.spec.PageSize / ns.lbaSize)
	// The pages mapped in the FTL, and those only in the buffer: counted from the blocks
	// and the buffer's slots, not by a scan of the namespace's whole map (ftl.MappedIn).
	lo, hi := ns.base, ns.base+ns.pages
	used := f.ftl.MappedIn(lo, hi)
	f.buf.Held(func(lpn int64) {
		if lpn >= lo && lpn < hi && f.ftl.Lookup(lpn) == ftl.NoUnit {
			used++
		}
	})
	info := nvme.NamespaceInfo{Blocks: uint64(ns.pages * per), Used: uint64(used * per), LBASize: ns.lbaSize, Type: ns.typ}
	ns.zoneNamespaceInfo(&info)
	return info, true
}

// Namespaces returns how many namespaces the firmware serves.
func (f *Firmware) Namespaces() int { return len(f.ns) }

// NamespacePages returns the logical pages (4 KiB) of namespace nsid, 0 if there is none.
func (f *Firmware) NamespacePages(nsid uint32) int64 {
	if nsid == 0 || nsid > uint32(len(f.ns)) {
		return 0
	}
	return f.ns[nsid-1].pages
}

// NamespaceBase returns the first logical page of namespace nsid in the FTL's logical space
// (for checks that look at the map directly), 0 if there is none.
func (f *Firmware) NamespaceBase(nsid uint32) int64 {
	if nsid == 0 || nsid > uint32(len(f.ns)) {
		return 0
	}
	return f.ns[nsid-1].base
}

// NamespaceStats returns the host commands and pages of namespace nsid so far.
func (f *Firmware) NamespaceStats(nsid uint32) NSStats {
	if nsid == 0 || nsid > uint32(len(f.ns)) {
		return NSStats{}
	}
	return f.ns[nsid-1].stats
}
