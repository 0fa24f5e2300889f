package fio

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Zoned block devices from fio (fio HOWTO, zonemode=zbd, zonesize, max_open_zones,
// zone_reset_threshold, zone_reset_frequency; fio's zbd.c, as of fio 3.3x). With
// zonemode=zbd a job's I/O obeys the device's zones, which fio reads at start (Report
// Zones) and then follows itself:
//
//   - A write goes to the write pointer of the zone its offset falls in: fio moves the
//     offset there and shortens the write to what the zone's capacity still holds (in
//     whole minimum block sizes), and advances its copy of the write pointer when it
//     queues the write (zbd_adjust_block, zbd_queue_io). With max_open_zones (0: the
//     device's own open limit) a job writes at most that many zones at once: a write to a
//     zone outside the open set goes to one of the open zones, picked from the write's
//     offset (zbd_convert_to_open_zone); a zone leaves the set when a write fills it.
//   - A write finding its zone full resets it first (after the job's writes in flight
//     have completed: io_u_quiesce), unless the job verifies: then full zones are never
//     written again, and every zone of the job's range that holds data is reset before
//     the job starts (zbd_file_reset), so verification reads what the job wrote.
//   - zone_reset_threshold and zone_reset_frequency: once the bytes below the write
//     pointers of the range reach threshold × the range's size, one write in every
//     1 / frequency resets its zone first.
//   - A read goes to data below a write pointer: a read of a zone with less than a block
//     of data moves to the nearest zone that has one (forward for a sequential job,
//     either way for a random one), and is kept below the write pointer
//     (zbd_find_zone).
//
// The job's region (offset, size) must be whole zones, and its blocks no larger than a
// zone; fio rounds a misaligned region with a message, the model refuses it naming the
// option. Writes need direct=1 (fio: "Using direct I/O is mandatory for writing to ZBD
// drives"), trims are refused (fio turns them into zone resets). Sizes in zones ('z') and
// job_max_open_zones, ignore_zone_limits and read_beyond_wp are not modelled.

// DeviceZone is one zone of a zoned target as Report Zones gives it, in bytes.
type DeviceZone struct {
	Start, Cap, WP int64
	Offline        bool // the zone can be neither read nor written (ZSO); Read Only zones are not writable either
	ReadOnly       bool
}

// ZonedTarget is a Target on a zoned namespace (zonemode=zbd needs one).
type ZonedTarget interface {
	DataTarget
	// NSID identifies the namespace: jobs on the same one share its zones' state, as fio
	// keeps one zone table per device.
	NSID() uint32
	ZoneBytes() int64
	ReportZones() []DeviceZone
	// ZoneLimits returns the namespace's open and active zone limits (0: none).
	ZoneLimits() (open, active int)
	ResetZone(p *sim.Proc, offset int64) (sim.Time, error)
}

// zbdZone is fio's state of one zone (struct fio_zone_info).
type zbdZone struct {
	start, cap, wp int64
	offline        bool
	open           bool
	reset          bool // reset before the next write (zone_reset_frequency)
}

// capEnd returns the end of the zone's writable capacity.
func (z *zbdZone) capEnd() int64 { return z.start + z.cap }

// zbdInfo is one zoned device's state shared by the jobs on it (struct
// zoned_block_device_info).
type zbdInfo struct {
	size       int64 // zone size
	zones      []zbdZone
	maxOpen    int   // 0: no limit
	maxOpenSet bool  // a job's max_open_zones set maxOpen
	open       []int // open zones, in the order opened
	wpData     int64 // bytes below the write pointers in the range (wp_sectors_with_data)
	writeCnt   int64 // writes left until the next threshold reset (write_cnt)
	resets     int64
}

// zbdCopy is a job copy's view of its device's zones.
type zbdCopy struct {
	info             *zbdInfo
	t                ZonedTarget
	minZone, maxZone int   // the copy's range, zones [minZone, maxZone)
	fileOff, ioSize  int64 // the range in bytes
	minBS            int64
	random, verify   bool
	threshold, freq  float64
	c                *copyRun
	idle             sim.Signal // the copy's I/Os in flight have all completed (quiesce)
	// busy: one of the copy's I/O slots is adjusting an I/O (possibly waiting for a quiesce
	// or a reset); the others wait on turn. fio adjusts a job's I/Os one at a time, in its
	// one thread, so a zone it decided to reset is reset before the next I/O is placed.
	busy bool
	turn sim.Signal
}

// zbdOpen sets up zonemode=zbd for copy c on its one target, region s.
func (r *Execution) zbdOpen(q *sim.Proc, c *copyRun, s span) error {
	j := r.jobs[c.job]
	if j.RW.Trims() {
		return refuse("rw=%v with zonemode=zbd: fio turns trims into zone resets, which is not modelled", j.RW)
	}
	if len(c.targets) != 1 {
		return refuse("zonemode=zbd with %d files: one zoned namespace per job is modelled", len(c.targets))
	}
	t, ok := c.targets[0].(ZonedTarget)
	if !ok || t.ZoneBytes() == 0 {
		return fmt.Errorf("zonemode=zbd needs a zoned namespace (filename=/dev/nvme0nN of a namespace of type zoned); this target has no zones")
	}
	zs := t.ZoneBytes()
	switch {
	case j.ZoneSize != 0 && j.ZoneSize != zs:
		return fmt.Errorf("zonesize: %d does not match the namespace's zone size %d (zonemode=zbd)", j.ZoneSize, zs)
	case s.start%zs != 0:
		return fmt.Errorf("offset: the region starts at %d, not at a zone boundary (zones of %d bytes; zonemode=zbd)", s.start, zs)
	case s.length%zs != 0:
		return fmt.Errorf("size: the region of %d bytes is not a whole number of %d-byte zones (zonemode=zbd)", s.length, zs)
	case j.MaxBS() > zs:
		return fmt.Errorf("bs: blocks of %d bytes exceed the %d-byte zone (zonemode=zbd)", j.MaxBS(), zs)
	}
	if r.zbds == nil {
		r.zbds = map[uint32]*zbdInfo{}
	}
	info := r.zbds[t.NSID()]
	if info == nil {
		info = &zbdInfo{size: zs}
		for _, z := range t.ReportZones() {
			info.zones = append(info.zones, zbdZone{start: z.Start, cap: z.Cap, wp: z.WP, offline: z.Offline || z.ReadOnly})
		}
		info.maxOpen, _ = t.ZoneLimits()
		r.zbds[t.NSID()] = info
	}
	devOpen, _ := t.ZoneLimits()
	if m := int(j.MaxOpenZones); m > 0 {
		switch {
		case devOpen > 0 && m > devOpen:
			return fmt.Errorf("max_open_zones: %d exceeds the namespace's limit of %d open zones (Maximum Open Resources)", m, devOpen)
		case info.maxOpenSet && info.maxOpen != m:
			return fmt.Errorf("max_open_zones: %d differs from another job's %d on the same namespace (fio keeps one limit per device)", m, info.maxOpen)
		}
		info.maxOpen, info.maxOpenSet = m, true
	}
	zc := &zbdCopy{info: info, t: t, minZone: int(s.start / zs), maxZone: int((s.start + s.length) / zs),
		fileOff: s.start, ioSize: s.length, minBS: j.MinBS(), random: j.RW.Random(), verify: j.Verify != "",
		threshold: j.ZoneResetThreshold, freq: j.ZoneResetFrequency, c: c}
	if zc.maxZone > len(info.zones) {
		return fmt.Errorf("size: the region ends at %d, past the namespace's %d zones", s.start+s.length, len(info.zones))
	}
	c.zbd = zc
	if !j.RW.Writes() {
		return nil
	}
	info.wpData = 0
	for i := zc.minZone; i < zc.maxZone; i++ {
		info.wpData += info.zones[i].wp - info.zones[i].start
	}
	if zc.verify {
		for i := zc.minZone; i < zc.maxZone; i++ {
			zc.closeZone(i)
			if z := &info.zones[i]; z.wp != z.start && !z.offline {
				if err := zc.resetZone(q, z); err != nil {
					return err
				}
			}
		}
	}
	zc.resetWriteCnt()
	return nil
}

// resetWriteCnt restarts the count of writes to the next threshold reset.
func (zc *zbdCopy) resetWriteCnt() {
	zc.info.writeCnt = 1 << 62
	if zc.freq > 0 {
		zc.info.writeCnt = int64(1 / zc.freq)
	}
}

// decWriteCnt counts a write toward the next threshold reset and reports whether it is due.
func (zc *zbdCopy) decWriteCnt() bool {
	if zc.info.writeCnt > 0 {
		zc.info.writeCnt--
	}
	if zc.info.writeCnt == 0 {
		zc.resetWriteCnt()
		return true
	}
	return false
}

// resetZone resets zone z on the device and in fio's table.
func (zc *zbdCopy) resetZone(q *sim.Proc, z *zbdZone) error {
	if _, err := zc.t.ResetZone(q, z.start); err != nil {
		return err
	}
	zc.info.wpData -= z.wp - z.start
	z.wp = z.start
	zc.info.resets++
	return nil
}

// full reports whether zone z cannot take n more bytes.
func full(z *zbdZone, n int64) bool { return z.wp+n > z.capEnd() }

// openZone opens zone i for the copy's writes if the limit allows (zbd_open_zone).
func (zc *zbdCopy) openZone(i int) bool {
	info := zc.info
	z := &info.zones[i]
	if z.offline || zc.verify && full(z, zc.minBS) {
		return false
	}
	if info.maxOpen == 0 {
		return true
	}
	if z.open {
		return z.wp < z.capEnd()
	}
	if len(info.open) >= info.maxOpen {
		return false
	}
	info.open = append(info.open, i)
	z.open = true
	return true
}

// closeZone takes zone i out of the open set.
func (zc *zbdCopy) closeZone(i int) {
	info := zc.info
	for k, o := range info.open {
		if o == i {
			info.open = append(info.open[:k], info.open[k+1:]...)
			info.zones[i].open = false
			return
		}
	}
}

// pickOpen returns the index in the open set a write at off starts its search from.
func (zc *zbdCopy) pickOpen(off int64) int {
	return int((off - zc.fileOff) * int64(len(zc.info.open)) / zc.ioSize)
}

// convertToOpen finds the zone a write at off goes to when its own zone cannot be opened
// (zbd_convert_to_open_zone): an open zone of the range picked from off with room for a
// block, else the next zone of the range that can be opened (after the copy's writes in
// flight complete, when every open resource is held), else any open zone of the range
// with room; −1 if none.
func (zc *zbdCopy) convertToOpen(q *sim.Proc, off int64) int {
	info := zc.info
	zi := int(off / info.size)
	if info.maxOpen > 0 && len(info.open) > 0 {
		for k := range len(info.open) {
			cand := info.open[(zc.pickOpen(off)+k)%len(info.open)]
			if cand >= zc.minZone && cand < zc.maxZone {
				zi = cand
				break
			}
		}
	}
	zi = min(max(zi, zc.minZone), zc.maxZone-1)
	if z := &info.zones[zi]; !z.offline && (info.maxOpen == 0 || z.open) && !full(z, zc.minBS) {
		return zi
	}
	if info.maxOpen > 0 && len(info.open) >= info.maxOpen {
		zc.quiesce(q)
	}
	for range zc.maxZone - zc.minZone {
		zi++
		if zi >= zc.maxZone {
			zi = zc.minZone
		}
		if !info.zones[zi].open && zc.openZone(zi) {
			return zi
		}
	}
	for _, o := range info.open {
		if o >= zc.minZone && o < zc.maxZone && !full(&info.zones[o], zc.minBS) {
			return o
		}
	}
	return -1
}

// quiesce waits until the copy's I/Os in flight have completed (io_u_quiesce).
func (zc *zbdCopy) quiesce(q *sim.Proc) {
	for zc.c.inFlight > 0 {
		q.Wait(&zc.idle)
	}
}

// findData returns the zone nearest zone from with at least n bytes of data (forward only
// for a sequential job), −1 if none (zbd_find_zone).
func (zc *zbdCopy) findData(from int, n int64) int {
	zs := zc.info.zones
	for d := 1; from+d < zc.maxZone || from-d >= zc.minZone; d++ {
		if a := from + d; a < zc.maxZone && !zs[a].offline && zs[a].start+n <= zs[a].wp {
			return a
		} else if a >= zc.maxZone && !zc.random {
			return -1
		}
		if b := from - d; zc.random && b >= zc.minZone && !zs[b].offline && zs[b].start+n <= zs[b].wp {
			return b
		}
	}
	return -1
}

// adjust moves io to where zonemode=zbd sends it and shortens it as fio does; ok is false
// when the job has nowhere left to do it (fio ends the job's I/O), err an error that ends
// the run.
func (zc *zbdCopy) adjust(q *sim.Proc, io *IO) (ok bool, err error) {
	for zc.busy {
		q.Wait(&zc.turn)
	}
	zc.busy = true
	defer func() {
		zc.busy = false
		zc.turn.Notify()
	}()
	info := zc.info
	switch io.Op {
	case uflip.OpRead:
		zi := int(io.Offset / info.size)
		z := &info.zones[zi]
		orig := z.start
		if rng := z.wp - z.start; z.offline || rng < zc.minBS || !zc.random && io.Offset+zc.minBS > z.wp {
			if zi = zc.findData(zi, zc.minBS); zi < 0 {
				return false, nil
			}
			z = &info.zones[zi]
			if !zc.random {
				io.Offset = z.start
			}
		}
		rng := z.wp - z.start
		switch {
		case rng <= io.Size:
			io.Offset = z.start
		case zc.random:
			io.Offset = z.start + (io.Offset-orig)%(rng-io.Size)/zc.minBS*zc.minBS
		}
		io.Size = min(io.Size, z.wp-io.Offset) / zc.minBS * zc.minBS
		return io.Size > 0, nil
	case uflip.OpWrite:
		zi := int(io.Offset / info.size)
		if !zc.openZone(zi) {
			if zi = zc.convertToOpen(q, io.Offset); zi < 0 {
				return false, nil
			}
		}
		z := &info.zones[zi]
		if zc.freq > 0 && float64(info.wpData) >= float64(zc.ioSize)*zc.threshold && zc.decWriteCnt() {
			z.reset = true
		}
		if z.reset || full(z, zc.minBS) {
			zc.quiesce(q)
			z.reset = false
			if err := zc.resetZone(q, z); err != nil {
				return false, err
			}
		}
		io.Offset = z.wp
		io.Size = min(io.Size, z.capEnd()-z.wp) / zc.minBS * zc.minBS
		if io.Size < zc.minBS {
			return false, fmt.Errorf("zone remainder %d smaller than the minimum block size %d (zonemode=zbd)", z.capEnd()-z.wp, zc.minBS)
		}
		z.wp += io.Size
		info.wpData += io.Size
		return true, nil
	}
	return true, nil
}

// ended notes a completed write: a zone it filled leaves the open set (zbd_end_zone_io).
func (zc *zbdCopy) ended(io IO) {
	if io.Op != uflip.OpWrite {
		return
	}
	zi := int(io.Offset / zc.info.size)
	if io.Offset+io.Size >= zc.info.zones[zi].capEnd() {
		zc.closeZone(zi)
	}
}

// setZoneFraction reads zone_reset_threshold or zone_reset_frequency: a number in [0, 1].
func setZoneFraction(dst func(j *Job) *float64) func(j *Job, v string, _ setCtx) error {
	return func(j *Job, v string, _ setCtx) error {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f >= 0 && f <= 1) {
			return fmt.Errorf("%q is not a number between 0 and 1", v)
		}
		*dst(j) = f
		return nil
	}
}

