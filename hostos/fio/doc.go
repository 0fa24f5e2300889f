// Package fio runs fio jobs, written as fio INI job files or in YAML with fio's option
// names and meanings, as workloads of the simulated host. Decode tells the two apart by
// content; docs/fio.md lists every fio option and engine and how each maps onto the
// simulator (its tables are made from optionTable and engineTable).
//
// Place in the data flow: like package uflip, it sits at the top of the host side. INI files
// are read as fio reads them (ini.go: comments, include; expand.go: ${VAR}, $pagesize and
// expressions; decodeini.go and options.go: every option as fio, mapped, no effect or
// refused). A run (exec.go) opens each job copy's files or the namespace through a Machine
// (hostos.FioMachine on the simulated host: files laid out before the jobs that read them),
// orders the jobs (stonewall, wait_for, exitall), and runs each copy's Generator (gen.go)
// from as many worker processes as the engine keeps I/Os in flight (engines.go: direct
// asynchronous I/O only, as on Linux). verify.go checks data versions; json.go, logs.go
// and bins.go write fio's outputs.
//
// A run is an Execution: Start (one device) or StartMachine spawns the job copies and
// returns at once; Run and RunMachine then Wait. Its Results are those of the I/Os
// completed so far, so a command whose run a power cut stopped (the simulated host's I/Os
// never complete) reports the jobs as of the cut, with InFlight the I/Os that never
// completed, and Started false when the cut came before any job had opened its files. A
// device's I/O error (uflip.ErrIO) stops its job as fio stops a job at its first error
// (continue_on_error=none): the job's result keeps the error, its errno and when it came,
// and fio's JSON "error" is the job's first error (an I/O error's errno, or 84 after a
// verify failure); the other jobs go on.
//
// # Job file schema
//
//	global:              # optional; every job inherits these values
//	  bs: 4k
//	  direct: 1
//	jobs:                # required, at least one job
//	  - name: reader     # fio's job (section) name; default "jobN" (N from 0)
//	    rw: randread
//	    iodepth: 32
//	  - name: writer
//	    rw: write
//	    bs: 128k         # overrides global
//
// Keys (all optional; fio's meaning and default):
//
//	name       job name.
//	rw         read | write | randread | randwrite | rw (= readwrite) | randrw. Default read.
//	bs         block size, a multiple of 512. Default 4k.
//	iodepth    IOs kept outstanding per job copy. Default 1.
//	numjobs    copies of the job, run side by side, each with its own random stream.
//	           Default 1.
//	size       bytes of the region the job works in, from offset. Default 0: up to the end of
//	           the device.
//	offset     first byte of the region, a multiple of 512. Default 0.
//	rwmixread  percentage of reads in rw/randrw. Default 50.
//	runtime    stop after this long (after ramp_time). Default 0: no limit.
//	io_size    bytes to transfer (after ramp_time) before stopping. Default 0: size.
//	direct     1/true for O_DIRECT (page cache bypassed). Default 0; carried for the host
//	           wiring, which picks the I/O path.
//	fsync      issue a flush after every this many writes. Default 0: never.
//	ramp_time  run this long before counting anything. Default 0.
//	randseed   seed of the random streams. Default 0.
//
// YAML jobs also take the other options of fio INI files, with the same meanings (docs/fio.md):
// blocksize, readwrite, rwmixwrite, bsrange, bssplit, io_limit, time_based, startdelay,
// randrepeat, norandommap, ioengine, filename, thread, group_reporting, write_lat_log,
// percentile_list (not kb_base: YAML sizes have one convention, below). Keys are applied
// in this documentation's order, not the file's: bsrange and bssplit win over bs, rwmixwrite
// over rwmixread.
//
// Sizes in YAML (bs, size, offset, io_size) are a plain integer of bytes or an integer with a unit,
// case-insensitive: k/kb/kib = 1024, m/mb/mib = 1024², g/gb/gib, t/tb/tib, p/pb/pib. As with
// fio's default kb_base=1024, "4k", "4kb" and "4KB" all mean 4096. Unlike fio's default
// compatibility mode, which reads "4KiB" as 4000, here "4KiB" is 4096 too: every unit is a
// power of 1024, and a power-of-ten size is written as a plain number. Percentages are not
// supported. INI job files follow fio exactly instead (ParseSizeBase, kb_base). Both differ
// from the simulator's configuration files, where "64MB" is 64e6 bytes and "64MiB" 2^26.
//
// Times (runtime, ramp_time): a plain integer is seconds, as in fio; or a number with a unit:
// ps, ns, us/usec, ms/msec, s/sec, m/min, h, d ("500ms", "1.5s", "2m").
//
// Decoding is strict: an unknown key is an error naming the key and its line ("jobs.yaml:7:
// unknown key \"blocksize\""); every invalid value is reported with its line and field path
// ("jobs.yaml:9: jobs[1].bs: 3000 is not a multiple of 512").
//
// Semantics chosen where fio offers several: random jobs visit every block of the region
// once per pass in random order (fio's default random map), rw/randrw pick directions from a
// shuffled deck that holds exactly rwmixread reads per 100/gcd(rwmixread, 100) IOs, so the
// ratio is exact over every deck; sequential reads and writes of one job keep separate
// positions (as fio's per-direction last position); IOs submitted during ramp_time are
// neither counted in statistics nor toward io_size.
package fio
