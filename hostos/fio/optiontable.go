package fio

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// optionTable lists fio's job options (fio HOWTO, "Job file parameters", fio 3.x) with how
// the simulator treats each. Options of other engines are at the end (engineOptions).
var optionTable = append([]option{
	// Units and description.
	{name: "kb_base", set: setKBBase, note: ""},
	{name: "unit_base", kind: optNoEffect, note: "reporting units of the normal output only; JSON keeps fio's fixed units"},
	{name: "name", set: setStringField(func(j *Job) *string { return &j.Name }), note: "in [global] it names nothing (fio ignores it there too)"},
	{name: "description", set: setStringField(func(j *Job) *string { return &j.Description })},
	{name: "loops", set: setIntField(func(j *Job) *int64 { return &j.Loops })},
	{name: "numjobs", set: setIntField(func(j *Job) *int64 { return &j.NumJobs }), note: "each copy is a simulated process (or iodepth processes) with its own random stream"},

	// Time.
	{name: "runtime", aliases: []string{"timeout"}, set: setTimeField(sim.Second, func(j *Job) *sim.Time { return &j.Runtime })},
	{name: "time_based", bool: true, set: setBoolField(func(j *Job) *bool { return &j.TimeBased })},
	{name: "startdelay", set: setStartDelay},
	{name: "ramp_time", set: setTimeField(sim.Second, func(j *Job) *sim.Time { return &j.RampTime })},
	{name: "clocksource", kind: optNoEffect, note: "the simulator's clock is exact simulated time"},
	{name: "gtod_reduce", bool: true, kind: optNoEffect, note: noteMeasure},
	{name: "gtod_cpu", kind: optNoEffect, note: noteMeasure},

	// Target file/device.
	{name: "directory", set: setStringField(func(j *Job) *string { return &j.Directory }), note: "a directory of the simulated file system (no real directory is touched)"},
	{name: "filename", set: setStringField(func(j *Job) *string { return &j.Filename }), note: "/dev/... names the simulated NVMe namespace; any other name is a file of the simulated file system, created and laid out before the job runs"},
	{name: "filename_format", set: setStringField(func(j *Job) *string { return &j.FilenameFormat })},
	{name: "unique_filename", bool: true, kind: optNoEffect, note: noteNoClient},
	{name: "opendir", kind: optRefused, note: "the simulated file system starts empty: there is no directory tree to open"},
	{name: "lockfile", kind: optRefusedUnless, note: "file locking between jobs is not modelled", defaults: []string{"none"}},
	{name: "nrfiles", aliases: []string{"nr_files"}, set: setIntField(func(j *Job) *int64 { return &j.NrFiles })},
	{name: "openfiles", kind: optNoEffect, note: "opening a file costs no simulated time, so how many are open at once changes nothing"},
	{name: "file_service_type", set: setFileService},
	{name: "ioscheduler", kind: optRefused, note: "set the host's I/O scheduler with the platform key host.block.scheduler"},
	{name: "create_serialize", bool: true, kind: optNoEffect, note: "files are laid out one after another before their jobs run"},
	{name: "create_fsync", bool: true, kind: optNoEffect, note: "layout writes are O_DIRECT, so there is nothing to fsync"},
	{name: "create_on_open", bool: true, kind: optNoEffect, note: "creating a file costs no simulated time, so when it happens changes nothing"},
	{name: "create_only", bool: true, set: setBoolField(func(j *Job) *bool { return &j.CreateOnly })},
	{name: "allow_file_create", bool: true, set: setAllowFileCreate, note: "the simulated file system starts empty, so allow_file_create=0 refuses any regular file"},
	{name: "allow_mounted_write", bool: true, kind: optNoEffect, note: "nothing is mounted on the simulated device"},
	{name: "pre_read", bool: true, kind: optRefused, note: "pre-reading files into the page cache is not modelled"},
	{name: "unlink", bool: true, set: setBoolField(func(j *Job) *bool { return &j.Unlink }), note: "unlink trims the file's extents, as the simulated file system's unlink does"},
	{name: "unlink_each_loop", bool: true, kind: optRefusedUnless, note: "unlinking between loops is not modelled", defaults: []string{"0", "false"}},
	{name: "zonemode", set: setZoneMode},
	{name: "zonerange", set: setSizeField(func(j *Job) *int64 { return &j.ZoneRange })},
	{name: "zonesize", set: setSizeField(func(j *Job) *int64 { return &j.ZoneSize })},
	{name: "zonecapacity", kind: optRefused, note: "an emulated zone capacity (zoned regular files) is not modelled; zonemode=zbd takes the namespace's"},
	{name: "zoneskip", set: setSizeField(func(j *Job) *int64 { return &j.ZoneSkip })},
	{name: "read_beyond_wp", bool: true, kind: optRefused, note: "reads past a write pointer are not modelled (zonemode=zbd reads only written data)"},
	{name: "max_open_zones", set: setIntField(func(j *Job) *int64 { return &j.MaxOpenZones }), note: "zonemode=zbd: zones a job writes at once (0: the namespace's open limit)"},
	{name: "job_max_open_zones", kind: optRefused, note: "a per-job open-zone limit below max_open_zones is not modelled"},
	{name: "ignore_zone_limits", bool: true, kind: optRefused, note: "ignoring the namespace's zone limits is not modelled"},
	{name: "zone_reset_threshold", set: setZoneFraction(func(j *Job) *float64 { return &j.ZoneResetThreshold })},
	{name: "zone_reset_frequency", set: setZoneFraction(func(j *Job) *float64 { return &j.ZoneResetFrequency })},

	// I/O type.
	{name: "direct", bool: true, set: setBoolField(func(j *Job) *bool { return &j.Direct }), note: "O_DIRECT: the raw namespace or the file's extents, bypassing the simulated page cache"},
	{name: "buffered", bool: true, set: setNotBoolField(func(j *Job) *bool { return &j.Direct })},
	{name: "readwrite", aliases: []string{"rw"}, set: setRW},
	{name: "rw_sequencer", set: setRWSequencer},
	{name: "unified_rw_reporting", kind: optRefusedUnless, note: "summed (mixed) statistics are not written; read, write and trim are reported apart", defaults: []string{"none", "0"}},
	{name: "randrepeat", bool: true, set: setRandRepeat, note: "1: seed streams from randseed; 0: a different stream, still the same on every run (the simulator is deterministic)"},
	{name: "allrandrepeat", bool: true, kind: optNoEffect, note: "every random stream of the simulator is seeded and repeatable already"},
	{name: "randseed", set: setRandSeed},
	{name: "fallocate", kind: optNoEffect, note: "the simulated file system allocates a file's extents when the file is created, whatever the method"},
	{name: "fadvise_hint", set: setFadvise, note: "posix_fadvise on the job's files: random stops read-ahead (FMODE_RANDOM), sequential doubles its window, as mm/fadvise.c does"},
	{name: "write_hint", set: setWriteHint, note: "fcntl F_SET_RW_HINT on each file at open (buffered only: for O_DIRECT fio uses F_SET_FILE_RW_HINT, which Linux fails with EINVAL); the page cache's writes carry the inode's hint, and host.pagecache.hint_streams=f2fs maps it to an FDP write stream (docs/placement.md)"},
	{name: "offset", set: setSizeOrPct(func(j *Job) (*int64, *int64) { return &j.Offset, &j.OffsetPct })},
	{name: "offset_align", kind: optRefused, note: "percentage offsets are aligned to the minimum block size; another alignment is not modelled"},
	{name: "offset_increment", set: setSizeOrPct(func(j *Job) (*int64, *int64) { return &j.OffsetInc, &j.OffsetIncPct })},
	{name: "number_ios", set: setIntField(func(j *Job) *int64 { return &j.NumberIOs })},
	{name: "fsync", set: setIntField(func(j *Job) *int64 { return &j.Fsync }), note: "fsync(2) of the file, or a cache flush (NVMe Flush) on the namespace"},
	{name: "fdatasync", set: setIntField(func(j *Job) *int64 { return &j.Fdatasync }), note: "as fsync: the simulated file system keeps no metadata apart from data"},
	{name: "write_barrier", kind: optRefused, note: "barrier writes are not modelled"},
	{name: "sync_file_range", kind: optRefused, note: "sync_file_range(2) is not modelled by the page cache"},
	{name: "overwrite", bool: true, kind: optNoEffect, note: "files that are read or overwritten are laid out (written) before the job runs either way"},
	{name: "end_fsync", bool: true, set: setBoolField(func(j *Job) *bool { return &j.EndFsync })},
	{name: "fsync_on_close", bool: true, set: setBoolField(func(j *Job) *bool { return &j.EndFsync }), note: "as end_fsync: each job closes its files once, at its end"},
	{name: "rwmixread", set: setIntField(func(j *Job) *int64 { return &j.RWMixRead }), note: "exact over every 100/gcd(p, 100) I/Os (a shuffled deck)"},
	{name: "rwmixwrite", set: setRWMixWrite},
	{name: "rwmixcycle", kind: optNoEffect, note: "deprecated: fio 3.x accepts and ignores it"},
	{name: "random_distribution", set: setDistribution},
	{name: "random_sequence_stride", kind: optRefused, note: "belongs to random_distribution=sequence, which is not modelled"},
	{name: "percentage_random", set: setPctRandom},
	{name: "norandommap", bool: true, set: setBoolField(func(j *Job) *bool { return &j.NoRandomMap })},
	{name: "softrandommap", bool: true, kind: optNoEffect, note: "the random map never fails to allocate"},
	{name: "random_generator", kind: optNoEffect, note: "offsets come from the simulator's seeded PCG stream; the random map guarantees each block once per pass, as lfsr does"},
	{name: "sprandom", bool: true, kind: optRefused, note: "SanDisk's random preconditioning pattern is not modelled"},
	{name: "spr_op", kind: optRefused, note: "belongs to sprandom, which is not modelled"},
	{name: "spr_num_regions", kind: optRefused, note: "belongs to sprandom, which is not modelled"},

	// Block size.
	{name: "blocksize", aliases: []string{"bs"}, set: setBlockSizes(0)},
	{name: "blocksize_range", aliases: []string{"bsrange"}, set: setBlockSizes(1)},
	{name: "bssplit", set: setBlockSizes(2)},
	{name: "blocksize_unaligned", aliases: []string{"bs_unaligned"}, bool: true, kind: optRefused, note: "I/O sizes that are not multiples of the minimum block size are not modelled"},
	{name: "bs_is_seq_rand", bool: true, kind: optRefused, note: "block sizes by sequential/random instead of read/write are not modelled"},
	{name: "blockalign", aliases: []string{"ba"}, set: setBlockAlign},

	// Buffers and memory.
	{name: "zero_buffers", bool: true, kind: optNoEffect, note: noteContent},
	{name: "refill_buffers", bool: true, kind: optNoEffect, note: noteContent},
	{name: "scramble_buffers", bool: true, kind: optNoEffect, note: noteContent},
	{name: "buffer_compress_percentage", kind: optNoEffect, note: noteContent},
	{name: "buffer_compress_chunk", kind: optNoEffect, note: noteContent},
	{name: "buffer_pattern", kind: optNoEffect, note: noteContent},
	{name: "dedupe_percentage", kind: optNoEffect, note: noteContent},
	{name: "dedupe_mode", kind: optNoEffect, note: noteContent},
	{name: "dedupe_working_set_percentage", kind: optNoEffect, note: noteContent},
	{name: "dedupe_global", bool: true, kind: optNoEffect, note: noteContent},
	{name: "invalidate", bool: true, kind: optNoEffect, note: "a job's files are laid out with O_DIRECT writes and start uncached, as invalidate=1 leaves them"},
	{name: "sync", set: setSync, note: "O_SYNC/O_DSYNC writes: buffered writes are written back before write(2) returns; direct writes carry FUA"},
	{name: "iomem", aliases: []string{"mem"}, kind: optRefusedUnless, note: "GPU memory (cudamalloc) is not modelled; the host buffers of the others are not modelled either and change nothing", defaults: []string{"malloc", "shm", "shmhuge", "mmap", "mmaphuge", "mmapshared"}},
	{name: "iomem_align", aliases: []string{"mem_align"}, kind: optNoEffect, note: "user buffers are not modelled"},
	{name: "hugepage-size", kind: optNoEffect, note: "user buffers are not modelled"},
	{name: "lockmem", kind: optRefused, note: "pinning memory to shrink the page cache is not modelled (set host.pagecache.memory instead)"},

	// I/O size.
	{name: "size", set: setSizeOrPct(func(j *Job) (*int64, *int64) { return &j.Size, &j.SizePct })},
	{name: "io_size", aliases: []string{"io_limit"}, set: setSizeField(func(j *Job) *int64 { return &j.IOSize })},
	{name: "filesize", set: setFileSize},
	{name: "file_append", bool: true, kind: optRefused, note: "appending (growing files during the job) is not modelled"},
	{name: "fill_device", aliases: []string{"fill_fs"}, bool: true, set: setBoolField(func(j *Job) *bool { return &j.FillDevice }), note: "the size becomes the device's capacity (the simulated file system's free space for a file): the job ends where fio would get ENOSPC"},

	// Engine and depth.
	{name: "ioengine", set: setIOEngine, note: "see the engine table"},
	{name: "iodepth", set: setIntField(func(j *Job) *int64 { return &j.IODepth }), note: "I/Os in flight per job copy where the engine and Linux queue them (see the engine table)"},
	{name: "iodepth_batch_submit", aliases: []string{"iodepth_batch"}, kind: optRefusedUnless, note: "batched submission is not modelled: each I/O is submitted on its own", defaults: []string{"1", "0"}},
	{name: "iodepth_batch_complete_min", aliases: []string{"iodepth_batch_complete"}, kind: optRefusedUnless, note: "batched completion reaping is not modelled: each I/O is reaped on its own", defaults: []string{"1"}},
	{name: "iodepth_batch_complete_max", kind: optRefusedUnless, note: "batched completion reaping is not modelled: each I/O is reaped on its own", defaults: []string{"1"}},
	{name: "iodepth_low", kind: optRefused, note: "letting the queue drain to a low-water mark is not modelled: the queue is refilled at once"},
	{name: "iodepth_mode", kind: optRefused, note: "stepped queue depths are not modelled"},
	{name: "serialize_overlap", bool: true, kind: optRefusedUnless, note: "serialising overlapping in-flight I/Os is not modelled", defaults: []string{"0", "false"}},
	{name: "io_submit_mode", set: setIOSubmitMode, note: "inline and offload both submit at the rate's times from iodepth processes"},

	// Rate.
	{name: "thinktime", set: setTimeField(sim.Microsecond, func(j *Job) *sim.Time { return &j.ThinkTime })},
	{name: "thinktime_spin", set: setTimeField(sim.Microsecond, func(j *Job) *sim.Time { return &j.ThinkSpin }), note: "the spin part stalls like the rest (host CPU time of the application is not modelled)"},
	{name: "thinktime_blocks", set: setIntField(func(j *Job) *int64 { return &j.ThinkBlocks })},
	{name: "thinktime_blocks_type", set: setThinkTimeBlocksType},
	{name: "thinktime_iotime", kind: optRefused, note: "thinktime by elapsed I/O time is not modelled (thinktime_blocks is)"},
	{name: "rate", set: setRate(false)},
	{name: "rate_min", kind: optRefused, note: "ending a job that misses a minimum rate is not modelled"},
	{name: "rate_iops", set: setRate(true)},
	{name: "rate_iops_min", kind: optRefused, note: "ending a job that misses a minimum rate is not modelled"},
	{name: "rate_process", set: setRateProcess},
	{name: "rate_ignore_thinktime", bool: true, kind: optNoEffect, note: "the rate schedule is kept from the job's start; thinktime delays issue times past it without catch-up either way"},
	{name: "rate_cycle", kind: optNoEffect, note: "the rate is kept exactly per I/O, so no averaging window applies"},
	{name: "latency_target", kind: optRefused, note: "fio's search for the queue depth that meets a latency target is not modelled"},
	{name: "latency_window", kind: optRefused, note: "belongs to latency_target, which is not modelled"},
	{name: "latency_percentile", kind: optRefused, note: "belongs to latency_target, which is not modelled"},
	{name: "latency_run", bool: true, kind: optRefused, note: "belongs to latency_target, which is not modelled"},
	{name: "max_latency", kind: optRefused, note: "ending a job on a latency limit (ETIMEDOUT) is not modelled"},

	// Replay.
	{name: "write_iolog", kind: optRefused, note: "I/O logs are not written; the latency logs (write_lat_log with log_offset=1) list every I/O"},
	{name: "read_iolog", kind: optRefused, note: "replay fio iologs and block traces with fastdrain replay"},
	{name: "read_iolog_chunked", bool: true, kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "merge_blktrace_file", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "merge_blktrace_scalars", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "merge_blktrace_iters", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "replay_no_stall", bool: true, kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "replay_time_scale", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "replay_redirect", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "replay_align", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "replay_scale", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},
	{name: "replay_skip", kind: optRefused, note: "belongs to read_iolog (use fastdrain replay)"},

	// Threads, processes and synchronisation.
	{name: "thread", bool: true, set: setBoolField(func(j *Job) *bool { return &j.Thread }), note: "simulated processes are neither threads nor forks: no difference"},
	{name: "wait_for", set: setStringField(func(j *Job) *string { return &j.WaitFor })},
	{name: "nice", kind: optRefusedUnless, note: "the host model's scheduler has no nice levels", defaults: []string{"0"}},
	{name: "prio", kind: optRefused, note: notePrio},
	{name: "prioclass", kind: optRefused, note: notePrio},
	{name: "cpus_allowed", kind: optNoEffect, note: noteCPUPlace},
	{name: "cpus_allowed_policy", kind: optNoEffect, note: noteCPUPlace},
	{name: "cpumask", kind: optNoEffect, note: noteCPUPlace},
	{name: "numa_cpu_nodes", kind: optNoEffect, note: noteCPUPlace},
	{name: "numa_mem_policy", kind: optNoEffect, note: noteCPUPlace},
	{name: "cgroup", kind: optRefused, note: "blkio control groups are not modelled"},
	{name: "cgroup_weight", kind: optRefused, note: "blkio control groups are not modelled"},
	{name: "cgroup_nodelete", bool: true, kind: optRefused, note: "blkio control groups are not modelled"},
	{name: "flow_id", kind: optRefused, note: "token-based flow control between jobs is not modelled"},
	{name: "flow", kind: optRefused, note: "token-based flow control between jobs is not modelled"},
	{name: "flow_sleep", kind: optRefused, note: "token-based flow control between jobs is not modelled"},
	{name: "stonewall", aliases: []string{"wait_for_previous"}, bool: true, set: setBoolField(func(j *Job) *bool { return &j.Stonewall })},
	{name: "exitall", bool: true, set: setBoolField(func(j *Job) *bool { return &j.ExitAll })},
	{name: "exit_what", set: setExitWhat},
	{name: "exec_prerun", kind: optRefused, note: "running commands on the machine running the simulator is not part of a simulated run"},
	{name: "exec_postrun", kind: optRefused, note: "running commands on the machine running the simulator is not part of a simulated run"},
	{name: "uid", kind: optNoEffect, note: "users and permissions are not modelled"},
	{name: "gid", kind: optNoEffect, note: "users and permissions are not modelled"},

	// Verification.
	{name: "verify_only", bool: true, kind: optRefused, note: "verifying data of an earlier fio run needs that run's state; each simulation starts from a fresh device"},
	{name: "do_verify", bool: true, set: setNotBoolField(func(j *Job) *bool { return &j.NoDoVerify })},
	{name: "verify", set: setVerify, note: noteVerifyOpt},
	{name: "verify_offset", kind: optNoEffect, note: noteVerifyOpt},
	{name: "verify_interval", set: setVerifyInterval, note: noteVerifyOpt + "; the data version is per 4 KiB page"},
	{name: "verify_pattern", set: setStringField(func(j *Job) *string { return &j.VerifyPattern }), note: noteVerifyOpt},
	{name: "verify_fatal", bool: true, set: setBoolField(func(j *Job) *bool { return &j.VerifyFatal })},
	{name: "verify_dump", bool: true, kind: optNoEffect, note: "a failure is reported with the page, the version read and the version written; there are no data buffers to dump"},
	{name: "verify_async", kind: optNoEffect, note: "checking a data version costs no simulated CPU time"},
	{name: "verify_async_cpus", kind: optNoEffect, note: noteCPUPlace},
	{name: "verify_backlog", set: setIntField(func(j *Job) *int64 { return &j.VerifyBacklog })},
	{name: "verify_backlog_batch", set: setIntField(func(j *Job) *int64 { return &j.VerifyBatch })},
	{name: "verify_state_save", bool: true, kind: optNoEffect, note: "no verify state is saved: a simulation cannot be resumed by another"},
	{name: "verify_state_load", bool: true, kind: optRefused, note: "no verify state is saved: a simulation cannot be resumed by another"},
	{name: "verify_write_sequence", bool: true, kind: optNoEffect, note: noteVerifyOpt},
	{name: "trim_percentage", kind: optRefused, note: "trimming verified blocks is not modelled"},
	{name: "trim_verify_zero", bool: true, kind: optRefused, note: "trimming verified blocks is not modelled"},
	{name: "trim_backlog", kind: optRefused, note: "trimming verified blocks is not modelled"},
	{name: "trim_backlog_batch", kind: optRefused, note: "trimming verified blocks is not modelled"},
	{name: "experimental_verify", bool: true, kind: optRefused, note: "fio's replay-based verification is not modelled"},
	{name: "atomic", bool: true, kind: optRefusedUnless, note: "RWF_ATOMIC writes need the namespace's atomic write unit, which the simulated controller does not report", defaults: []string{"0", "false"}},

	// Steady state.
	{name: "steadystate", aliases: []string{"ss"}, kind: optRefused, note: "steady-state detection is not modelled (run for a fixed runtime and read the bandwidth log)"},
	{name: "steadystate_duration", aliases: []string{"ss_dur"}, kind: optRefused, note: "belongs to steadystate, which is not modelled"},
	{name: "steadystate_ramp_time", aliases: []string{"ss_ramp"}, kind: optRefused, note: "belongs to steadystate, which is not modelled"},
	{name: "steadystate_check_interval", aliases: []string{"ss_interval"}, kind: optRefused, note: "belongs to steadystate, which is not modelled"},

	// Measurements and reporting.
	{name: "per_job_logs", bool: true, set: setNotBoolField(func(j *Job) *bool { return &j.NoPerJobLogs })},
	{name: "group_reporting", bool: true, set: setBoolField(func(j *Job) *bool { return &j.GroupReporting })},
	{name: "new_group", bool: true, set: setBoolField(func(j *Job) *bool { return &j.NewGroup })},
	{name: "stats", bool: true, kind: optNoEffect, note: "every job is reported"},
	{name: "write_bw_log", bool: true, set: setLogName(func(j *Job) *string { return &j.WriteBWLog }, true)},
	{name: "write_lat_log", bool: true, set: setLogName(func(j *Job) *string { return &j.WriteLatLog }, true)},
	{name: "write_hist_log", kind: optRefused, note: "histogram logs are not written (json+ has the completion latency bins)"},
	{name: "write_iops_log", bool: true, set: setLogName(func(j *Job) *string { return &j.WriteIOPSLog }, true)},
	{name: "log_entries", kind: optNoEffect, note: "logging costs no simulated time"},
	{name: "log_avg_msec", set: setIntField(func(j *Job) *int64 { return &j.LogAvgMsec })},
	{name: "log_hist_msec", kind: optRefused, note: "histogram logs are not written (json+ has the completion latency bins)"},
	{name: "log_hist_coarseness", kind: optRefused, note: "histogram logs are not written (json+ has the completion latency bins)"},
	{name: "log_max_value", bool: true, set: setBoolField(func(j *Job) *bool { return &j.LogMaxValue })},
	{name: "log_offset", bool: true, set: setBoolField(func(j *Job) *bool { return &j.LogOffset })},
	{name: "log_prio", bool: true, kind: optRefusedUnless, note: notePrio, defaults: []string{"0", "false"}},
	{name: "log_compression", kind: optNoEffect, note: "logging costs no simulated time or memory"},
	{name: "log_compression_cpus", kind: optNoEffect, note: noteCPUPlace},
	{name: "log_store_compressed", bool: true, kind: optRefusedUnless, note: "compressed (.fz) logs are not written", defaults: []string{"0", "false"}},
	{name: "log_unix_epoch", bool: true, kind: optRefusedUnless, note: "simulated time has no wall-clock epoch: log times count from the run's start", defaults: []string{"0", "false"}},
	{name: "log_alternate_epoch", bool: true, kind: optRefusedUnless, note: "simulated time has no wall-clock epoch: log times count from the run's start", defaults: []string{"0", "false"}},
	{name: "log_alternate_epoch_clock_id", kind: optNoEffect, note: "simulated time has one clock"},
	{name: "block_error_percentiles", bool: true, kind: optRefused, note: "the histogram of how many trims each trim-unit block took before it failed is not kept"},
	{name: "bwavgtime", kind: optNoEffect, note: "the bw_min/max/mean/dev samples use fio's default 500 ms window"},
	{name: "iopsavgtime", kind: optNoEffect, note: "the iops_min/max/mean/stddev samples use fio's default 500 ms window"},
	{name: "disk_util", bool: true, kind: optNoEffect, note: "disk utilisation is not written (the JSON has no disk_util section)"},
	{name: "disable_lat", bool: true, kind: optNoEffect, note: noteMeasure},
	{name: "disable_clat", bool: true, kind: optNoEffect, note: noteMeasure},
	{name: "disable_slat", bool: true, kind: optNoEffect, note: noteMeasure},
	{name: "disable_bw_measurement", aliases: []string{"disable_bw"}, bool: true, kind: optNoEffect, note: noteMeasure},
	{name: "slat_percentiles", bool: true, set: setBoolField(func(j *Job) *bool { return &j.SlatPct })},
	{name: "clat_percentiles", bool: true, set: setNotBoolField(func(j *Job) *bool { return &j.NoClatPct })},
	{name: "lat_percentiles", bool: true, set: setBoolField(func(j *Job) *bool { return &j.LatPct })},
	{name: "percentile_list", set: setPercentiles},
	{name: "significant_figures", kind: optNoEffect, note: "affects fio's normal text output only"},

	// Errors.
	{name: "exitall_on_error", bool: true, set: setBoolField(func(j *Job) *bool { return &j.ExitAllOnError })},
	{name: "continue_on_error", kind: optRefusedUnless, note: "continuing after an I/O error is not modelled: a job stops at its first I/O error (fio's default, none)", defaults: []string{"none", "0"}},
	{name: "ignore_error", kind: optRefused, note: "continuing after an I/O error is not modelled: a job stops at its first I/O error (fio's default)"},
	{name: "error_dump", bool: true, kind: optNoEffect, note: "every error is reported"},

	// Profiles.
	{name: "profile", kind: optRefused, note: "fio's built-in profiles (tiobench, act) are not modelled; write their jobs out"},
}, engineOptions...)

