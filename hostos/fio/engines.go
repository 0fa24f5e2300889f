package fio

import "sort"

// engineKind says how an fio engine runs on the simulated host.
type engineKind uint8

const (
	engineSync    engineKind = iota // one I/O at a time per job copy (iodepth has no effect)
	engineAsync                     // iodepth I/Os in flight when direct; see queued()
	engineMmap                      // memory-mapped file: page-cache I/O without queueing
	engineRefused                   // not modelled; note says why
)

// engine is one of fio's I/O engines.
type engine struct {
	name string
	kind engineKind
	note string
}

// mapped reports whether the engine runs on the simulated host.
func (e engine) mapped() bool { return e.kind != engineRefused }

// Reasons shared by refused engines.
const (
	outsideNet   = "it talks over a network to a server outside the modelled host; the simulated machine has one local NVMe SSD (use psync, libaio or io_uring on a file or /dev/nvme0n1)"
	outsideNoIO  = "it does no data I/O on the device (file-system metadata, CPU load or programs), which the model does not time"
	outsideOther = "it drives a device or library outside the modelled host's block path"
)

// engineTable lists fio's engines (fio HOWTO, ioengine, and the engine-specific options).
var engineTable = []engine{
	{"sync", engineSync, "read(2)/write(2) after lseek(2): one I/O at a time"},
	{"psync", engineSync, "pread(2)/pwrite(2), fio's default: one I/O at a time"},
	{"vsync", engineSync, "readv(2)/writev(2): one I/O at a time (fio's coalescing of adjacent queued I/Os is not modelled: each I/O is its own call)"},
	{"pvsync", engineSync, "preadv(2)/pwritev(2): one I/O at a time"},
	{"pvsync2", engineSync, "preadv2(2)/pwritev2(2): one I/O at a time"},
	{"libaio", engineAsync, "io_submit(2): iodepth I/Os in flight with direct=1; buffered I/O completes inside io_submit, as Linux does (fio HOWTO, iodepth), so buffered jobs run at depth 1"},
	{"io_uring", engineAsync, "io_uring: iodepth I/Os in flight with direct=1; buffered I/O runs at depth 1 here (the page cache model has no io-wq workers)"},
	{"posixaio", engineAsync, "aio_read(3)/aio_write(3): iodepth I/Os in flight with direct=1; buffered I/O at depth 1"},
	{"mmap", engineMmap, "the file is mapped and copied with memcpy: page-cache I/O, one I/O at a time; each access is charged as a system call (page faults and msync are not modelled apart)"},
	{"null", engineRefused, "it does no I/O at all, so there is nothing to simulate"},
	{"cpp_null", engineRefused, "it does no I/O at all, so there is nothing to simulate"},
	{"cpuio", engineRefused, outsideNoIO},
	{"exec", engineRefused, outsideNoIO},
	{"filecreate", engineRefused, outsideNoIO},
	{"filestat", engineRefused, outsideNoIO},
	{"filedelete", engineRefused, outsideNoIO},
	{"dircreate", engineRefused, outsideNoIO},
	{"dirstat", engineRefused, outsideNoIO},
	{"dirdelete", engineRefused, outsideNoIO},
	{"filesetxattr", engineRefused, outsideNoIO},
	{"filelistxattr", engineRefused, outsideNoIO},
	{"ftruncate", engineRefused, outsideNoIO},
	{"falloc", engineRefused, "fallocate(2) and hole punching are not modelled by the simulated file system"},
	{"e4defrag", engineRefused, "ext4 extent moves (EXT4_IOC_MOVE_EXT) are not modelled by the simulated file system"},
	{"page_fault", engineRefused, "anonymous-memory page faults do no device I/O"},
	{"net", engineRefused, outsideNet},
	{"netsplice", engineRefused, outsideNet},
	{"rdma", engineRefused, outsideNet},
	{"librpma_apm_client", engineRefused, outsideNet},
	{"librpma_apm_server", engineRefused, outsideNet},
	{"librpma_gpspm_client", engineRefused, outsideNet},
	{"librpma_gpspm_server", engineRefused, outsideNet},
	{"http", engineRefused, outsideNet},
	{"nbd", engineRefused, outsideNet},
	{"nfs", engineRefused, outsideNet},
	{"libiscsi", engineRefused, outsideNet},
	{"rbd", engineRefused, outsideNet},
	{"rados", engineRefused, outsideNet},
	{"gfapi", engineRefused, outsideNet},
	{"gfapi_async", engineRefused, outsideNet},
	{"libhdfs", engineRefused, outsideNet},
	{"dfs", engineRefused, outsideNet},
	{"sheepdog", engineRefused, outsideNet},
	{"ime_psync", engineRefused, outsideNet},
	{"ime_psyncv", engineRefused, outsideNet},
	{"ime_aio", engineRefused, outsideNet},
	{"libcufile", engineRefused, "it moves data between GPU memory and a GPUDirect file system; GPUs are not modelled"},
	{"libhipfile", engineRefused, "it moves data between GPU memory and a file system; GPUs are not modelled"},
	{"dev-dax", engineRefused, "it accesses persistent memory (DAX), not the NVMe SSD"},
	{"libpmem", engineRefused, "it accesses persistent memory (DAX), not the NVMe SSD"},
	{"pmemblk", engineRefused, "it accesses persistent memory (DAX), not the NVMe SSD"},
	{"mtd", engineRefused, "it drives raw flash through the MTD layer, which the host model does not have (the SSD's flash sits behind its firmware)"},
	{"sg", engineRefused, "it sends SCSI commands; the simulated device is NVMe"},
	{"sgunmap", engineRefused, "it sends SCSI commands; the simulated device is NVMe"},
	{"libzbc", engineRefused, "it drives zoned SCSI/ATA disks; the simulated device is a conventional NVMe namespace"},
	{"io_uring_cmd", engineAsync, noteZoneAppend},
	{"xnvme", engineRefused, "xNVMe's user-space and passthrough back ends bypass the modelled kernel path (use io_uring or libaio)"},
	{"spdk", engineRefused, "SPDK's user-space NVMe driver replaces the modelled kernel driver (use io_uring or libaio with direct=1)"},
	{"libblkio", engineRefused, outsideOther},
	{"splice", engineRefused, "splice(2)/vmsplice(2) pipes are not modelled"},
	{"binject", engineRefused, outsideOther},
	{"guasi", engineRefused, outsideOther},
	{"solarisaio", engineRefused, "a Solaris engine; the simulated host is Linux"},
	{"windowsaio", engineRefused, "a Windows engine; the simulated host is Linux"},
	{"fusion-aw-sync", engineRefused, "Fusion-io atomic writes need that vendor's device"},
	{"external", engineRefused, "external engine objects cannot run inside the simulator"},
}

