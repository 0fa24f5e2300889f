package fio

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// splitNames splits a ':'-separated list, where "\:" is a colon inside a name (fio HOWTO,
// filename: "Each colon in the wanted path must be escaped with a \ character").
func splitNames(s string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ':':
			b.WriteByte(':')
			i++
		case s[i] == ':':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(out, b.String())
}

// fileNames returns the files copy k of job j opens, as fio names them (fio HOWTO,
// filename, filename_format, directory, nrfiles): the filename list if given (every copy
// shares it); a job named after a device uses that device; otherwise nrfiles names made
// from filename_format (default $jobname.$jobnum.$filenum) in the copy's directory (the
// ':'-separated directories are dealt to the copies in turn).
func fileNames(j Job, k int) []string {
	dirs := splitNames(j.Directory)
	if j.Filename != "" {
		names := splitNames(j.Filename)
		for i, n := range names {
			if j.Directory != "" && !path.IsAbs(n) {
				names[i] = path.Join(dirs[0], n)
			}
		}
		return names
	}
	n := max(j.NrFiles, 1)
	if n == 1 && isDevice(j.Name) {
		return []string{j.Name} // fio uses a job name that is an existing device as the file
	}
	format := j.FilenameFormat
	if format == "" {
		format = "$jobname.$jobnum.$filenum"
	}
	dir := ""
	if j.Directory != "" {
		dir = dirs[k%len(dirs)]
	}
	names := make([]string, n)
	for i := range n {
		name := strings.NewReplacer("$jobname", j.Name, "$jobnum", strconv.Itoa(k),
			"$filenum", strconv.FormatInt(i, 10), "$clientuid", "0").Replace(format)
		if dir != "" && !path.IsAbs(name) {
			name = path.Join(dir, name)
		}
		names[i] = name
	}
	return names
}

// pct returns p percent of n, rounded down to a multiple of align (fio aligns percentage
// offsets and sizes to the minimum block size).
func pct(n, p, align int64) int64 {
	v := n / 100 * p
	v += n % 100 * p / 100
	return v / align * align
}

