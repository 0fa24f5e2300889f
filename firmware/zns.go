package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/nvme"
)

// Zoned namespaces (NVM Express Zoned Namespace Command Set Specification 1.1, "ZNS" in
// the comments). A zoned namespace's logical blocks are divided into zones of a power-of-two
// size; zone z holds LBAs [z·ZSZE, z·ZSZE + ZCAP) writable, the rest of its size never
// written. Each zone has a state and a write pointer, kept here in the firmware's zone
// table; the FTL maps a zone onto a stripe of erase blocks (ftl/zones.go) and a reset
// erases them (znserase.go). This file holds the table, the zone state machine (ZNS,
// section "Zone State Machine", with the transitions each command makes), the checks of
// writes and Zone Append (ZNS, "Zone Append command" and the write pointer rules of
// "Sequential Write Required Zones") and Zone Management Send and Receive (ZNS, "Zone
// Management Send command" 79h, "Zone Management Receive command" 7Ah). Section numbers
// move between revisions of the specification; the comments name sections by title.
//
// Open and active resources (ZNS, "Zone State Machine", resource management): a zone in
// ZSIO or ZSEO holds an open resource, one in ZSIO, ZSEO or ZSC an active resource; at most
// MOR + 1 and MAR + 1 of them (the Identify fields are 0's based;
// nvme.namespaces[].zones.max_open and max_active give the counts, 0 for no limit). A
// write that would implicitly open a zone when every open resource is held takes one from
// the implicitly opened zone opened longest ago, which the controller closes (ZSIO → ZSC;
// the specification lets the controller do so, and QEMU's ZNS model does the same), and
// fails with Too Many Open Zones if no zone is implicitly opened; Open Zone never closes a
// zone for itself.

// zone is one entry of the zone table.
type zone struct {
	state nvme.ZoneState
	wp    int64  // write pointer, in logical blocks from the zone's start
	since uint64 // the open clock when it was last implicitly opened (ZSIO order)
	// finished: Finish Zone made the zone Full (a state the zone table records durably;
	// znsrecover.go), cleared by Reset.
	finished bool
	// resetSeq is the write sequence number given out last when the zone was last reset,
	// recorded durably with the reset: a zone backup record not above it is of data the
	// reset removed (znsbackup.go).
	resetSeq uint64
}

// zoneTable is a zoned namespace's zones and resource counts.
type zoneTable struct {
	zones        []zone
	zsze, zcap   int64 // zone size and capacity, logical blocks
	maxOpen      int   // open resources (0: no limit)
	maxActive    int   // active resources (0: no limit)
	open, active int
	clock        uint64
	stripe       int   // erase blocks a zone spans
	zonePages    int64 // zone size in logical pages
}

// zoneGeometry returns a zoned namespace's stripe (blocks a zone spans), its capacity and
// size in logical pages: the capacity is the stripe × pages a block, the size the smallest
// power of two of pages holding it (Linux requires a power-of-two zone size of a zoned
// block device: drivers/nvme/host/zns.c, nvme_update_zone_info).
func zoneGeometry(z nvme.ZoneSpec, planes, pagesPerBlock int) (stripe int, capPages, sizePages int64) {
	stripe = z.Blocks
	if stripe == 0 {
		stripe = planes
	}
	capPages = int64(stripe) * int64(pagesPerBlock)
	sizePages = 1
	for sizePages < capPages {
		sizePages <<= 1
	}
	return stripe, capPages, sizePages
}

// validateZoned reports what the firmware refuses of zoned namespace i (before layout).
func validateZoned(i int, ns nvme.Namespace, planes, pageSize int) error {
	field := fmt.Sprintf("nvme.namespaces[%d]", i)
	if ns.LBASize != pageSize {
		return fmt.Errorf("%s.lba_size: a zoned namespace needs logical blocks of the firmware's page (%d bytes), not %d: "+
			"a zone page is programmed once, so a page cannot be filled by two writes", field, pageSize, ns.LBASize)
	}
	if ns.Zones.Blocks > planes {
		return fmt.Errorf("%s.zones.blocks: %d; a zone spans at most one block on every plane of every die (%d)", field, ns.Zones.Blocks, planes)
	}
	return nil
}

