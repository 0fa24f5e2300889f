package hostos

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// FioMachine is the simulated host as fio jobs see it (fio.Machine): a name under /dev/
// is an NVMe namespace, opened O_DIRECT (RawDevice): /dev/nvme0nN namespace N, any other
// name namespace 1 (so a tenant's jobs name its namespace); any other name is a file of the page
// cache's file system, which starts empty. A file is created with its whole size allocated
// (fallocate) the first time a job opens it, and laid out before the job runs when the job
// reads it (fio writes such files in full first, "Laying out IO file"): here with 1 MiB
// O_DIRECT writes, so the data is on the SSD and nothing of it is cached. Every open drops
// the file's clean cached pages, as fio's invalidate=1 default does.
type FioMachine struct {
	h   *Host
	raw [2]*RawDevice // without and with FUA on writes
	// others are namespaces 2 … (/dev/nvme0nN), opened the first time a job names them.
	others   map[uint32]*[2]*RawDevice
	capacity int64
	files    map[string]*fioFile
	check    *pagecache.DataCheck
}

// fioFile is one file of the simulated file system and its layout state.
type fioFile struct {
	f       *pagecache.File
	laying  bool // a job is writing it out; others wait on laid
	laidOut bool
	laid    sim.Signal
}

var _ fio.Machine = (*FioMachine)(nil)

// layoutChunk is the size of the writes that lay a file out.
const layoutChunk = 1 << 20

// NewFioMachine returns the fio view of host h on raw, its namespace. With dataCheck, the
// page cache's end-to-end data check is turned on (before any I/O; a verify job on a
// buffered file needs it), so buffered files carry data versions too.
func NewFioMachine(h *Host, raw *RawDevice, dataCheck bool) (*FioMachine, error) {
	if h == nil || raw == nil {
		return nil, errors.New("hostos: NewFioMachine needs a host and its raw device")
	}
	sync, err := NewRawDevice(h, raw.Capacity())
	if err != nil {
		return nil, err
	}
	nosync, err := NewRawDevice(h, raw.Capacity())
	if err != nil {
		return nil, err
	}
	// fio's direct=1 is O_DIRECT; its sync=1 adds O_SYNC. The platform's direct_fua marks
	// every direct write FUA (O_DIRECT|O_SYNC); sync=1 marks them FUA either way.
	sync.SetFUA(true)
	nosync.SetFUA(raw.FUA())
	m := &FioMachine{h: h, raw: [2]*RawDevice{nosync, sync}, capacity: raw.Capacity(), files: map[string]*fioFile{}}
	if dataCheck {
		m.check = h.Cache.EnableDataCheck(raw.Capacity() / pagecache.PageSize)
	}
	return m, nil
}

// Capacity returns the namespace's size in bytes.
func (m *FioMachine) Capacity() int64 { return m.capacity }

// BlockSize returns the namespace's logical block size.
func (m *FioMachine) BlockSize() int64 { return m.raw[0].BlockSize() }

// FreeBytes returns the file system's free space.
func (m *FioMachine) FreeBytes() int64 { return m.h.Cache.FreeBytes() }

// DataMismatches returns the page cache data check's mismatches so far and the first.
func (m *FioMachine) DataMismatches() (int64, string) {
	if m.check == nil {
		return 0, ""
	}
	return m.check.Mismatches, m.check.First
}

// Open opens spec for process p and returns the target and its size.
func (m *FioMachine) Open(p *sim.Proc, spec fio.TargetSpec) (fio.Target, int64, error) {
	if strings.HasPrefix(spec.Name, "/dev/") {
		if !spec.Direct {
			return nil, 0, fmt.Errorf("%s: buffered I/O on the block device is not modelled", spec.Name)
		}
		pair, err := m.namespace(spec.Name)
		if err != nil {
			return nil, 0, err
		}
		d := pair[0]
		if spec.Sync {
			d = pair[1]
		}
		return d, d.Capacity(), nil
	}
	t := m.h.Task(p)
	ff := m.files[spec.Name]
	if ff == nil {
		if spec.Size <= 0 {
			return nil, 0, errors.New("no size given and the file does not exist on the simulated machine, whose file system starts empty (fio: you need to specify size=)")
		}
		// Other jobs opening the name while it is created wait for it (Create takes time).
		ff = &fioFile{laying: true}
		m.files[spec.Name] = ff
		f, err := m.h.Cache.Create(t, spec.Name)
		ff.f, ff.laying = f, false
		ff.laid.Broadcast()
		if err != nil {
			delete(m.files, spec.Name)
			return nil, 0, err
		}
	}
	for ff.laying {
		p.Wait(&ff.laid)
	}
	if ff.f == nil {
		return nil, 0, errors.New("could not be created")
	}
	if spec.Size > ff.f.Size() {
		if err := m.h.Cache.Fallocate(ff.f, spec.Size); err != nil {
			return nil, 0, fmt.Errorf("%d B: %w (the device holds %d B)", spec.Size, err, m.capacity)
		}
		ff.laidOut = false // the new part has no data yet
	}
	if spec.Layout && !ff.laidOut {
		ff.laying = true
		err := m.layout(p, ff.f)
		ff.laying, ff.laidOut = false, err == nil
		ff.laid.Broadcast()
		if err != nil {
			return nil, 0, fmt.Errorf("laying out: %w", err)
		}
	}
	if err := m.h.Cache.Invalidate(t, ff.f); err != nil {
		return nil, 0, err
	}
	if spec.WriteHint != 0 {
		// fio's td_io_open_file: fcntl(F_SET_RW_HINT) on the file, after its layout.
		if err := m.h.Cache.SetWriteHint(ff.f, blk.WriteHint(spec.WriteHint)); err != nil {
			return nil, 0, err
		}
	}
	d := OpenFileDevice(m.h, ff.f, spec.Direct)
	d.SetFadvise([...]pagecache.Fadvise{pagecache.FadvNormal, pagecache.FadvRandom, pagecache.FadvSequential}[spec.Advice])
	if spec.Direct && spec.Verify {
		return &directFileData{FileDevice: d, raw: m.raw[0], ext: ff.f.Extents()}, ff.f.Size(), nil
	}
	return d, ff.f.Size(), nil
}