// Engines returns fio's engines as documentation rows, sorted by name.
func Engines() []OptionDoc {
	var ds []OptionDoc
	for _, e := range engineTable {
		t := "mapped"
		if !e.mapped() {
			t = "refused"
		}
		ds = append(ds, OptionDoc{Name: e.name, Treatment: t, Note: e.note})
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a].Name < ds[b].Name })
	return ds
}

var engineIndex = func() map[string]engine {
	m := map[string]engine{}
	for _, e := range engineTable {
		m[e.name] = e
	}
	return m
}()

func lookupEngine(name string) (engine, bool) {
	e, ok := engineIndex[name]
	return e, ok
}

// isSyncEngine reports whether e runs one I/O at a time whatever iodepth says (fio HOWTO,
// iodepth: "increasing iodepth beyond 1 will not affect synchronous ioengines").
func isSyncEngine(e string) bool {
	eng, ok := lookupEngine(e)
	return ok && (eng.kind == engineSync || eng.kind == engineMmap)
}

// queued reports whether a job keeps iodepth I/Os in flight: an asynchronous engine with
// direct I/O. Linux queues only direct I/O for libaio (buffered I/O completes inside
// io_submit: fio HOWTO, iodepth, "This may happen on Linux when using libaio and not
// setting direct=1, since buffered I/O is not async on that OS").
func (j Job) queued() bool {
	if j.IOEngine == "" {
		return true // YAML jobs name no engine and keep their iodepth
	}
	eng, ok := lookupEngine(j.IOEngine)
	// NVMe passthrough (io_uring_cmd) never goes through the page cache.
	return ok && eng.kind == engineAsync && (j.Direct || j.IOEngine == engineURingCmd)
}

// notePlacement is how fio's Flexible Data Placement options map (placement.go).
const notePlacement = "fio's io_uring_cmd FDP option, taken on ioengine=io_uring with direct=1 on the namespace: each write carries a Linux 6.16 write stream, which the NVMe driver sends as the namespace's placement identifier of that index"