func setStartDelay(j *Job, v string, c setCtx) error {
	if lo, _, ok := cutRange(v); ok {
		return refuse("startdelay=%s: a random start delay range is not modelled (give one value, e.g. %s)", v, lo)
	}
	return setTimeField(sim.Second, func(j *Job) *sim.Time { return &j.StartDelay })(j, v, c)
}

// cutRange splits "a-b" or "a:b".
func cutRange(v string) (lo, hi string, ok bool) {
	if lo, hi, ok = cutOnce(v, "-"); ok {
		return
	}
	return cutOnce(v, ":")
}

func cutOnce(v, sep string) (string, string, bool) {
	for i := 1; i < len(v); i++ {
		if v[i:i+1] == sep {
			return v[:i], v[i+1:], true
		}
	}
	return v, "", false
}

func setAllowFileCreate(j *Job, v string, _ setCtx) error {
	b, err := ParseBool(v)
	if err != nil {
		return err
	}
	if !b && j.Filename != "" && isDevice(j.Filename) {
		return nil
	}
	if !b {
		return refuse("allow_file_create=0: the simulated file system starts empty, so a job on a regular file could never find its file (use filename=/dev/nvme0n1 for the namespace)")
	}
	return nil
}

func setBlockAlign(j *Job, v string, c setCtx) error {
	vals, _, err := perDir(v, func(s string) (int64, error) { return ParseSizeBase(s, c.kb) })
	if err != nil {
		return err
	}
	a := max(vals[0], vals[1], vals[2])
	if (vals[0] != 0 && vals[0] != a) || (vals[1] != 0 && vals[1] != a) || (vals[2] != 0 && vals[2] != a) {
		return refuse("blockalign=%s: a different alignment per direction is not modelled", v)
	}
	j.BlockAlign = a
	return nil
}

func setIOSubmitMode(_ *Job, v string, _ setCtx) error {
	switch v {
	case "inline", "offload":
		return nil
	}
	return fmt.Errorf("%q is not one of inline, offload", v)
}

// isDevice reports whether name is a block device path: the simulated namespace.
func isDevice(name string) bool { return len(name) > 5 && name[:5] == "/dev/" }
