package fio

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// zonedDev is a zoned device in memory: zones of size bytes, each written only at its
// write pointer (a write elsewhere fails as the drive's Zone Invalid Write would), reset
// on request. It records the reads and the resets.
type zonedDev struct {
	size    int64
	wp      []int64
	maxOpen int
	resets  []int64 // zone starts, in order
	reads   [][2]int64
	partial int // the most zones partly written at once
}

func newZonedDev(zones int, size int64) *zonedDev {
	d := &zonedDev{size: size, wp: make([]int64, zones)}
	for i := range d.wp {
		d.wp[i] = int64(i) * size
	}
	return d
}

func (d *zonedDev) Do(p *sim.Proc, op uflip.Op, off, n int64) (sim.Time, error) {
	return d.DoData(p, op, off, n, nil)
}

func (d *zonedDev) DoData(p *sim.Proc, op uflip.Op, off, n int64, _ []uint64) (sim.Time, error) {
	z := off / d.size
	switch op {
	case uflip.OpWrite:
		if off != d.wp[z] || off+n > (z+1)*d.size {
			return 0, fmt.Errorf("%w: zone invalid write at %d (write pointer %d)", uflip.ErrIO, off, d.wp[z])
		}
		d.wp[z] += n
		k := 0
		for i, wp := range d.wp {
			if s := int64(i) * d.size; wp > s && wp < s+d.size {
				k++
			}
		}
		d.partial = max(d.partial, k)
	case uflip.OpRead:
		d.reads = append(d.reads, [2]int64{off, n})
	}
	p.Sleep(10 * sim.Microsecond)
	return 10 * sim.Microsecond, nil
}

func (d *zonedDev) NSID() uint32     { return 1 }
func (d *zonedDev) ZoneBytes() int64 { return d.size }
func (d *zonedDev) ReportZones() []DeviceZone {
	out := make([]DeviceZone, len(d.wp))
	for i, wp := range d.wp {
		out[i] = DeviceZone{Start: int64(i) * d.size, Cap: d.size, WP: wp}
	}
	return out
}
func (d *zonedDev) ZoneLimits() (int, int) { return d.maxOpen, 0 }
func (d *zonedDev) ResetZone(p *sim.Proc, off int64) (sim.Time, error) {
	d.wp[off/d.size] = off
	d.resets = append(d.resets, off)
	return 0, nil
}

// zbdRun decodes an INI job file and runs it on dev.
func zbdRun(t *testing.T, dev uflip.Device, ini string) ([]JobResult, error) {
	t.Helper()
	jobs, err := decodeINIString(ini)
	require.NoError(t, err)
	return runJobs(t, dev, jobs)
}

// TestZBDOptions: the zoned options' bad values are refused naming the option.
func TestZBDOptions(t *testing.T) {
	for _, c := range []struct{ ini, want string }{
		{"[a]\nzonemode=zbd\nzone_reset_threshold=1.5\n", `zone_reset_threshold: "1.5" is not a number between 0 and 1`},
		{"[a]\nzonemode=zbd\nzone_reset_frequency=x\n", `zone_reset_frequency: "x" is not a number between 0 and 1`},
		{"[a]\nzonemode=zbd\nrw=write\n", "direct: zonemode=zbd writes need direct=1"},
		{"[a]\nzonemode=zbd\nmax_open_zones=-1\n", "max_open_zones: -1 is negative"},
		{"[a]\nzonemode=zbd\nzoneskip=4k\n", "zoneskip: must be 0 with zonemode=zbd"},
		{"[a]\nzonemode=zbd\nzonerange=1m\n", "zonerange: is not used with zonemode=zbd"},
		{"[a]\nmax_open_zones=2\n", "max_open_zones: needs zonemode=zbd"},
		{"[a]\nzone_reset_frequency=0.5\n", "zone_reset_threshold and zone_reset_frequency need zonemode=zbd"},
		{"[a]\nzonemode=zbc\n", `"zbc" is not one of none, strided, zbd`},
	} {
		_, err := decodeINIString(c.ini)
		require.ErrorContains(t, err, c.want, c.ini)
	}
	dev := newZonedDev(16, 64<<10)
	dev.maxOpen = 4
	for _, c := range []struct{ ini, want string }{
		{"zonesize=128k\n", "zonesize: 131072 does not match the namespace's zone size 65536"},
		{"offset=4k\n", "offset: the region starts at 4096, not at a zone boundary"},
		{"size=100k\n", "size: the region of 102400 bytes is not a whole number of 65536-byte zones"},
		{"bs=128k\n", "bs: blocks of 131072 bytes exceed the 65536-byte zone"},
		{"max_open_zones=5\n", "max_open_zones: 5 exceeds the namespace's limit of 4 open zones"},
	} {
		ini := "[a]\nzonemode=zbd\nrw=write\ndirect=1\nsize=1m\n" + c.ini
		_, err := zbdRun(t, dev, ini)
		require.ErrorContains(t, err, c.want, c.ini)
	}
	_, err := zbdRun(t, dev, "[a]\nzonemode=zbd\nrw=trim\nsize=1m\n")
	require.ErrorContains(t, err, "rw=trim with zonemode=zbd: fio turns trims into zone resets")
	_, err = zbdRun(t, &fakeDev{}, "[a]\nzonemode=zbd\nrw=write\ndirect=1\nsize=1m\n")
	require.ErrorContains(t, err, "zonemode=zbd needs a zoned namespace")
}

