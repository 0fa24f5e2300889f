package ftl

import "github.com/fastdrain-sim/fastdrain/die"

// TLCKind is the 2D TLC page-type map (die.Spec.PageType for 2D TLC).
func TLCKind(page int) PageKind { return tlc.PageType(page) }

// MLCKind is the MLC page-type map.
func MLCKind(page int) PageKind { return mlc.PageType(page) }

var (
	tlc = die.SpecFor(die.TLC)
	mlc = die.SpecFor(die.MLC)
)
