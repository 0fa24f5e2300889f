package firmware

import (
	"fmt"
	"slices"

	"github.com/fastdrain-sim/fastdrain/firmware/buffer"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// Placement-aware eviction (firmware.buffer.placement_lookahead). The evictor fills each
// die it visits with the oldest dirty page (evict.go). With Flexible Data Placement that
// page can only go into its reclaim unit handle's current reclaim unit; when that unit's
// blocks on the die are full and the FTL cannot open another there (outside the GC
// reserve), the die is refused the page and passed over in the round, although it could
// take a page of another handle: head-of-line blocking across handles (docs/placement.md
// measured it as the run-time cost of placement). With a look-ahead window of N pages the
// evictor then tries the next N oldest dirty pages, skipping those of a (handle, group)
// already refused on this die, and takes the first the FTL places: a page out of age
// order, of another handle, so the die keeps working and each handle's pages still go
// only to its own reclaim units. A firmware keeps this cheap with a queue per handle; the
// model walks the buffer's age list, at most N pages, only after a refusal.

// placeYounger is called when the oldest dirty page could not be placed on die g. It
// counts the refusal and, within the look-ahead window, places the oldest younger dirty
// page of another (handle, group) the FTL can place on g, hands it out of the buffer and
// returns it with its previous flash copy and its new page; ok is false when none can go.
func (f *Firmware) placeYounger(oldest int64, g int, purpose ftl.Purpose) (v buffer.Victim, old ftl.Unit, ppn ftl.PPN, ok bool) {
	s := f.fdp
	s.headRefusals++
	if len(s.window) < 2 {
		return v, old, ppn, false
	}
	n := f.buf.OldestN(s.window)
	s.refused = append(s.refused[:0], placementKey(f.ftl.NextPlacement(oldest)))
	for _, lpn := range s.window[1:n] {
		key := placementKey(f.ftl.NextPlacement(lpn))
		if slices.Contains(s.refused, key) {
			continue
		}
		o := f.ftl.Lookup(lpn)
		p, err := f.placeHost(lpn, g, purpose)
		if err != nil {
			s.refused = append(s.refused, key)
			continue
		}
		pv, picked := f.buf.PickPage(lpn)
		if !picked {
			panic(fmt.Sprintf("firmware: lpn %d was among the oldest dirty pages but the buffer would not hand it out", lpn))
		}
		s.lookaheadPages++
		return pv, o, p, true
	}
	return v, old, ppn, false
}

// placementKey packs a page's reclaim unit handle and group into one comparable value.
func placementKey(h, g int) uint16 { return uint16(h)<<8 | uint16(g) }