// TestZBDResetThreshold: rw=write of 4 KiB blocks over two 64 KiB zones with
// zone_reset_threshold=0.5 (half of the 128 KiB range: 64 KiB) and
// zone_reset_frequency=1 (every write once over it). By hand: writes 1–16 fill zone 0
// (64 KiB below write pointers after the 16th); from write 17 on the data reaches the
// threshold before every write, so each resets its zone first: write 17 resets the empty
// zone 1 and writes at 64 KiB; write 18, sequential at 68 KiB, resets zone 1 again and is
// moved to its write pointer, 64 KiB; and so on to write 32. 16 resets of zone 1; zone 0
// is full, zone 1 holds 4 KiB.
func TestZBDResetThreshold(t *testing.T) {
	dev := newZonedDev(16, 64<<10)
	res, err := zbdRun(t, dev, "[a]\nzonemode=zbd\nrw=write\ndirect=1\nbs=4k\nsize=128k\nzone_reset_threshold=0.5\nzone_reset_frequency=1\n")
	require.NoError(t, err)
	require.Empty(t, res[0].Err)
	require.Len(t, dev.resets, 16)
	for _, r := range dev.resets {
		require.Equal(t, int64(64<<10), r)
	}
	require.Equal(t, []int64{64 << 10, 68 << 10}, dev.wp[:2])
}

// TestZBDReadsWrittenData: zone 0 holds 16 KiB, the rest of the 4-zone range is empty. A
// random read job reads only below zone 0's write pointer (zbd_find_zone: the nearest zone
// with data); a sequential one reads 0, 4, 8 and 12 KiB and then finds no further zone
// with data and ends: 4 reads.
func TestZBDReadsWrittenData(t *testing.T) {
	dev := newZonedDev(16, 64<<10)
	dev.wp[0] = 16 << 10
	_, err := zbdRun(t, dev, "[a]\nzonemode=zbd\nrw=randread\nbs=4k\nsize=256k\nio_size=64k\n")
	require.NoError(t, err)
	require.Len(t, dev.reads, 16)
	for _, r := range dev.reads {
		require.LessOrEqual(t, r[0]+r[1], int64(16<<10), "read %v past the write pointer", r)
	}
	dev.reads = nil
	_, err = zbdRun(t, dev, "[a]\nzonemode=zbd\nrw=read\nbs=4k\nsize=256k\n")
	require.NoError(t, err)
	require.Equal(t, [][2]int64{{0, 4096}, {4096, 4096}, {8192, 4096}, {12288, 4096}}, dev.reads)
}

// TestZBDMaxOpenZones: a random write job over 8 zones of 64 KiB (128 KiB in 4 KiB
// blocks) with max_open_zones=2 never has more than two zones partly written: each write
// goes to the write pointer of one of its two open zones, and a third is opened only when
// one of them fills. The control, the same job without the limit (the device has none),
// writes at the write pointer of the zone its random offset falls in, and so opens every
// one of the 8 zones at once.
func TestZBDMaxOpenZones(t *testing.T) {
	const job = "[a]\nzonemode=zbd\nrw=randwrite\ndirect=1\nbs=4k\nsize=512k\nio_size=128k\n"
	dev := newZonedDev(16, 64<<10)
	_, err := zbdRun(t, dev, job+"max_open_zones=2\n")
	require.NoError(t, err)
	require.Equal(t, 2, dev.partial)
	var total int64
	for i := range 8 {
		total += dev.wp[i] - int64(i)*(64<<10)
	}
	require.Equal(t, int64(128<<10), total)
	ctl := newZonedDev(16, 64<<10)
	_, err = zbdRun(t, ctl, job)
	require.NoError(t, err)
	require.Equal(t, 8, ctl.partial)
}
