package firmware

import (
	"encoding/binary"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Flexible Data Placement in the firmware (nvme.fdp; NVMe Base Specification 2.1,
// "Flexible Data Placement"). The HIL reads a write's placement identifier (DTYPE 2h,
// DSPEC), splits it into a reclaim group and a placement handle (the RGIF most
// significant bits name the group: nvme.FDP.SplitPID), turns the placement handle
// into a reclaim unit handle through the namespace's placement handle list, and tags each
// page the write puts in the buffer with both (ftl.FTL.PlaceGroup); the FTL places the
// page in the handle's reclaim unit of that group when it is evicted (ftl/placement.go).
// An identifier whose placement handle the namespace lacks, or whose group the
// configuration lacks, is written through placement handle 0 in a group of the
// controller's choice and logged as an Invalid Placement Identifier event, as a write
// without the directive is written (without the event). The host reads the FDP log pages
// (nvmectrl/fdp.go) and the Reclaim Unit Handle Status (I/O Management Receive: one
// descriptor per placement handle in each group), and moves handles to fresh reclaim
// units with Reclaim Unit Handle Update (I/O Management Send).
//
// The reclaim unit time limit (ERUTL, nvme.fdp.ru_time_limit): when a handle's reclaim
// unit in a group takes its first page, a timer starts; if the same reclaim unit is still
// the handle's current one when it expires and is not fully written, the controller
// closes it (its open blocks' unwritten pages are skipped, as at a Reclaim Unit Handle
// Update) and moves the handle to a fresh one, logging Reclaim Unit Time Limit Exceeded
// (01h) with the handle and group. (TP4146 lets the controller act once the limit has
// passed; this one acts at the limit.)

// fdpState is the firmware's Flexible Data Placement state (nil without FDP).
type fdpState struct {
	spec       nvme.FDP
	hostBytes  uint64 // HBMW: bytes of host write commands since FDP was enabled
	erasedAt   int64  // the FTL's erase count when FDP's statistics began (after preconditioning)
	hostEvents []nvme.FDPEvent
	ctrlEvents []nvme.FDPEvent
	// EventsLost counts events dropped once the log held 63 of their kind.
	eventsLost int64
	// ruTimeouts counts reclaim units closed at the time limit.
	ruTimeouts int64
	// The evictor's head-of-line refusals and the pages it took out of age order instead
	// (fdpevict.go), and its look-ahead window.
	headRefusals, lookaheadPages int64
	window                       []int64  // the oldest page and the look-ahead window
	refused                      []uint16 // (handle, group) keys refused on the die (placementKey)
}

// enablePlacementGroups turns placement on in the FTL with fdp's reclaim groups: equal
// shares of the dies (reclaim_groups), or the sizes reclaim_group_dies gives.
func (f *Firmware) enablePlacementGroups(fdp nvme.FDP, persistent []bool) error {
	if err := placementGroupsFit(fdp, f.geo.Dies()); err != nil {
		return err
	}
	if sizes := fdp.ReclaimGroupDies; len(sizes) > 0 {
		if err := f.ftl.EnablePlacementSized(persistent, sizes); err != nil {
			return fmt.Errorf("nvme.fdp.reclaim_group_dies: %w", err)
		}
		return nil
	}
	if err := f.ftl.EnablePlacementGroups(persistent, fdp.Groups()); err != nil {
		return fmt.Errorf("nvme.fdp.enabled: %w", err)
	}
	return nil
}

// placementGroupsFit reports whether fdp's reclaim groups share out the drive's dies:
// reclaim_group_dies adding up to them, or reclaim_groups dividing them. Build
// (enablePlacementGroups) and configuration validation (ValidateNamespaces) both ask it.
func placementGroupsFit(fdp nvme.FDP, dies int) error {
	if sizes := fdp.ReclaimGroupDies; len(sizes) > 0 {
		sum := 0
		for _, n := range sizes {
			sum += n
		}
		if sum != dies {
			return fmt.Errorf("nvme.fdp.reclaim_group_dies: %v gives %d dies; the drive has %d (the groups share out every die)", sizes, sum, dies)
		}
		return nil
	}
	if g := fdp.Groups(); dies%g != 0 {
		return fmt.Errorf("nvme.fdp.reclaim_groups: %d does not divide the %d dies (each reclaim group is an equal share of the dies; reclaim_group_dies gives groups of other sizes)", g, dies)
	}
	return nil
}

// enableFDP turns placement on in the FTL and gives each namespace its placement handle
// list (the configured one, or every reclaim unit handle in order).
func (f *Firmware) enableFDP(cs hal.HostSpec) error {
	if f.units > 1 {
		return fmt.Errorf("nvme.fdp.enabled: Flexible Data Placement needs one mapping unit a flash page (firmware.page_size %d = flash.die.page_size); sub-page mapping packs several handles' pages into one", f.spec.PageSize)
	}
	n := cs.FDP.ReclaimUnitHandles()
	persistent := make([]bool, n)
	for i := range persistent {
		persistent[i] = cs.FDP.Isolation == nvme.PersistentlyIsolated
	}
	if err := f.enablePlacementGroups(cs.FDP, persistent); err != nil {
		return err
	}
	for i, ns := range cs.Namespaces {
		if len(ns.PlacementHandles) == 0 {
			for h := range n {
				f.ns[i].ph = append(f.ns[i].ph, uint8(h))
			}
			continue
		}
		for _, h := range ns.PlacementHandles {
			f.ns[i].ph = append(f.ns[i].ph, uint8(h))
		}
	}
	f.fdp = &fdpState{spec: cs.FDP, window: make([]int64, 1+f.spec.Buffer.PlacementLookahead)}
	f.ftl.OnImplicitUpdate(func(h, g int, _ int64) {
		// The FTL moved handle h to a fresh reclaim unit on its own (a blocked one: ftl
		// placement.allocate): controller event 81h, no PID or NSID (the handle may be
		// any namespace's).
		f.fdp.event(true, nvme.FDPEvent{Type: nvme.EventImplicitlyModifiedRUH, PID: nvme.NoPlacementID,
			RUHID: uint16(h), RGID: uint16(g), At: f.eng.Now()})
	})
	f.ftl.OnGroupFallback(f.mediaReallocated)
	if cs.FDP.RUTimeLimit > 0 {
		f.ftl.OnReclaimUnitStart(func(h, g int, seq int64) {
			f.eng.SchedulePhase(f.eng.Now()+cs.FDP.RUTimeLimit, sim.PhaseProcess, ruTimer{f}, &ruTimeout{h: h, g: g, seq: seq}, 0)
		})
	}
	return nil
}

// mediaReallocated logs the FTL writing logical page lpn, written for reclaim unit
// handle h in reclaim group g, outside g (ftl.FTL.OnGroupFallback) as the specification's
// report of the controller placing data other than where the host asked: the Media
// Reallocated controller event (type 80h; TP4146, in NVMe Base Specification 2.1's Get
// Log Page, FDP Events log page 23h, the FDP Event data structure and its Media
// Reallocated Event Type Specific information, laid out as libnvme's struct
// nvme_fdp_event_realloc: flags with bit 0 LBA Valid, NLBAM the number of logical blocks
// moved, LBA the first of them). One event per
// page: its placement identifier (group g, the namespace's first placement handle
// referencing h), its NSID, NLBAM the page's logical blocks (page size / LBA size) and
// LBA its first, relative to the namespace.
func (f *Firmware) mediaReallocated(lpn int64, h, g int) {
	for i := range f.ns {
		ns := &f.ns[i]
		if lpn < ns.base || lpn >= ns.base+ns.pages {
			continue
		}
		pid := uint16(nvme.NoPlacementID)
		for ph, r := range ns.ph {
			if int(r) == h {
				pid = f.fdp.spec.PID(g, ph)
				break
			}
		}
		per := int64(f.spec.PageSize / ns.lbaSize)
		f.fdp.event(true, nvme.FDPEvent{Type: nvme.EventMediaReallocated, PID: pid, NSID: ns.nsid,
			RUHID: uint16(h), RGID: uint16(g), At: f.eng.Now(), NLBAM: uint16(per), LBA: uint64((lpn - ns.base) * per)})
		return
	}
}

// ruTimeout names the reclaim unit a time limit timer is for: handle h's in group g, the
// seq-th the handle started there.
type ruTimeout struct {
	h, g int
	seq  int64
}

// ruTimer applies the reclaim unit time limit when a timer expires (ev.Data is the
// *ruTimeout); it implements sim.Handler.
type ruTimer struct{ f *Firmware }

// EventKind names the event for event counts (sim.EventKinder).
func (ruTimer) EventKind(*sim.Event) string { return "fdp: reclaim unit time limit" }

// HandleEvent closes the reclaim unit if it is still the handle's current one and not
// fully written, and logs Reclaim Unit Time Limit Exceeded.
func (r ruTimer) HandleEvent(ev *sim.Event) {
	f := r.f
	t := ev.Data.(*ruTimeout)
	if f.pl.cut || f.ro.on {
		return // power is gone (the firmware no longer runs), or read-only: nothing is written
	}
	if f.ftl.ReclaimUnitSeq(t.h, t.g) != t.seq || f.ftl.ReclaimUnitLeft(t.h, t.g) == 0 {
		return // the handle has moved on, or the unit is full (it moves on at its next write)
	}
	f.ftl.UpdateHandle(t.h, t.g)
	f.fdp.ruTimeouts++
	f.fdp.event(false, nvme.FDPEvent{Type: nvme.EventRUTimeLimitExceeded, PID: nvme.NoPlacementID,
		RUHID: uint16(t.h), RGID: uint16(t.g), At: ev.Time})
}

// placementHandle returns the reclaim unit handle and reclaim group a write of namespace
// ns goes through: its placement identifier's (DTYPE 2h), or placement handle 0's in a
// group of the controller's choice (ftl.AnyGroup) without one; an identifier whose
// placement handle the namespace does not have, or whose group the configuration does
// not, is logged (Invalid Placement Identifier) and written as one without.
func (f *Firmware) placementHandle(ns *fwNamespace, cmd *hal.HostCmd) (ruh, rg int) {
	pid, ok := cmd.PID, cmd.HasPID
	if !ok {
		return int(ns.ph[0]), ftl.AnyGroup
	}
	rg, ph := f.fdp.spec.SplitPID(pid)
	if ph >= len(ns.ph) || rg >= f.fdp.spec.Groups() {
		f.fdp.event(false, nvme.FDPEvent{Type: nvme.EventInvalidPlacementID, PID: pid, NSID: ns.nsid,
			RUHID: uint16(ns.ph[0]), At: f.eng.Now()})
		return int(ns.ph[0]), ftl.AnyGroup
	}
	return int(ns.ph[ph]), rg
}

// event logs an FDP event, a controller event if ctrl: the log keeps the first 63 of each
// kind (a host reading it sees what happened first; the rest are counted as lost).
func (s *fdpState) event(ctrl bool, e nvme.FDPEvent) {
	l := &s.hostEvents
	if ctrl {
		l = &s.ctrlEvents
	}
	if len(*l) >= 63 {
		s.eventsLost++
		return
	}
	*l = append(*l, e)
}

// FDPInfo implements hal.HostReports: the reclaim unit size, each handle's type and
// use, the statistics since FDP was enabled and the events.
func (f *Firmware) FDPInfo() nvme.FDPInfo {
	if f.fdp == nil {
		return nvme.FDPInfo{}
	}
	n := f.ftl.Handles()
	info := nvme.FDPInfo{
		RUSize:        uint64(f.ftl.ReclaimUnitPages()) * uint64(f.spec.PageSize),
		VolatileCache: f.VolatileWriteCache(),
		Types:         make([]nvme.Isolation, n),
		Used:          make([]bool, n),
		HostBytes:     f.fdp.hostBytes,
		HostEvents:    f.fdp.hostEvents,
		CtrlEvents:    f.fdp.ctrlEvents,
	}
	var media int64
	for h := range n {
		info.Types[h] = f.fdp.spec.Isolation
		s := f.ftl.HandleStats(h)
		media += s.HostWrites + s.GCWrites
	}
	for i := range f.ns {
		for _, h := range f.ns[i].ph {
			info.Used[h] = true
		}
	}
	info.MediaBytes = uint64(media) * uint64(f.spec.PageSize)
	erased := f.ftl.Stats.Erases - f.fdp.erasedAt
	info.ErasedBytes = uint64(erased) * uint64(f.geo.PagesPerBlock) * uint64(f.spec.PageSize*f.units)
	return info
}

// managementOp reports whether an I/O Management command asks for operation mo (CDW10
// bits 7:0) with FDP on; otherwise it completes it with Invalid Field and reports false.
func (wk *worker) managementOp(mo uint8) bool {
	if wk.f.fdp == nil || uint8(wk.cmd.DW(10)) != mo {
		wk.finish(nvme.StatusInvalidField)
		return false
	}
	return true
}

// ioMgmtReceive serves I/O Management Receive: Management Operation 01h (CDW10 bits 7:0)
// returns the Reclaim Unit Handle Status of the command's namespace, one descriptor per
// placement handle: its PID, reclaim unit handle and the logical blocks its reclaim unit
// can still take (RUAMW). Without FDP, or another operation, it is Invalid Field.
func (wk *worker) ioMgmtReceive() {
	if !wk.managementOp(nvme.IOMgmtReclaimUnitStatus) {
		return
	}
	f := wk.f
	cmd := wk.cmd
	ns := wk.ns
	per := uint64(f.spec.PageSize / ns.lbaSize)
	var ds []nvme.RUHStatus
	for g := range f.fdp.spec.Groups() {
		for i, h := range ns.ph {
			ds = append(ds, nvme.RUHStatus{PID: f.fdp.spec.PID(g, i), RUHID: uint16(h),
				RUAMW: uint64(f.ftl.ReclaimUnitLeft(int(h), g)) * per})
		}
	}
	data := nvme.MarshalRUHStatus(ds)
	n := min(len(data), cmd.DataLen)
	f.host.CopyToHost(cmd, 0, data[:n])
	f.host.WriteHostData(f.eng.Now(), cmd, 0, cmd.DataLen)
	wk.finish(nvme.StatusSuccess)
}

// ioMgmtSend serves I/O Management Send: Management Operation 01h (CDW10 bits 7:0),
// Reclaim Unit Handle Update, whose data is a list of (MOS + 1) placement identifiers of
// two bytes each: each one's reclaim unit handle moves to a fresh reclaim unit, and one
// whose reclaim unit held data but was not full is logged (Reclaim Unit Not Fully
// Written). A placement identifier the namespace lacks is Invalid Field.
func (wk *worker) ioMgmtSend() {
	if !wk.managementOp(nvme.IOMgmtReclaimUnitUpdate) {
		return
	}
	f := wk.f
	cmd := wk.cmd
	now := f.eng.Now()
	f.at(max(now, f.host.ReadHostData(now, cmd, 0, cmd.DataLen)), &wk.on.ruhUpdate)
}

// ruhUpdate applies a Reclaim Unit Handle Update once its list is in DRAM.
func (wk *worker) ruhUpdate() {
	f := wk.f
	cmd := wk.cmd
	list := make([]byte, cmd.DataLen)
	f.host.CopyFromHost(cmd, 0, list)
	ns := wk.ns
	spec := f.fdp.spec
	for i := 0; i+1 < len(list); i += 2 {
		if rg, ph := spec.SplitPID(binary.LittleEndian.Uint16(list[i:])); ph >= len(ns.ph) || rg >= spec.Groups() {
			wk.finish(nvme.StatusInvalidField)
			return
		}
	}
	for i := 0; i+1 < len(list); i += 2 {
		pid := binary.LittleEndian.Uint16(list[i:])
		rg, ph := spec.SplitPID(pid)
		h := int(ns.ph[ph])
		written := f.ftl.UpdateHandle(h, rg)
		if written > 0 && written < f.ftl.ReclaimUnitPagesIn(rg) {
			f.fdp.event(false, nvme.FDPEvent{Type: nvme.EventRUNotFullyWritten, PID: pid, NSID: ns.nsid,
				RUHID: uint16(h), RGID: uint16(rg), At: f.eng.Now()})
		}
	}
	wk.finish(nvme.StatusSuccess)
}

// fdpPrecondition starts FDP's statistics after preconditioning (they count from when FDP
// was enabled, with the drive as the run finds it).
func (f *Firmware) fdpPrecondition() {
	if f.fdp != nil {
		f.fdp.erasedAt = f.ftl.Stats.Erases
	}
}

// FDPHandles returns the number of reclaim unit handles, 0 without FDP.
func (f *Firmware) FDPHandles() int {
	if f.fdp == nil {
		return 0
	}
	return f.ftl.Handles()
}