// newZoneTable builds the zone table of a namespace of pages logical pages.
func newZoneTable(ns nvme.Namespace, pages int64, stripe int, capPages, sizePages int64, perPage int64) *zoneTable {
	t := &zoneTable{zones: make([]zone, pages/sizePages), zsze: sizePages * perPage, zcap: capPages * perPage,
		maxOpen: ns.Zones.MaxOpen, maxActive: ns.Zones.MaxActive, stripe: stripe, zonePages: sizePages}
	for i := range t.zones {
		t.zones[i].state = nvme.ZoneEmpty
	}
	return t
}

// addZones gives the FTL the zoned areas of the zoned namespaces (after the layout).
func (f *Firmware) addZones(list []nvme.Namespace) error {
	planes := f.geo.Dies() * f.geo.Planes
	for i, ns := range list {
		if ns.Type != nvme.NSZoned {
			continue
		}
		n := &f.ns[i]
		stripe, capPages, sizePages := zoneGeometry(ns.Zones, planes, f.geo.PagesPerBlock)
		n.zns = newZoneTable(ns, n.pages, stripe, capPages, sizePages, int64(f.spec.PageSize/ns.LBASize))
		if _, err := f.ftl.AddZones(n.base, int64(len(n.zns.zones)), sizePages, stripe); err != nil {
			return fmt.Errorf("nvme.namespaces[%d].type: %w", i, err)
		}
	}
	return nil
}

// zoneOf returns the zone holding lba and its index.
func (t *zoneTable) zoneOf(lba int64) (*zone, int64) {
	zi := lba / t.zsze
	return &t.zones[zi], zi
}

// takeOpen takes an open resource for a zone that is not open now, closing the implicitly
// opened zone opened longest ago if every one is held and implicit allows it; it returns
// Too Many Open Zones if none can be had.
func (t *zoneTable) takeOpen(implicit bool) nvme.Status {
	if t.maxOpen > 0 && t.open >= t.maxOpen {
		if !implicit {
			return nvme.StatusTooManyOpenZones
		}
		var oldest *zone
		for i := range t.zones {
			if z := &t.zones[i]; z.state == nvme.ZoneImplOpen && (oldest == nil || z.since < oldest.since) {
				oldest = z
			}
		}
		if oldest == nil {
			return nvme.StatusTooManyOpenZones
		}
		oldest.state = nvme.ZoneClosed // ZSIO → ZSC: it keeps its active resource
		t.open--
	}
	t.open++
	return nvme.StatusSuccess
}

// openZone moves zone zn to an open state (ZSIO for a write, ZSEO for Open Zone) from
// ZSE or ZSC, taking the resources it needs: an active one from ZSE (Too Many Active Zones
// without), an open one (takeOpen). A zone already open keeps its resources; an implicitly
// opened zone explicitly opened becomes ZSEO.
func (t *zoneTable) openZone(zn *zone, explicit bool) nvme.Status {
	switch zn.state {
	case nvme.ZoneImplOpen, nvme.ZoneExplOpen:
		if explicit {
			zn.state = nvme.ZoneExplOpen
		}
		return nvme.StatusSuccess
	case nvme.ZoneEmpty:
		if t.maxActive > 0 && t.active >= t.maxActive {
			return nvme.StatusTooManyActiveZones
		}
		if st := t.takeOpen(!explicit); st != nvme.StatusSuccess {
			return st
		}
		t.active++
	case nvme.ZoneClosed:
		if st := t.takeOpen(!explicit); st != nvme.StatusSuccess {
			return st
		}
	default:
		return nvme.StatusInvalidZoneTransition
	}
	if explicit {
		zn.state = nvme.ZoneExplOpen
	} else {
		zn.state = nvme.ZoneImplOpen
		t.clock++
		zn.since = t.clock
	}
	return nvme.StatusSuccess
}

// release gives back the resources zone zn holds (it is leaving for ZSE, ZSF or ZSO).
func (t *zoneTable) release(zn *zone) {
	if zn.state.Open() {
		t.open--
	}
	if zn.state.Active() {
		t.active--
	}
}

// stateError returns the error a write to a zone in state s gets, or success.
func stateError(s nvme.ZoneState) nvme.Status {
	switch s {
	case nvme.ZoneFull:
		return nvme.StatusZoneIsFull
	case nvme.ZoneReadOnly:
		return nvme.StatusZoneIsReadOnly
	case nvme.ZoneOffline:
		return nvme.StatusZoneIsOffline
	}
	return nvme.StatusSuccess
}