// namespace returns the raw devices (without and with FUA) of the namespace a device
// name opens: /dev/nvme0nN is namespace N (Linux's naming of controller 0's namespaces),
// and so is /dev/ng0nN (its generic character device, for NVMe passthrough: fio's
// io_uring_cmd), any other name under /dev/ namespace 1.
func (m *FioMachine) namespace(name string) (*[2]*RawDevice, error) {
	var nsid uint32 = 1
	rest, ok := strings.CutPrefix(name, "/dev/nvme0n")
	if !ok {
		rest, ok = strings.CutPrefix(name, "/dev/ng0n")
	}
	if ok {
		if n, err := strconv.ParseUint(rest, 10, 32); err == nil && n >= 1 {
			nsid = uint32(n)
		}
	}
	if nsid == 1 {
		return &m.raw, nil
	}
	if pair := m.others[nsid]; pair != nil {
		return pair, nil
	}
	if m.h.Driver.Namespace(nsid) == nil {
		return nil, fmt.Errorf("%s: the controller has %d namespaces (nvme.namespaces)", name, len(m.h.Driver.Namespaces()))
	}
	pair := &[2]*RawDevice{}
	for i := range pair {
		d, err := NewNamespaceDevice(m.h, nsid)
		if err != nil {
			return nil, err
		}
		d.SetFUA(i == 1 || m.raw[0].FUA())
		pair[i] = d
	}
	if m.others == nil {
		m.others = map[uint32]*[2]*RawDevice{}
	}
	m.others[nsid] = pair
	return pair, nil
}

// layout writes file f in full with O_DIRECT writes of up to layoutChunk bytes.
func (m *FioMachine) layout(p *sim.Proc, f *pagecache.File) error {
	d := OpenFileDevice(m.h, f, true)
	block := max(int64(m.h.Driver.LogicalBlockSize()), SectorSize)
	for off := int64(0); off < f.Size(); off += layoutChunk {
		n := min(int64(layoutChunk), f.Size()-off)
		n = (n + block - 1) / block * block
		if _, err := d.Do(p, uflip.OpWrite, off, n); err != nil {
			return err
		}
	}
	return nil
}

// Unlink removes the named file (its extents are trimmed).
func (m *FioMachine) Unlink(p *sim.Proc, name string) error {
	ff := m.files[name]
	if ff == nil {
		return nil
	}
	delete(m.files, name)
	return m.h.Cache.Unlink(m.h.Task(p), ff.f)
}

// directFileData is a file opened O_DIRECT by a job that verifies: the page cache's direct
// path carries no data versions, so its verified I/O goes, as O_DIRECT file I/O does, to the
// namespace at the file's extents (all allocated when the file was created), carrying one.
// The syscall and bios are the raw device's, one per extent piece; the file's cached pages
// are neither written back nor dropped first (a verify job does not mix buffered and direct
// I/O on one file).
type directFileData struct {
	*FileDevice
	raw *RawDevice
	ext [][2]int64 // (device byte offset, bytes) in file order
}

var _ fio.DataTarget = (*directFileData)(nil)

// DoData performs one I/O at file offset off with data words (nvmedrv.Stamper's layout).
func (d *directFileData) DoData(p *sim.Proc, op uflip.Op, off, size int64, stamps []uint64) (sim.Time, error) {
	start := p.Now()
	si := 0
	for pos := off; pos < off+size; {
		dev, run, ok := d.devOf(pos)
		if !ok {
			return p.Now() - start, fmt.Errorf("hostos: file %s: offset %d is not allocated", d.File().Name(), pos)
		}
		n := min(off+size-pos, run)
		k := nvmedrv.StampPages(pos, n) // file and device pages start together (page extents)
		if _, err := d.raw.DoData(p, op, dev, n, stamps[si:si+k]); err != nil {
			return p.Now() - start, err
		}
		si += k
		pos += n
	}
	return p.Now() - start, nil
}

// devOf returns the device byte of file byte pos and the bytes left in its extent.
func (d *directFileData) devOf(pos int64) (dev, run int64, ok bool) {
	var fileOff int64
	for _, e := range d.ext {
		if pos < fileOff+e[1] {
			return e[0] + pos - fileOff, fileOff + e[1] - pos, true
		}
		fileOff += e[1]
	}
	return 0, 0, false
}
