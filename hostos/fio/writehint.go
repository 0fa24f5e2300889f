package fio

import "fmt"

// write_hint (fio HOWTO: "Use fcntl(2) to advise the kernel what life time to expect from
// a write": none, short, medium, long, extreme). fio sets it in td_io_open_file
// (ioengines.c) on every file and block device it opens: with F_SET_RW_HINT, the inode's
// hint, for buffered I/O, and with F_SET_FILE_RW_HINT, the open file's, for direct=1.
// Linux removed the per-open-file hint in 2022 (struct file's f_write_hint went with the
// rest of the 5.18 write-hint removal, and was not restored in 6.9 with the bio and inode
// fields), so fcntl fails F_SET_FILE_RW_HINT with EINVAL and fio fails such a job
// ("fcntl write hint"); the ZNS study scripts of stosys patch fio to use F_SET_RW_HINT for
// that reason. The simulator refuses direct=1 with write_hint accordingly.
//
// The hint is then the file's (the page cache's inode hint, kept after the job ends): the
// page cache's writes of the file carry it to the block layer, and whether it places data
// on an FDP drive depends on the file system (host.pagecache.hint_streams).

// writeHints are write_hint's values, indexed by RWH_WRITE_LIFE_* value − 1.
var writeHints = [...]string{"none", "short", "medium", "long", "extreme"}

func setWriteHint(j *Job, v string, _ setCtx) error {
	for i, name := range writeHints {
		if v == name {
			j.WriteHint = uint8(i + 1)
			return nil
		}
	}
	return fmt.Errorf("%q is not one of none, short, medium, long, extreme", v)
}

// writeHintProblems checks write_hint against the job's I/O mode.
func (j Job) writeHintProblems(bad func(field, format string, a ...any)) {
	if j.WriteHint == 0 {
		return
	}
	if j.Direct || j.IOEngine == engineURingCmd {
		bad("write_hint", "with direct I/O: fio sets it with fcntl F_SET_FILE_RW_HINT, which Linux has refused (EINVAL) since the per-open-file hint was removed in 2022, so fio fails the job at open; use buffered I/O (direct=0), whose writeback carries the inode's hint")
	}
}