// write applies a Write of nlb blocks at slba (append: a Zone Append to the zone starting
// at slba) to the zone table: the checks in the specification's order of concern — the
// zone's state, the zone's start for Zone Append (Invalid Field), the write pointer for a
// Write (Zone Invalid Write), the zone's writable capacity (Zone Boundary Error), then the
// resources of an implicit open — and, if they pass, the write pointer's advance (ZSF when
// it reaches the capacity, releasing the zone's resources). It returns the LBA the data
// goes to (Zone Append's ALBA).
func (t *zoneTable) write(slba, nlb int64, appendCmd bool) (int64, nvme.Status) {
	zn, zi := t.zoneOf(slba)
	start := zi * t.zsze
	if st := stateError(zn.state); st != nvme.StatusSuccess {
		return 0, st
	}
	if appendCmd && slba != start {
		return 0, nvme.StatusInvalidField // ZSLBA is not the lowest LBA of a zone
	}
	if !appendCmd && slba != start+zn.wp {
		return 0, nvme.StatusZoneInvalidWrite
	}
	if zn.wp+nlb > t.zcap {
		return 0, nvme.StatusZoneBoundaryError
	}
	if st := t.openZone(zn, false); st != nvme.StatusSuccess {
		return 0, st
	}
	lba := start + zn.wp
	zn.wp += nlb
	if zn.wp == t.zcap {
		t.release(zn)
		zn.state = nvme.ZoneFull
	}
	return lba, nvme.StatusSuccess
}

// readCheck reports Zone Boundary Error for a read crossing a zone boundary (Read Across
// Zone Boundaries, ZOC RAZB, is 0: ZNS "Zone Operation Characteristics") and Zone Is
// Offline for a read of an offline zone.
func (t *zoneTable) readCheck(slba, nlb int64) nvme.Status {
	zn, zi := t.zoneOf(slba)
	if (slba+nlb-1)/t.zsze != zi {
		return nvme.StatusZoneBoundaryError
	}
	if zn.state == nvme.ZoneOffline {
		return nvme.StatusZoneIsOffline
	}
	return nvme.StatusSuccess
}

// action applies one Zone Send Action to zone zi (ZNS "Zone Management Send command",
// the Zone Send Action table, and "Zone State Machine"): Close (ZSIO/ZSEO → ZSC), Finish
// (ZSE/ZSIO/ZSEO/ZSC → ZSF, the write pointer to the end of the capacity), Open (ZSE/ZSIO/
// ZSC → ZSEO), Reset (ZSIO/ZSEO/ZSC/ZSF → ZSE, the write pointer to the zone's start) and
// Offline (ZSRO → ZSO). A zone already in the action's target state is left as it is;
// any other state is Invalid Zone State Transition. reset is told of each zone a Reset
// empties (the firmware frees its data and blocks).
func (t *zoneTable) action(zi int64, zsa uint8, reset func(zi int64)) nvme.Status {
	zn := &t.zones[zi]
	s := zn.state
	switch zsa {
	case nvme.ZoneActionClose:
		switch {
		case s.Open():
			t.open--
			zn.state = nvme.ZoneClosed
		case s != nvme.ZoneClosed:
			return nvme.StatusInvalidZoneTransition
		}
	case nvme.ZoneActionFinish:
		switch s {
		case nvme.ZoneEmpty, nvme.ZoneImplOpen, nvme.ZoneExplOpen, nvme.ZoneClosed:
			t.release(zn)
			zn.state, zn.wp, zn.finished = nvme.ZoneFull, t.zcap, true
		case nvme.ZoneFull:
		default:
			return nvme.StatusInvalidZoneTransition
		}
	case nvme.ZoneActionOpen:
		return t.openZone(zn, true)
	case nvme.ZoneActionReset:
		switch s {
		case nvme.ZoneImplOpen, nvme.ZoneExplOpen, nvme.ZoneClosed, nvme.ZoneFull:
			t.release(zn)
			zn.state, zn.wp, zn.finished = nvme.ZoneEmpty, 0, false
			reset(zi)
		case nvme.ZoneEmpty:
		default:
			return nvme.StatusInvalidZoneTransition
		}
	case nvme.ZoneActionOffline:
		switch s {
		case nvme.ZoneReadOnly:
			zn.state = nvme.ZoneOffline
		case nvme.ZoneOffline:
		default:
			return nvme.StatusInvalidZoneTransition
		}
	default:
		return nvme.StatusInvalidField
	}
	return nvme.StatusSuccess
}

