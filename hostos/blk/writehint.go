package blk

import "fmt"

// WriteHint is a write's data-lifetime hint (enum rw_hint, include/linux/rw_hint.h; the
// RWH_WRITE_LIFE_* values of fcntl F_SET_RW_HINT, include/uapi/linux/fcntl.h). A file's
// hint is its inode's (inode->i_write_hint); buffered writeback and O_DIRECT put it in
// each write bio (bio->bi_write_hint: fs/buffer.c submit_bh_wbc, iomap), and the block
// layer keeps it in the request (rq->write_hint) and merges only requests of one hint.
// Linux removed these fields in 5.18 and restored them in 6.9 (Bart Van Assche,
// "block, fs: Restore the per-bio/request data lifetime fields", 2024, reverting
// c75e707fe1aa with its merge checks). Linux's NVMe driver does not read the hint: it
// places a write by its write stream only (WriteStream; "nvme: use fdp streams if write
// stream is provided", 6.16), so a hint reaches an FDP drive only if a file system turns
// it into a stream (pagecache Spec.HintStreams).
type WriteHint uint8

// The hints (RWH_WRITE_LIFE_*).
const (
	WriteLifeNotSet  WriteHint = iota // RWH_WRITE_LIFE_NOT_SET (0): no hint
	WriteLifeNone                     // RWH_WRITE_LIFE_NONE (1)
	WriteLifeShort                    // RWH_WRITE_LIFE_SHORT (2)
	WriteLifeMedium                   // RWH_WRITE_LIFE_MEDIUM (3)
	WriteLifeLong                     // RWH_WRITE_LIFE_LONG (4)
	WriteLifeExtreme                  // RWH_WRITE_LIFE_EXTREME (5)
	NumWriteHints                     // number of hints, for per-hint arrays
)

var writeHintNames = [NumWriteHints]string{"not_set", "none", "short", "medium", "long", "extreme"}

// String returns the hint's lower-case name as fio's write_hint spells it ("not_set" for
// no hint).
func (h WriteHint) String() string {
	if h < NumWriteHints {
		return writeHintNames[h]
	}
	return fmt.Sprintf("rw_hint(%d)", uint8(h))
}

// Valid reports whether h is one of the RWH_WRITE_LIFE_* values (fcntl's rw_hint_valid:
// anything else is EINVAL).
func (h WriteHint) Valid() bool { return h < NumWriteHints }