// open resolves and opens copy c's files and returns the region of each.
func (r *Execution) open(q *sim.Proc, c *copyRun) ([]span, error) {
	j := r.jobs[c.job]
	align := j.MinBS()
	if r.oneDevice {
		if j.WriteHint != 0 {
			return nil, refuse("write_hint: the job addresses a bare device, not a file of the simulated file system, so there is no inode to set the hint on")
		}
		t, capacity, _ := r.m.Open(q, TargetSpec{})
		c.targets = []Target{t}
		if j.FDP {
			pl, err := newPlacer(j, c.k, t, "device")
			if err != nil {
				return nil, err
			}
			c.place = pl
		}
		s, err := deviceRegion(j, capacity, c.k, align)
		return []span{s}, err
	}
	names := fileNames(j, c.k)
	c.fileNames = names
	var spans []span
	layout := j.RW.Reads() || (j.Verify != "" && !j.RW.Writes())
	for i, name := range names {
		// NVMe passthrough (io_uring_cmd) is direct whatever direct says.
		direct := j.Direct || j.IOEngine == engineURingCmd
		spec := TargetSpec{Name: name, Direct: direct, Sync: j.Sync, Layout: layout, Mmap: j.IOEngine == "mmap", Advice: j.advice(), Verify: j.Verify != "", WriteHint: j.WriteHint}
		if isDevice(name) {
			if !direct {
				return nil, refuse("%s: buffered I/O on the block device (its own page cache) is not modelled; use direct=1, or a file name for buffered I/O", name)
			}
			t, capacity, err := r.m.Open(q, spec)
			if err != nil {
				return nil, err
			}
			bs := r.m.BlockSize()
			if b, ok := t.(interface{ BlockSize() int64 }); ok {
				bs = b.BlockSize() // the namespace's own LBA size
			}
			if j.MinBS()%bs != 0 || j.Align()%bs != 0 {
				return nil, fmt.Errorf("%s: direct I/O of %d bytes (alignment %d) on a namespace of %d-byte logical blocks: Linux fails it with EINVAL (block/fops.c); a namespace of smaller blocks is --set nvme.lba_size=512", name, j.MinBS(), j.Align(), bs)
			}
			if j.FDP && c.place == nil {
				if c.place, err = newPlacer(j, c.k, t, name); err != nil {
					return nil, err
				}
			}
			s, err := deviceRegion(j, capacity, c.k, align)
			if err != nil {
				return nil, err
			}
			c.targets = append(c.targets, t)
			spans = append(spans, s)
			continue
		}
		if j.FDP {
			return nil, refuse("%s: fdp=1 on a regular file: write streams are modelled on the namespace only (filename=/dev/nvme0n1)", name)
		}
		if j.RW.Trims() {
			return nil, refuse("%s: trim on a regular file (hole punching) is not modelled by the simulated file system; trim the namespace (filename=/dev/nvme0n1)", name)
		}
		size, err := r.fileSize(j, c.k, i, len(names))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		spec.Size = size
		t, got, err := r.m.Open(q, spec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s, err := fileRegion(j, got, c.k, len(names), align)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c.targets = append(c.targets, t)
		spans = append(spans, s)
	}
	return spans, nil
}

// names returns the files the copy opened.
func (c *copyRun) names(Job) []string { return c.fileNames }

// fileSize returns the size file i of copy k must have (fio HOWTO, size, filesize,
// nrfiles, fill_device): filesize (a range draws each file's size), else size divided
// among the files plus the offset, else the file system's free space for fill_device;
// 0 means "use the existing file's size".
func (r *Execution) fileSize(j Job, k, i, n int) (int64, error) {
	const unit = 4096
	var size int64
	switch {
	case j.FileSizeMax > j.FileSize:
		rng := sim.NewRNG(j.RandSeed, fmt.Sprintf("fio/%s/%d/filesize/%d", j.Name, k, i))
		size = j.FileSize + rng.Int64N(j.FileSizeMax-j.FileSize+1)
	case j.FileSize > 0:
		size = j.FileSize
	case j.FillDevice:
		size = r.m.FreeBytes() / int64(n)
	case j.Size > 0:
		size = j.Size/int64(n) + j.Offset + j.OffsetInc*int64(k)
	}
	if size == 0 && j.SizePct > 0 {
		return 0, fmt.Errorf("size=%d%% of a file needs the file's size: give filesize", j.SizePct)
	}
	return (size + unit - 1) / unit * unit, nil
}

// regionStart returns copy k's first byte in a target of whole bytes: offset (or a
// percentage of whole) plus k × offset_increment (or a percentage of whole).
func regionStart(j Job, whole int64, k int, align int64) int64 {
	start, inc := j.Offset, j.OffsetInc
	if j.OffsetPct > 0 {
		start = pct(whole, j.OffsetPct, align)
	}
	if j.OffsetIncPct > 0 {
		inc = pct(whole, j.OffsetIncPct, align)
	}
	return start + inc*int64(k)
}

// deviceRegion returns copy k's region on a namespace of capacity bytes: offset (or a
// percentage of the capacity) plus k × offset_increment, and size (or a percentage) or
// the rest of the device.
func deviceRegion(j Job, capacity int64, k int, align int64) (span, error) {
	start := regionStart(j, capacity, k, align)
	length := j.Size
	switch {
	case j.SizePct > 0:
		length = pct(capacity, j.SizePct, align)
	case j.FillDevice || length == 0:
		length = capacity - start
	}
	if start >= capacity {
		return span{}, fmt.Errorf("job %s: offset %d (copy %d) is past the end of the device's %d bytes", j.Name, start, k, capacity)
	}
	if length <= 0 || start+length > capacity {
		return span{}, fmt.Errorf("job %s: region [%d, %d) does not fit the device's %d bytes", j.Name, start, start+length, capacity)
	}
	return span{start, length}, nil
}

// fileRegion returns copy k's region in a file of size bytes: from offset (plus k ×
// offset_increment) to the end, or size divided among n files when filesize is not given.
func fileRegion(j Job, size int64, k, n int, align int64) (span, error) {
	start := regionStart(j, size, k, align)
	length := size - start
	switch {
	case j.SizePct > 0:
		length = min(pct(size, j.SizePct, align), length)
	case j.Size > 0 && j.FileSize == 0 && !j.FillDevice:
		length = min(j.Size/int64(n), length)
	}
	if start >= size || length < j.MaxBS() {
		return span{}, fmt.Errorf("region [%d, %d) of the %d-byte file holds no %d-byte block", start, start+length, size, j.MaxBS())
	}
	return span{start, length}, nil
}