// selectAll reports whether a zone in state s takes action zsa under Select All (ZNS,
// Zone Management Send: Close acts on every ZSIO and ZSEO zone, Finish on ZSIO, ZSEO and
// ZSC, Open on ZSC, Reset on ZSIO, ZSEO, ZSC and ZSF, Offline on ZSRO).
func selectAll(s nvme.ZoneState, zsa uint8) bool {
	switch zsa {
	case nvme.ZoneActionClose:
		return s.Open()
	case nvme.ZoneActionFinish:
		return s.Active()
	case nvme.ZoneActionOpen:
		return s == nvme.ZoneClosed
	case nvme.ZoneActionReset:
		return s.Active() || s == nvme.ZoneFull
	case nvme.ZoneActionOffline:
		return s == nvme.ZoneReadOnly
	}
	return false
}

// zoneWrite applies a Write or Zone Append of the worker's command to its zoned
// namespace's zone table, and completes the command with the error if it fails. A Zone
// Append's command is rewritten to the LBA it writes (its SLBA field, as the controller's
// command slot holds it), and that LBA is its completion's DW0 (ALBA, CQE DW0 and DW1: the
// namespaces this model builds have fewer than 2³² blocks, so DW1, FastDrain's alternative
// status carrier, is not needed for it).
func (wk *worker) zoneWrite(appendCmd bool) bool {
	cmd := wk.cmd
	t := wk.ns.zns
	slba, nlb := int64(cmd.SLBA), int64(cmd.Blocks)
	if slba < 0 || slba+nlb > int64(len(t.zones))*t.zsze {
		wk.finish(nvme.StatusLBAOutOfRange)
		return false
	}
	lba, st := t.write(slba, nlb, appendCmd)
	if st != nvme.StatusSuccess {
		wk.finish(st)
		return false
	}
	if appendCmd {
		cmd.SLBA = uint64(lba)
		wk.dw0 = uint32(lba)
	}
	return true
}

// zoneRead checks a read of a zoned namespace (readCheck), completing it with the error if
// it fails.
func (wk *worker) zoneRead() bool {
	t := wk.ns.zns
	slba, nlb := int64(wk.cmd.SLBA), int64(wk.cmd.Blocks)
	if slba < 0 || slba+nlb > int64(len(t.zones))*t.zsze {
		wk.finish(nvme.StatusLBAOutOfRange)
		return false
	}
	if st := t.readCheck(slba, nlb); st != nvme.StatusSuccess {
		wk.finish(st)
		return false
	}
	return true
}

// zoneSend serves Zone Management Send: CDW10–11 SLBA (a zone's lowest LBA unless Select
// All), CDW13 bits 7:0 the Zone Send Action, bit 8 Select All. With Select All every zone
// whose state the action applies to takes it (selectAll); the first error ends it.
func (wk *worker) zoneSend() {
	cmd := wk.cmd
	t := wk.ns.zns
	if t == nil {
		wk.finish(nvme.StatusInvalidOpcode)
		return
	}
	zsa := uint8(cmd.DW(13))
	if zsa < nvme.ZoneActionClose || zsa > nvme.ZoneActionOffline {
		wk.finish(nvme.StatusInvalidField)
		return
	}
	reset := wk.f.resetZone(wk.ns)
	if cmd.DW(13)&nvme.ZoneSelectAll != 0 {
		for zi := range t.zones {
			if selectAll(t.zones[zi].state, zsa) {
				if st := t.action(int64(zi), zsa, reset); st != nvme.StatusSuccess {
					wk.finish(st)
					return
				}
			}
		}
		wk.finish(nvme.StatusSuccess)
		return
	}
	slba := int64(cmd.SLBA)
	if slba < 0 || slba >= int64(len(t.zones))*t.zsze {
		wk.finish(nvme.StatusLBAOutOfRange)
		return
	}
	if slba%t.zsze != 0 {
		wk.finish(nvme.StatusInvalidField) // not the lowest LBA of a zone
		return
	}
	wk.finish(t.action(slba/t.zsze, zsa, reset))
}

// resetZone returns the function that frees a reset zone of ns: its buffered pages are
// dropped, the FTL unmaps its pages, and its blocks are erased (znserase.go).
func (f *Firmware) resetZone(ns *fwNamespace) func(zi int64) {
	return func(zi int64) {
		lo := ns.base + zi*ns.zns.zonePages
		ns.zns.zones[zi].resetSeq = f.pl.seq
		for lpn := lo; lpn < lo+ns.zns.zonePages; lpn++ {
			f.buf.Invalidate(lpn)
		}
		f.zerase.erase(f, f.ftl.ResetZone(lo, f.zerase.scratch[:0]))
		f.zerase.resets++
	}
}

