package die

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Scheme is how a multi-level die programs a word line's pages. In YAML it is "page",
// "one-shot" or "two-pass"; the zero value is page (or one-shot, with the older switch
// one_shot: true).
//
//   - PageByPage (2D NAND): each page is its own program with its page type's tPROG, in
//     the block's page order (for 2D TLC the shadow order of Spec.PageType). A word line's
//     upper pages are programmed after its lower ones, so a power cut during an upper page's
//     program corrupts the lower pages already on that word line (Cut).
//   - OneShot (3D TLC/QLC): a word line's pages are loaded into the page registers in order
//     (LSB, CSB, MSB[, TSB]) and programmed together in one tPROG when the last one arrives
//     (t_prog of the last page type). Until then they are only latched: a cut loses them.
//   - TwoPass (3D coarse/fine, e.g. QLC 16-16): as one-shot, the last page of word line n
//     starts the coarse pass of word line n (t_prog of the last page type) followed by the
//     fine pass of word line n−1 (t_prog_fine), whose data the controller sends again
//     (ResendBytes); the block's last word line is followed by its own fine pass. A word
//     line is final only after its fine pass: a cut loses every word line whose fine pass
//     has not ended.
type Scheme uint8

// The programming schemes.
const (
	PageByPage Scheme = iota
	OneShot
	TwoPass
)

var schemeNames = [...]string{"page", "one-shot", "two-pass"}

// String returns the scheme's YAML name.
func (s Scheme) String() string {
	if int(s) < len(schemeNames) {
		return schemeNames[s]
	}
	return fmt.Sprintf("scheme(%d)", uint8(s))
}

// MarshalText implements encoding.TextMarshaler.
func (s Scheme) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Scheme) UnmarshalText(b []byte) error {
	for k, n := range schemeNames {
		if string(b) == n {
			*s = Scheme(k)
			return nil
		}
	}
	return fmt.Errorf("die programming scheme %q is not one of page, one-shot, two-pass", b)
}

// ProgramScheme returns the spec's programming scheme: Scheme, or OneShot when the older
// switch one_shot is set. SLC has one page a word line, so every scheme is page by page.
func (s Spec) ProgramScheme() Scheme {
	if s.Bits() == 1 {
		return PageByPage
	}
	if s.OneShot {
		return OneShot
	}
	return s.Scheme
}

// validateScheme checks the programming scheme against the cell type.
func (s Spec) validateScheme() []error {
	var errs []error
	switch {
	case s.Scheme > TwoPass:
		errs = append(errs, fmt.Errorf("die.scheme: %v is not one of page, one-shot, two-pass", s.Scheme))
	case s.OneShot && s.Scheme != PageByPage && s.Scheme != OneShot:
		errs = append(errs, fmt.Errorf("die.one_shot: set with die.scheme %v; use die.scheme alone", s.Scheme))
	case s.OneShot && s.Cell == SLC:
		errs = append(errs, fmt.Errorf("die.one_shot: one-shot programming needs mlc, tlc or qlc, not slc"))
	case s.Scheme != PageByPage && s.Cell == SLC:
		errs = append(errs, fmt.Errorf("die.scheme: %v programming needs mlc, tlc or qlc, not slc", s.Scheme))
	}
	if s.ProgramScheme() == TwoPass {
		if s.TProgFine <= 0 {
			errs = append(errs, fmt.Errorf("die.t_prog_fine: %v must be positive with die.scheme two-pass", s.TProgFine))
		}
	} else if s.TProgFine != 0 {
		errs = append(errs, fmt.Errorf("die.t_prog_fine: %v is set but die.scheme is %v (only two-pass has a fine pass)", s.TProgFine, s.ProgramScheme()))
	}
	return errs
}

// WordLine returns the word line of page index page in its block.
//   - One-shot and two-pass: page / bits (a word line's pages are consecutive).
//   - Page by page: the page's rank among the block's pages of its type, so the k-th LSB,
//     the k-th CSB and the k-th MSB page share word line k. For 2D TLC this follows the
//     shadow order (docs/sources.md §3.4, SimpleSSD LatencyTLC.cc): the lower pages of a word line
//     are programmed before its upper ones, several word lines apart. For MLC (page % 2) it
//     pairs pages 2k and 2k+1.
func (s Spec) WordLine(page int) int {
	if s.Bits() == 1 {
		return page
	}
	if s.ProgramScheme() != PageByPage {
		return page / s.Bits()
	}
	pt, rank := s.PageType(page), 0
	for p := 0; p < page; p++ {
		if s.PageType(p) == pt {
			rank++
		}
	}
	return rank
}

// lastOfWordLine reports whether page is the last page of its word line in program order
// under a one-shot or two-pass scheme: the page whose program starts the array.
func (s Spec) lastOfWordLine(page int) bool { return page%s.Bits() == s.Bits()-1 }

// ResendBytes returns the data bytes per plane that the program of page sends to the die
// besides the page's own: under two-pass, the last page of word line n (n ≥ 1) sends word
// line n−1's pages again for its fine pass, and the block's last word line sends its own
// too (its fine pass follows its coarse pass at once). 0 for every other page and scheme.
//
//	TLC two-pass, 16 KiB pages, page 5 (word line 1's MSB): word line 0 again, 3 × 16 KiB.
func (s Spec) ResendBytes(page int) int {
	if s.ProgramScheme() != TwoPass || !s.lastOfWordLine(page) {
		return 0
	}
	wl, n := page/s.Bits(), 0
	if wl > 0 {
		n++
	}
	if page == s.PagesPerBlock-1 {
		n++
	}
	return n * s.Bits() * s.PageSize
}

// wordLineProgram returns the array time of the program of page under the spec's scheme,
// and false when the page is only latched (one-shot or two-pass, not the word line's last
// page):
//   - page by page: t_prog of the page's type;
//   - one-shot: t_prog of the last page type, for the whole word line;
//   - two-pass: the coarse pass (t_prog of the last page type), plus the fine pass of the
//     word line before (t_prog_fine) unless this is word line 0, plus the word line's own
//     fine pass at the block's last word line.
func (s Spec) wordLineProgram(page int, tProg sim.Time) (sim.Time, bool) {
	switch s.ProgramScheme() {
	case OneShot:
		return tProg, s.lastOfWordLine(page)
	case TwoPass:
		if !s.lastOfWordLine(page) {
			return 0, false
		}
		t := tProg
		if page >= s.Bits() {
			t += s.TProgFine
		}
		if page == s.PagesPerBlock-1 {
			t += s.TProgFine
		}
		return t, true
	}
	return tProg, true
}