// engineOptions are the options of specific engines (fio HOWTO, "I/O engine specific
// parameters"). With a mapped engine they are read where they matter and refused where
// they would change what the model cannot do.
var engineOptions = []option{
	{name: "cmdprio_percentage", kind: optRefused, note: notePrio},
	{name: "cmdprio_class", kind: optRefused, note: notePrio},
	{name: "cmdprio", kind: optRefused, note: notePrio},
	{name: "cmdprio_bssplit", kind: optRefused, note: notePrio},
	{name: "fixedbufs", bool: true, kind: optNoEffect, note: "io_uring's registered buffers save host CPU the model does not charge per page mapping"},
	{name: "nonvectored", kind: optNoEffect, note: "vectored and plain calls cost the same in the model"},
	{name: "force_async", kind: optRefused, note: "io_uring's io-wq punting is not modelled"},
	{name: "registerfiles", bool: true, kind: optNoEffect, note: "file reference counting costs no simulated time"},
	{name: "sqthread_poll", bool: true, kind: optRefused, note: "an io_uring submission-queue polling thread is not modelled"},
	{name: "sqthread_poll_cpu", kind: optRefused, note: "an io_uring submission-queue polling thread is not modelled"},
	{name: "hipri", bool: true, kind: optRefusedUnless, note: "polled completions (hipri) are not modelled: the host NVMe driver model has interrupt-driven queues only", defaults: []string{"0", "false"}},
	{name: "hipri_percentage", kind: optRefused, note: "polled completions (hipri) are not modelled"},
	{name: "userspace_reap", bool: true, kind: optNoEffect, note: "reaping completions costs no simulated time apart from the interrupt"},
	{name: "nowait", bool: true, kind: optRefusedUnless, note: "RWF_NOWAIT (fail instead of block) is not modelled", defaults: []string{"0", "false"}},
	{name: "uncached", kind: optRefused, note: "RWF_DONTCACHE buffered I/O is not modelled by the page cache"},
	{name: "cmd_type", set: setCmdType, note: "io_uring_cmd: nvme (fio's only value)"},
	{name: "fdp", bool: true, set: setFDP, note: notePlacement},
	{name: "fdp_pli", aliases: []string{"plids"}, set: setFDPPLI, note: notePlacement},
	{name: "fdp_pli_select", set: setFDPSelect, note: notePlacement + "; roundrobin (the default) or random; scheme is refused"},
	{name: "dataplacement", set: setDataPlacement, note: notePlacement + "; none or fdp; streams is refused"},
	{name: "md_per_io_size", kind: optRefused, note: notePI},
	{name: "pi_act", kind: optRefused, note: notePI},
	{name: "pi_chk", kind: optRefused, note: notePI},
	{name: "apptag", kind: optRefused, note: notePI},
	{name: "apptag_mask", kind: optRefused, note: notePI},
	{name: "num_range", kind: optRefused, note: "io_uring_cmd's Dataset Management ranges: trims through NVMe passthrough are not modelled (io_uring_cmd is modelled for Zone Append only)"},
	{name: "readfua", bool: true, kind: optRefusedUnless, note: "io_uring_cmd reads are not modelled (Zone Append only), and sg is refused", defaults: []string{"0", "false"}},
	{name: "writefua", bool: true, set: setWriteFUA, note: "io_uring_cmd: the Zone Append command's FUA bit (CDW12 bit 30); sg is refused"},
	{name: "write_mode", set: setWriteMode, note: "io_uring_cmd: zone_append (fio pull request #2103, with zonemode=zbd) sends each write as an NVMe Zone Append to its zone's start; write, uncor, zeroes and verify are refused"},
	{name: "cpuload", kind: optEngine, engines: []string{"cpuio"}},
	{name: "cpuchunks", kind: optEngine, engines: []string{"cpuio"}},
	{name: "cpumode", kind: optEngine, engines: []string{"cpuio"}},
	{name: "exit_on_io_done", bool: true, kind: optEngine, engines: []string{"cpuio"}},
	{name: "namenode", kind: optEngine, engines: []string{"libhdfs"}},
	{name: "port", kind: optEngine, engines: []string{"net", "netsplice", "rdma", "libhdfs", "librpma_apm_client"}},
	{name: "hostname", kind: optEngine, engines: []string{"net", "netsplice", "rdma"}},
	{name: "serverip", kind: optEngine, engines: []string{"librpma_apm_client", "librpma_gpspm_client"}},
	{name: "direct_write_to_pmem", bool: true, kind: optEngine, engines: []string{"librpma_apm_server", "librpma_gpspm_server"}},
	{name: "busy_wait_polling", bool: true, kind: optEngine, engines: []string{"librpma_gpspm_server"}},
	{name: "interface", kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "ttl", kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "nodelay", bool: true, kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "protocol", aliases: []string{"proto"}, kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "listen", bool: true, kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "pingpong", bool: true, kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "window_size", kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "mss", kind: optEngine, engines: []string{"net", "netsplice"}},
	{name: "donorname", kind: optEngine, engines: []string{"e4defrag"}},
	{name: "inplace", kind: optEngine, engines: []string{"e4defrag"}},
	{name: "clustername", kind: optEngine, engines: []string{"rbd", "rados"}},
	{name: "rbdname", kind: optEngine, engines: []string{"rbd"}},
	{name: "clientname", kind: optEngine, engines: []string{"rbd", "rados"}},
	{name: "conf", kind: optEngine, engines: []string{"rados"}},
	{name: "busy_poll", bool: true, kind: optEngine, engines: []string{"rbd", "rados"}},
	{name: "touch_objects", bool: true, kind: optEngine, engines: []string{"rados"}},
	{name: "pool", kind: optEngine, engines: []string{"rbd", "rados", "dfs"}},
	{name: "cont", kind: optEngine, engines: []string{"dfs"}},
	{name: "chunk_size", kind: optEngine, engines: []string{"dfs", "libhdfs"}},
	{name: "object_class", kind: optEngine, engines: []string{"dfs"}},
	{name: "skip_bad", bool: true, kind: optEngine, engines: []string{"mtd"}},
	{name: "hdfsdirectory", kind: optEngine, engines: []string{"libhdfs"}},
	{name: "verb", kind: optEngine, engines: []string{"rdma"}},
	{name: "bindname", kind: optEngine, engines: []string{"rdma"}},
	{name: "stat_type", kind: optEngine, engines: []string{"filestat"}},
	{name: "sg_write_mode", kind: optEngine, engines: []string{"sg"}},
	{name: "stream_id", kind: optEngine, engines: []string{"sg"}},
	{name: "http_host", kind: optEngine, engines: []string{"http"}},
	{name: "http_user", kind: optEngine, engines: []string{"http"}},
	{name: "http_pass", kind: optEngine, engines: []string{"http"}},
	{name: "https", kind: optEngine, engines: []string{"http"}},
	{name: "http_mode", kind: optEngine, engines: []string{"http"}},
	{name: "http_s3_region", kind: optEngine, engines: []string{"http"}},
	{name: "http_s3_key", kind: optEngine, engines: []string{"http"}},
	{name: "http_s3_keyid", kind: optEngine, engines: []string{"http"}},
	{name: "http_s3_sse_customer_key", kind: optEngine, engines: []string{"http"}},
	{name: "http_s3_sse_customer_algorithm", kind: optEngine, engines: []string{"http"}},
	{name: "http_s3_storage_class", kind: optEngine, engines: []string{"http"}},
	{name: "http_swift_auth_token", kind: optEngine, engines: []string{"http"}},
	{name: "http_verbose", kind: optEngine, engines: []string{"http"}},
	{name: "uri", kind: optEngine, engines: []string{"nbd"}},
	{name: "gpu_dev_ids", kind: optEngine, engines: []string{"libcufile", "libhipfile"}},
	{name: "cuda_io", kind: optEngine, engines: []string{"libcufile"}},
	{name: "rocm_io", kind: optEngine, engines: []string{"libhipfile"}},
	{name: "nfs_url", kind: optEngine, engines: []string{"nfs"}},
	{name: "program", kind: optEngine, engines: []string{"exec"}},
	{name: "arguments", kind: optEngine, engines: []string{"exec"}},
	{name: "grace_time", kind: optEngine, engines: []string{"exec"}},
	{name: "std_redirect", bool: true, kind: optEngine, engines: []string{"exec"}},
	{name: "xnvme_async", kind: optEngine, engines: []string{"xnvme"}},
	{name: "xnvme_sync", kind: optEngine, engines: []string{"xnvme"}},
	{name: "xnvme_admin", kind: optEngine, engines: []string{"xnvme"}},
	{name: "xnvme_dev_nsid", kind: optEngine, engines: []string{"xnvme"}},
	{name: "xnvme_dev_subnqn", kind: optEngine, engines: []string{"xnvme"}},
	{name: "xnvme_mem", kind: optEngine, engines: []string{"xnvme"}},
	{name: "xnvme_iovec", kind: optEngine, engines: []string{"xnvme"}},
	{name: "libblkio_driver", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_path", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_pre_connect_props", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_num_entries", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_queue_size", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_pre_start_props", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_vectored", bool: true, kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_write_zeroes_on_trim", bool: true, kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_wait_mode", kind: optEngine, engines: []string{"libblkio"}},
	{name: "libblkio_force_enable_completion_eventfd", bool: true, kind: optEngine, engines: []string{"libblkio"}},
	{name: "xattr_count", kind: optEngine, engines: []string{"filesetxattr"}},
	{name: "xattr_size", kind: optEngine, engines: []string{"filesetxattr"}},
	{name: "target", kind: optEngine, engines: []string{"sheepdog"}},
	{name: "volume", kind: optEngine, engines: []string{"gfapi", "gfapi_async"}},
	{name: "brick", kind: optEngine, engines: []string{"gfapi", "gfapi_async"}},
	{name: "cleanup", kind: optEngine, engines: []string{"rados"}},
	{name: "reuse", kind: optEngine, engines: []string{"rados"}},
}
