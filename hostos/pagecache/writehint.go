package pagecache

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
)

// Per-file write-lifetime hints and the write streams they become.
//
// A process sets a file's hint with fcntl(fd, F_SET_RW_HINT, &hint) (fs/fcntl.c: it is
// the inode's, inode->i_write_hint, shared by every open of the file and kept after it is
// closed; fio's write_hint does this at open). Every write bio the page cache makes for
// the file — flusher and fsync writeback, and O_DIRECT writes — carries the hint the
// inode has when the bio is built (bio->bi_write_hint, blk.WriteHint), as Linux 6.9+
// does in fs/buffer.c (submit_bh_wbc), ext4 (fs/ext4/page-io.c) and iomap.
//
// Linux's NVMe driver ignores bi_write_hint: it sends an FDP placement identifier only
// for a write stream (bi_write_stream, Linux 6.16). The one Linux code that turns a
// file's hint into a stream is f2fs's "map data writes to FDP streams" (Wenjie Qi,
// commit e6c8140bd06d in the f2fs tree, May 2026; fs/f2fs/segment.c, data.c, file.c):
// f2fs already sorts DATA writes into hot, warm and cold logs, with the inode's hint
// deciding when nothing else does (f2fs_rw_hint_to_seg_type, active_logs=6, the default:
// WRITE_LIFE_SHORT hot, WRITE_LIFE_EXTREME cold, every other hint and no hint warm;
// "f2fs: apply write hints to select the type of segments for buffered write", 2017), and
// when the device offers write streams it sets each data bio's stream from that class:
// with 1 stream all three use stream 1; with 2, hot and warm stream 1 and cold stream 2;
// with 3 or more, hot 1, warm 2, cold 3 (streams past the third are never used). On any
// other file system (ext4, XFS on a conventional device) the hint goes down in
// bi_write_hint and nothing places it.
//
// Spec.HintStreams chooses: "" or "none" (ext4/XFS: the hint is carried, no stream is
// set) or "f2fs" (f2fs's mapping above, applied to every write of the model's file
// system). Only the mapping is f2fs's: the model's file system writes in place (its
// extents, file.go) where f2fs would write out of place into per-temperature segments and
// clean them, and f2fs's own hot/cold rules (extension lists, the cold-file ioctl, GC'd
// data, age-based extents) are not modelled: a file's class comes from its hint alone.

// The hint-to-stream mappings (Spec.HintStreams).
const (
	HintStreamsNone = "none" // ext4, XFS: the hint rides in bi_write_hint only
	HintStreamsF2FS = "f2fs" // f2fs's temperature classes onto the device's write streams
)

// f2fs's DATA temperature classes (enum temp_type: HOT, WARM, COLD).
const (
	f2fsHot = iota
	f2fsWarm
	f2fsCold
)

// f2fsTemperature is f2fs_rw_hint_to_seg_type with six active logs: the class of a data
// write whose inode has hint h.
func f2fsTemperature(h blk.WriteHint) int {
	switch h {
	case blk.WriteLifeShort:
		return f2fsHot
	case blk.WriteLifeExtreme:
		return f2fsCold
	}
	return f2fsWarm
}

// f2fsStream is the write stream f2fs gives a data write of class temp on a device with
// streams write streams (0: none, the bio's stream left unset).
func f2fsStream(temp, streams int) uint8 {
	switch {
	case streams <= 0:
		return 0
	case streams == 1:
		return 1
	case streams == 2:
		if temp == f2fsCold {
			return 2
		}
		return 1
	}
	return uint8(temp + 1)
}

// checkHintStreams validates Spec.HintStreams.
func checkHintStreams(v string) error {
	switch v {
	case "", HintStreamsNone, HintStreamsF2FS:
		return nil
	}
	return fmt.Errorf("%q is not one of none, f2fs", v)
}

// SetWriteStreams tells the cache how many write streams its block device offers
// (bdev_max_write_streams: the namespace's FDP placement identifiers; 0 without FDP) and
// so fixes the stream each hint's writes get. The host calls it once, before any I/O.
func (c *Cache) SetWriteStreams(n int) {
	c.hintStream = [blk.NumWriteHints]uint8{}
	if c.spec.HintStreams != HintStreamsF2FS {
		return
	}
	for h := range blk.NumWriteHints {
		c.hintStream[h] = f2fsStream(f2fsTemperature(h), n)
	}
}

// WriteStreamOf returns the write stream the file system gives writes carrying hint h (0:
// none), as SetWriteStreams fixed it.
func (c *Cache) WriteStreamOf(h blk.WriteHint) uint8 {
	if !h.Valid() {
		return 0
	}
	return c.hintStream[h]
}

// SetWriteHint sets f's write-lifetime hint (fcntl F_SET_RW_HINT on an open of f: the
// inode's). Writes the cache builds from now on carry it; pages already under writeback
// keep the hint their bio was built with. A value outside RWH_WRITE_LIFE_* is EINVAL.
func (c *Cache) SetWriteHint(f *File, h blk.WriteHint) error {
	if !h.Valid() {
		return fmt.Errorf("pagecache: fcntl F_SET_RW_HINT on %s: hint %d is not an RWH_WRITE_LIFE_* value (EINVAL)", f.name, uint8(h))
	}
	f.writeHint = h
	return nil
}

// WriteHint returns f's write-lifetime hint (fcntl F_GET_RW_HINT).
func (f *File) WriteHint() blk.WriteHint { return f.writeHint }

// tagWrite gives a write bio of f its hint and the stream the file system maps it to.
func (c *Cache) tagWrite(r *req, f *File) {
	r.bio.WriteHint = f.writeHint
	r.bio.WriteStream = c.hintStream[f.writeHint]
}