// validateZoned reports the problems of a job's zonemode=zbd options.
func (j Job) validateZoned(bad func(field, format string, args ...any)) {
	if j.ZoneMode != "zbd" {
		if j.MaxOpenZones != 0 {
			bad("max_open_zones", "needs zonemode=zbd")
		}
		if j.ZoneResetThreshold != 0 || j.ZoneResetFrequency != 0 {
			bad("zone_reset_frequency", "zone_reset_threshold and zone_reset_frequency need zonemode=zbd")
		}
		return
	}
	if j.MaxOpenZones < 0 {
		bad("max_open_zones", "%d is negative", j.MaxOpenZones)
	}
	if j.ZoneSkip != 0 {
		bad("zoneskip", "must be 0 with zonemode=zbd (fio HOWTO)")
	}
	if j.ZoneRange != 0 {
		bad("zonerange", "is not used with zonemode=zbd (the zone is the device's; fio ignores it): remove it")
	}
	if j.RW.Writes() && !j.Direct && j.IOEngine != engineURingCmd {
		bad("direct", "zonemode=zbd writes need direct=1 (fio: direct I/O is mandatory for writing to zoned drives)")
	}
	if j.FDP {
		bad("fdp", "Flexible Data Placement and zonemode=zbd do not go together (a zoned namespace has no placement handles)")
	}
}