// zoneReceive serves Zone Management Receive, Report Zones (ZRA 00h; Extended Report Zones
// is not offered: zone descriptor extensions are 0, ZNS Identify Namespace LBAFE ZDES 0):
// the zones from the one holding SLBA on whose state the reporting option (ZRAS, CDW13
// bits 15:8) selects, as many descriptors as the buffer of NUMD + 1 dwords holds, with
// the header's Number of Zones per Partial Report (CDW13 bit 16).
func (wk *worker) zoneReceive() {
	f := wk.f
	cmd := wk.cmd
	t := wk.ns.zns
	if t == nil {
		wk.finish(nvme.StatusInvalidOpcode)
		return
	}
	dw13 := cmd.DW(13)
	if uint8(dw13) != nvme.ZoneReportZones {
		wk.finish(nvme.StatusInvalidField)
		return
	}
	want, filtered, err := nvme.ZoneReportFilter(uint8(dw13 >> 8))
	if err != nil {
		wk.finish(nvme.StatusInvalidField)
		return
	}
	slba := int64(cmd.SLBA)
	if slba < 0 || slba >= int64(len(t.zones))*t.zsze {
		wk.finish(nvme.StatusLBAOutOfRange)
		return
	}
	fit := max(0, (cmd.DataLen-nvme.ZoneReportHeader)/nvme.ZoneDescriptorSize)
	var ds []nvme.ZoneDescriptor
	var total uint64
	for zi := slba / t.zsze; zi < int64(len(t.zones)); zi++ {
		zn := &t.zones[zi]
		if filtered && zn.state != want {
			continue
		}
		total++
		if len(ds) < fit {
			ds = append(ds, t.descriptor(zi))
		}
	}
	data := nvme.MarshalZoneReport(ds, total, dw13&nvme.ZonePartialReport != 0, cmd.DataLen)
	f.host.CopyToHost(cmd, 0, data)
	f.host.WriteHostData(f.eng.Now(), cmd, 0, cmd.DataLen)
	wk.finish(nvme.StatusSuccess)
}

// ZoneInfo returns namespace nsid's zone table as Report Zones would, and false for a
// namespace that is not zoned (for checks and the host model's set-up).
func (f *Firmware) ZoneInfo(nsid uint32) ([]nvme.ZoneDescriptor, bool) {
	if nsid == 0 || nsid > uint32(len(f.ns)) || f.ns[nsid-1].zns == nil {
		return nil, false
	}
	t := f.ns[nsid-1].zns
	out := make([]nvme.ZoneDescriptor, len(t.zones))
	for zi := range t.zones {
		out[zi] = t.descriptor(int64(zi))
	}
	return out, true
}

// descriptor returns zone zi's Zone Descriptor.
func (t *zoneTable) descriptor(zi int64) nvme.ZoneDescriptor {
	zn := &t.zones[zi]
	return nvme.ZoneDescriptor{State: zn.state, Cap: uint64(t.zcap), Start: uint64(zi * t.zsze), WP: uint64(zi*t.zsze + zn.wp)}
}

// zoneNamespaceInfo fills the zoned fields of a namespace's NamespaceInfo.
func (ns *fwNamespace) zoneNamespaceInfo(info *nvme.NamespaceInfo) {
	if t := ns.zns; t != nil {
		info.ZoneBlocks, info.ZoneCap, info.Zones = uint64(t.zsze), uint64(t.zcap), uint64(len(t.zones))
		info.MaxOpen, info.MaxActive = t.maxOpen, t.maxActive
	}
}

// zonedPrecondition refuses preconditioning with a zoned namespace: preconditioning writes
// logical pages in place across the whole logical space, which a zone takes only at its
// write pointer, and a zoned namespace starts with every zone empty.
func (f *Firmware) zonedPrecondition(fill float64) error {
	for i := range f.ns {
		if f.ns[i].zns != nil && fill > 0 {
			return fmt.Errorf("precondition.fill: %g with a zoned namespace (nvme.namespaces[%d]); its zones start empty, and "+
				"preconditioning writes logical pages in place, not at zone write pointers (set precondition.fill: 0)", fill, i)
		}
	}
	return nil
}
