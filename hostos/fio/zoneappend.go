package fio

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Zone Append from fio (fio pull request #2103, merged June 2026: "io_uring: Add support
// for 'zone_append' when using uring_cmd and zonemode ZBD"). fio issues Zone Append only
// through NVMe passthrough: ioengine=io_uring_cmd (cmd_type=nvme) on the namespace's
// generic character device /dev/ngXnY, zonemode=zbd and write_mode=zone_append. Linux has
// no Zone Append for a program's read/write calls: the kernel's REQ_OP_ZONE_APPEND is
// for file systems (zonefs, btrfs), and fio's proposals to pass it from libaio and
// io_uring (pull requests #1021, #1026, 2020) were closed unmerged, as the kernel
// interface they needed was not taken. So with any other engine fio's zbd mode writes
// at the write pointer, one write in flight per zone (zone write plugging).
//
// With write_mode=zone_append fio's zbd logic still picks each write's zone and length
// and advances its copy of the write pointer when it queues the write (zbd.go), but the
// command names the zone's start (ZSLBA) and the device writes the data at the zone's
// write pointer when it runs it, returning where (ALBA). The request goes past the block
// layer's scheduler and zone write plugs (hostos/blk/passthrough.go), so a zone can have
// iodepth appends in flight where its writes go one at a time. The data carries no
// version stamps (its place is the device's choice), so verify is refused. Only writes
// are modelled through passthrough: reads and trims are refused.

// Zone Append's write_mode value and the NVMe generic character device's name prefix.
const (
	writeModeZoneAppend = "zone_append"
	genericCharDev      = "/dev/ng0n"
	engineURingCmd      = "io_uring_cmd"
)

// noteZoneAppend is how the io_uring_cmd engine maps.
const noteZoneAppend = "NVMe passthrough on /dev/ng0nN, modelled for Zone Append only (write_mode=zone_append with zonemode=zbd, fio pull request #2103): iodepth appends in flight, several to a zone, past the block layer's scheduler and zone write plugs; reads, trims and other write modes through passthrough are refused"

// notePI is why the end-to-end protection options of io_uring_cmd and xnvme are refused.
const notePI = "protection information and metadata (io_uring_cmd, xnvme) are not modelled: namespaces have no metadata"

// AppendTarget is a zoned target that takes Zone Append by passthrough.
type AppendTarget interface {
	ZonedTarget
	// ZoneAppend appends size bytes to the zone starting at zoneStart, with the FUA bit if
	// fua, and returns the latency and the byte offset the device wrote them at.
	ZoneAppend(p *sim.Proc, zoneStart, size int64, fua bool) (sim.Time, int64, error)
}

func setCmdType(_ *Job, v string, _ setCtx) error {
	if strings.ToLower(v) != "nvme" {
		return fmt.Errorf("%q is not a command type of io_uring_cmd (fio knows nvme only)", v)
	}
	return nil
}

func setWriteFUA(j *Job, v string, _ setCtx) error { return setParsed(&j.WriteFUA, v, ParseBool) }

// setWriteMode reads io_uring_cmd's write_mode: zone_append; fio's write, uncor, zeroes and
// verify are refused (the engine is modelled for Zone Append only).
func setWriteMode(j *Job, v string, _ setCtx) error {
	switch m := strings.ToLower(v); m {
	case writeModeZoneAppend:
		j.WriteMode = m
		return nil
	case "write", "uncor", "zeroes", "verify":
		return refuse("write_mode=%s: io_uring_cmd (NVMe passthrough) is modelled for Zone Append only (write_mode=zone_append with zonemode=zbd); use ioengine=io_uring on /dev/nvme0nN for writes", m)
	}
	return fmt.Errorf("%q is not one of write, uncor, zeroes, verify, zone_append", v)
}

// appends reports whether the job's writes are Zone Appends.
func (j Job) appends() bool { return j.WriteMode == writeModeZoneAppend }

// appendProblems checks io_uring_cmd and its options.
func (j Job) appendProblems(bad func(field, format string, a ...any)) {
	names := strings.Split(j.Filename, ":")
	generic := false
	for _, n := range names {
		generic = generic || strings.HasPrefix(n, "/dev/ng")
	}
	if j.IOEngine != engineURingCmd {
		switch {
		case j.WriteMode != "":
			bad("write_mode", "an option of io_uring_cmd, not of ioengine=%s", j.IOEngine)
		case j.WriteFUA:
			bad("writefua", "an option of io_uring_cmd (and the refused sg), not of ioengine=%s", j.IOEngine)
		case generic:
			bad("filename", "%s is an NVMe generic character device, which only ioengine=io_uring_cmd uses (the block device is /dev/nvme0nN)", j.Filename)
		}
		return
	}
	switch {
	case !j.appends():
		bad("ioengine", "io_uring_cmd (NVMe passthrough) is modelled for Zone Append only: set write_mode=zone_append with zonemode=zbd, or use ioengine=io_uring on /dev/nvme0nN")
	case j.ZoneMode != "zbd":
		bad("write_mode", "zone_append needs zonemode=zbd (fio issues Zone Append only in zbd mode)")
	case len(names) != 1 || !strings.HasPrefix(j.Filename, genericCharDev):
		bad("filename", "io_uring_cmd needs the namespace's generic character device, filename=/dev/ng0nN (fio: the engine only works with NVMe generic char devices)")
	case j.RW.Reads() || j.RW.Trims():
		bad("rw", "%v: io_uring_cmd reads and trims are not modelled (Zone Append only): use rw=write or rw=randwrite", j.RW)
	case j.Verify != "":
		bad("verify", "with write_mode=zone_append is not modelled (the device picks where each append's data goes)")
	}
}

// zoneAppend sends write io of copy c as a Zone Append to its zone's start and checks that
// the device put the data inside that zone.
func (r *Execution) zoneAppend(q *sim.Proc, c *copyRun, t Target, io IO) (sim.Time, error) {
	at, ok := t.(AppendTarget)
	if !ok || c.zbd == nil {
		return 0, fmt.Errorf("write_mode=zone_append: the target takes no Zone Append (a zoned namespace's /dev/ng0nN with zonemode=zbd)")
	}
	zs := c.zbd.info.size
	start := io.Offset / zs * zs
	lat, got, err := at.ZoneAppend(q, start, io.Size, r.jobs[c.job].WriteFUA)
	if err == nil && (got < start || got+io.Size > start+zs) {
		return lat, fmt.Errorf("zone append to the zone at %d: the device reports it wrote %d B at %d, outside the zone", start, io.Size, got)
	}
	return lat, err
}
