package ftl

import "github.com/fastdrain-sim/fastdrain/internal/enum"

// Names of the mapping schemes, values of ftl.mapping.
const (
	// PageMapping is page-level mapping: any logical page may go to any physical page, placed
	// by the allocator (ftl.allocator) and cleaned by GC (ftl.gc_victim). The default.
	PageMapping = "page"
	// BASTMapping is the hybrid log-block scheme BAST (Kim et al., "A space-efficient flash
	// translation layer for CompactFlash systems", IEEE Trans. Consumer Electronics 48(2),
	// 2002): block-level mapping of data blocks, plus a small pool of log blocks
	// (ftl.log_blocks per die), each bound to one logical block and page-mapped inside, which
	// are merged into data blocks (bast.go).
	BASTMapping = "bast"
)

// hybrid is a mapping scheme other than page-level mapping. The FTL keeps the mechanism it
// shares with the page-level scheme (the map and reverse map, block states, free lists,
// erase, statistics) and hands the scheme's decisions to it: where a host write goes, where
// a merged page goes, which merge comes next. A nil hybrid is page-level mapping, whose code
// is the FTL's own (ftl.go): the page-level common path pays one nil test per call.
type hybrid interface {
	// write places a host write of lpn (its die is the scheme's: HomeDie) or returns
	// ErrNoSpace while the page's logical block waits for a merge.
	write(lpn int64, purpose Purpose) (PPN, error)
	// homeDie returns the die lpn's pages live on.
	homeDie(lpn int64) int
	// nextMerge starts the die's next queued merge and describes it in m.
	nextMerge(die int, m *Merge) bool
	// move binds a page copied by the running merge of old's die and returns its new page.
	move(old PPN) (PPN, int64)
	// mergeDone ends the die's running merge once its moves and erases are done.
	mergeDone(die int)
	// pad takes the next page of block blk for a finality pad (FTL.PadNext) if the scheme
	// lets it be padded.
	pad(blk BlockID) (PPN, bool)
	// check returns the scheme's broken invariants.
	check() []error
	// precondition fills the device in closed form (see FTL.Precondition).
	precondition(fill float64, random bool, seed uint64) error
}

// mappings holds the mapping schemes by name; the page-level scheme builds no hybrid.
var mappings = enum.NewRegistry[func(f *FTL) hybrid]("mapping")

func init() {
	mappings.Register(PageMapping, func(*FTL) hybrid { return nil })
	mappings.Register(BASTMapping, func(f *FTL) hybrid { return newBAST(f) })
}

// Mappings returns the names of the mapping schemes, sorted.
func Mappings() []string { return mappings.Names() }

// Hybrid reports whether the FTL uses a hybrid (log-block) mapping scheme: host writes then
// go to the die HomeDie names, and GC's work is the scheme's merges (NextMerge), not victim
// blocks.
func (f *FTL) Hybrid() bool { return f.hyb != nil }

// HomeDie returns the die a hybrid scheme keeps lpn on (for page-level mapping, where any
// die will do, 0).
func (f *FTL) HomeDie(lpn int64) int {
	if f.hyb == nil {
		return 0
	}
	return f.hyb.homeDie(lpn)
}

// MergeKind is the kind of a log-block merge.
type MergeKind uint8

// Merge kinds (Kim et al. 2002; the names are those of later hybrid-FTL papers).
const (
	// SwitchMerge: the log block holds every page of its logical block in order; it becomes
	// the data block, and the old data block is erased.
	SwitchMerge MergeKind = iota
	// PartialMerge: the log block holds the first pages of its logical block in order; the
	// data block's later valid pages are copied into it, it becomes the data block, and the
	// old data block is erased.
	PartialMerge
	// FullMerge: the current pages of the logical block, from the data and the log block,
	// are copied in order into a new block, which becomes the data block; both old blocks
	// are erased.
	FullMerge
)

// String returns the kind's name.
func (k MergeKind) String() string {
	switch k {
	case SwitchMerge:
		return "switch"
	case PartialMerge:
		return "partial"
	}
	return "full"
}

// Merge is one merge of a hybrid scheme, as the firmware carries it out: wait until no
// program to the Wait blocks is in flight, read each page of Moves and program it where
// Relocate says (in Moves' order, which is the order NAND needs), erase the Erase blocks,
// then call MergeDone.
type Merge struct {
	Kind  MergeKind
	Wait  []BlockID
	Moves []Unit // one unit a page under a hybrid scheme: each a page
	Erase []BlockID
}

// NextMerge starts die's next queued merge and describes it in m (its slices are reused),
// or reports false if none is queued. Page-level mapping has none.
func (f *FTL) NextMerge(die int, m *Merge) bool {
	if f.hyb == nil {
		return false
	}
	return f.hyb.nextMerge(die, m)
}

// MergeDone ends die's running merge: its moves are programmed and its blocks erased.
func (f *FTL) MergeDone(die int) { f.hyb.mergeDone(die) }
