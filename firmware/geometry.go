package firmware

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
)

// ValidateGeometry reports what New would refuse about a valid spec on channels ×
// diesPerChannel dies of ds, before anything is built: the FTL's geometry limits (32-bit
// physical page numbers, at most 65,535 pages a block), its configuration against the
// geometry (GC threshold below the blocks of a plane, the LSB-only region leaving room for
// GC, over-provisioning) and the logical page count. Each error names its field path
// (flash.* for the geometry, firmware.ftl.* for the FTL's settings).
func (s Spec) ValidateGeometry(ds hal.DieSpec, channels, diesPerChannel int) error {
	g := ftl.GeometryOf(channels, diesPerChannel, ds)
	var errs []error
	for _, e := range leaves(g.Validate()) {
		msg, _ := strings.CutPrefix(e.Error(), "ftl geometry: ")
		errs = append(errs, fmt.Errorf("flash: %s (%d channels × %d dies × %d planes × %d blocks × %d pages)",
			msg, channels, diesPerChannel, ds.Planes, ds.BlocksPerPlane, ds.PagesPerBlock))
	}
	// Factory bad blocks may all fall on one plane: it must still keep more good blocks
	// than the GC threshold (New refuses the draw otherwise).
	if fb, c := ds.FactoryBad, s.ftlConfig(g); fb > 0 && ds.BlocksPerPlane-fb <= c.GCStart() {
		errs = append(errs, fmt.Errorf("flash.die.faults.factory_bad: %d bad blocks a die may all fall on one plane of %d blocks, leaving %d, not more than firmware.ftl.gc_threshold (%d)%s",
			fb, ds.BlocksPerPlane, ds.BlocksPerPlane-fb, s.FTL.GCThreshold, holdupNote(c.HoldupReserve, c.GCStart())))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// The FTL's settings against the geometry (ftl.Config.Validate, which also refuses an
	// over-provisioning that leaves no logical page).
	if err := s.ValidateFTL(g); err != nil {
		return err
	}
	// Every die draws the same count of factory bad blocks: they must fit its spare pool
	// (scanFactoryBad refuses them otherwise).
	if fb, pool := ds.FactoryBad, s.FTL.SparePool(g); fb > pool {
		return factoryBadError(fb, pool, ds.Planes*ds.BlocksPerPlane)
	}
	return nil
}

// leaves returns the errors joined in err (err itself if it is not a join), nil for nil.
func leaves(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// ValidatePrecondition reports whether Precondition(fill, overwrite, …) will find room on
// channels × diesPerChannel dies of ds (ftl.PreconditionRoom), for a spec and geometry
// ValidateGeometry accepts; the error names the precondition fields and the numbers.
func (s Spec) ValidatePrecondition(ds hal.DieSpec, channels, diesPerChannel int, fill, overwrite float64) error {
	g := ftl.GeometryOf(channels, diesPerChannel, ds)
	if fill <= 0 {
		return nil
	}
	writes, room := ftl.PreconditionRoom(g, s.ftlConfig(g), fill, overwrite)
	bad := int64(ds.FactoryBad) * int64(g.Dies()) * int64(g.PagesPerBlock) * int64(g.Units()) // never written
	if writes > room-bad {
		w, r := "page writes", "pages"
		if g.Units() > 1 {
			w, r = "mapping-unit writes", "mapping units"
		}
		return fmt.Errorf("precondition.fill (%v) and precondition.overwrite (%v): %d %s need more than the %d %s outside the GC reserve (firmware.ftl.gc_threshold, the LSB-only region%s) and the factory bad blocks (flash.die.faults.factory_bad)",
			fill, overwrite, writes, w, room-bad, r, holdupNote(HoldupReserve(s, g), s.ftlConfig(g).GCStart()))
	}
	return nil
}

// UnitsPerPage returns how many mapping units (firmware.page_size) a flash page of
// pageSize bytes holds, k = 1, 2 or 4 (sub-page mapping: 4 KiB units in 4, 8 or 16 KiB
// pages), or why the two sizes cannot be used together, naming firmware.page_size. k above
// 4 is refused (our bound, ftl.MaxUnitsPerPage): 16 KiB is the page of die.DefaultSpec's
// TLC die and the largest any preset or the MQSim importer produces; a 32 KiB page would
// be a one-line change of the bound, untested.
func (s Spec) UnitsPerPage(pageSize int) (int, error) {
	if s.PageSize <= 0 || pageSize < s.PageSize || pageSize%s.PageSize != 0 {
		return 0, fmt.Errorf("firmware.page_size: %d does not divide the flash page size %d (flash.die.page_size)", s.PageSize, pageSize)
	}
	k := pageSize / s.PageSize
	if k != 1 && k != 2 && k != ftl.MaxUnitsPerPage {
		return 0, fmt.Errorf("firmware.page_size: %d-byte mapping units in %d-byte flash pages are %d a page; sub-page mapping packs 1, 2 or 4",
			s.PageSize, pageSize, k)
	}
	return k, nil
}

// unitsPerPage is Spec.UnitsPerPage for the dies of spec ds, which must keep one
// out-of-band stamp per unit (hal.DieSpec.StampsPerPage).
func unitsPerPage(spec Spec, ds hal.DieSpec) (int, error) {
	k, err := spec.UnitsPerPage(ds.PageSize)
	if err != nil {
		return 0, err
	}
	if ds.StampsPerPage != k {
		return 0, fmt.Errorf("firmware: the flash dies keep %d out-of-band stamps a page, the firmware packs %d mapping units into one (die.Spec.Slots must be %d)",
			ds.StampsPerPage, k, k)
	}
	return k, nil
}
