package blk

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Scheduler names accepted in Spec.Scheduler (the names of /sys/block/*/queue/scheduler).
const (
	SchedNone       = "none"
	SchedMQDeadline = "mq-deadline"
	SchedKyber      = "kyber"
)

// Spec is the immutable configuration of one block-layer queue. Start from DefaultSpec and
// edit.
type Spec struct {
	// Scheduler is the I/O scheduler: "none", "mq-deadline" or "kyber".
	Scheduler string `yaml:"scheduler"`
	// QueueDepth is the number of driver tags, the requests the driver may hold at once.
	// Linux sizes the NVMe tag set q_depth − 1 = 1023 with the default io_queue_depth of
	// 1024, so the driver never overruns a submission queue (docs/sources.md §1.4). One Queue
	// models one hardware context.
	QueueDepth int `yaml:"queue_depth"`
	// NrRequests is the number of requests that may be allocated at once (sysfs
	// nr_requests). 0 picks Linux's default: QueueDepth without a scheduler, and
	// 2·min(QueueDepth, 128) = 256 with one (block/blk-mq-sched.c blk_mq_init_sched,
	// BLKDEV_DEFAULT_RQ = 128; read in the kernel source, not in docs/sources.md).
	NrRequests int `yaml:"nr_requests"`
	// MaxRequestBytes caps a request's size (sysfs max_sectors_kb); larger bios are split
	// and merges stop there. Default 512 KiB: max_sectors_kb = min(max_hw_sectors_kb,
	// BLK_DEF_MAX_SECTORS = 1024 sectors) in include/linux/blkdev.h of the 4.x–6.6 kernels,
	// below the NVMe driver's 4 MiB NVME_MAX_KB_SZ (docs/sources.md §1.4). It must not exceed the
	// driver's maximum transfer.
	MaxRequestBytes sim.Size `yaml:"max_request_bytes"`
	// Merges enables merging of bios into queued requests and of adjacent queued requests
	// (sysfs nomerges = 0); off is nomerges = 2.
	Merges bool `yaml:"merges"`
	// Deadline holds the mq-deadline tunables.
	Deadline DeadlineSpec `yaml:"mq_deadline"`
	// Kyber holds the kyber tunables.
	Kyber KyberSpec `yaml:"kyber"`
	// WBTLat is writeback throttling's read latency target (sysfs wbt_lat_usec); 0 turns
	// wbt off. Default 2 ms: Linux enables wbt on every blk-mq queue but BFQ's, with 2 ms
	// for non-rotational devices (block/blk-wbt.c wbt_default_latency_nsec,
	// Documentation/ABI/stable/sysfs-block). See wbt.go.
	WBTLat sim.Time `yaml:"wbt_lat"`
	// WriteCache is whether the device has a volatile write cache (sysfs write_cache "write
	// back", QUEUE_FLAG_WC). Off ("write through"), flush bios complete at once without
	// reaching the device and FUA is dropped, as blk_insert_flush and blk_queue_write_cache
	// do, and writeback throttling wakes waiters at wb_normal instead of only when nothing
	// is in flight. Default auto: what the driver reports, which for NVMe is the Identify
	// Controller VWC bit (Linux nvme_set_queue_limits); a drive whose buffer survives power
	// loss reports none (firmware.power_loss_protection, docs/fidelity.md). true or false
	// override it, as writing the sysfs file does.
	WriteCache WriteCache `yaml:"write_cache"`
}

// DeadlineSpec holds mq-deadline's tunables (block/mq-deadline.c, docs/sources.md §6.2).
type DeadlineSpec struct {
	// ReadExpire is how long a read may wait before it is served first (HZ/2 = 500 ms).
	ReadExpire sim.Time `yaml:"read_expire"`
	// WriteExpire is the same for writes and discards (5·HZ = 5 s).
	WriteExpire sim.Time `yaml:"write_expire"`
	// WritesStarved is how many times reads may be preferred over waiting writes (2).
	WritesStarved int `yaml:"writes_starved"`
	// FifoBatch is how many requests one batch in one direction may hold (16).
	FifoBatch int `yaml:"fifo_batch"`
	// FrontMerges allows bios to merge in front of queued requests (1).
	FrontMerges bool `yaml:"front_merges"`
	// AsyncDepth limits the requests that writes and async I/O may allocate; sync reads are
	// not limited. 0 is Linux's max(1, 3·nr_requests/4) (dd_depth_updated).
	AsyncDepth int `yaml:"async_depth"`
}

// KyberSpec holds kyber's tunables (block/kyber-iosched.c, docs/sources.md §6.1).
type KyberSpec struct {
	// ReadTarget is the read latency target (sysfs read_lat_nsec, 2 ms).
	ReadTarget sim.Time `yaml:"read_lat"`
	// WriteTarget is the write latency target (write_lat_nsec, 10 ms).
	WriteTarget sim.Time `yaml:"write_lat"`
	// DiscardTarget is the discard latency target (5 s).
	DiscardTarget sim.Time `yaml:"discard_lat"`
	// ReadDepth, WriteDepth, DiscardDepth and OtherDepth are each domain's maximum tokens
	// (kyber_depth[]: 256, 128, 64, 16); the timer scales the depths within [1, maximum].
	ReadDepth    int `yaml:"read_depth"`
	WriteDepth   int `yaml:"write_depth"`
	DiscardDepth int `yaml:"discard_depth"`
	OtherDepth   int `yaml:"other_depth"`
	// AsyncPercent is the share of nr_requests async requests may allocate
	// (KYBER_ASYNC_PERCENT = 75); the rest is reserved for sync I/O.
	AsyncPercent int `yaml:"async_percent"`
}

// DefaultSpec returns the queue Linux sets up for an NVMe namespace with the defaults of
// docs/sources.md §1.4 and §6: no scheduler (Linux's default for multi-queue NVMe), 1023 driver
// tags, 512 KiB requests, merges on, and each scheduler's kernel defaults.
func DefaultSpec() Spec {
	return Spec{
		Scheduler:       SchedNone,
		QueueDepth:      1023,
		NrRequests:      0,
		MaxRequestBytes: 512 * sim.KiB,
		Merges:          true,
		WBTLat:          2 * sim.Millisecond,
		WriteCache:      WriteCacheAuto,
		Deadline: DeadlineSpec{
			ReadExpire:    500 * sim.Millisecond,
			WriteExpire:   5 * sim.Second,
			WritesStarved: 2,
			FifoBatch:     16,
			FrontMerges:   true,
		},
		Kyber: KyberSpec{
			ReadTarget:    2 * sim.Millisecond,
			WriteTarget:   10 * sim.Millisecond,
			DiscardTarget: 5 * sim.Second,
			ReadDepth:     256,
			WriteDepth:    128,
			DiscardDepth:  64,
			OtherDepth:    16,
			AsyncPercent:  75,
		},
	}
}

// maxDepth is blk-mq's BLK_MQ_MAX_DEPTH, the largest tag set.
const maxDepth = 10240

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("blk.%s: %v %s", field, v, want))
	}
	switch s.Scheduler {
	case SchedNone, SchedMQDeadline, SchedKyber:
	default:
		bad("scheduler", fmt.Sprintf("%q", s.Scheduler), "is not one of none, mq-deadline, kyber")
	}
	if s.QueueDepth < 1 || s.QueueDepth > maxDepth {
		bad("queue_depth", s.QueueDepth, "is not in 1..10240")
	}
	if s.NrRequests < 0 || s.NrRequests > 65536 {
		bad("nr_requests", s.NrRequests, "is not in 0..65536 (0 = Linux default)")
	} else if s.Scheduler == SchedNone && s.NrRequests > s.QueueDepth && s.QueueDepth >= 1 {
		bad("nr_requests", s.NrRequests, "exceeds queue_depth, which none cannot do")
	}
	if s.MaxRequestBytes < 4*sim.KiB || s.MaxRequestBytes > 32*sim.MiB || s.MaxRequestBytes%512 != 0 {
		bad("max_request_bytes", int64(s.MaxRequestBytes), "is not a multiple of 512 in 4096..33554432")
	}
	d := s.Deadline
	if d.ReadExpire <= 0 {
		bad("mq_deadline.read_expire", d.ReadExpire, "is not positive")
	}
	if d.WriteExpire <= 0 {
		bad("mq_deadline.write_expire", d.WriteExpire, "is not positive")
	}
	if d.WritesStarved < 0 {
		bad("mq_deadline.writes_starved", d.WritesStarved, "is negative")
	}
	if d.FifoBatch < 1 {
		bad("mq_deadline.fifo_batch", d.FifoBatch, "is not at least 1")
	}
	if d.AsyncDepth < 0 {
		bad("mq_deadline.async_depth", d.AsyncDepth, "is negative (0 = Linux default)")
	}
	k := s.Kyber
	for _, t := range []struct {
		name string
		v    sim.Time
	}{{"read_lat", k.ReadTarget}, {"write_lat", k.WriteTarget}, {"discard_lat", k.DiscardTarget}} {
		if t.v <= 0 {
			bad("kyber."+t.name, t.v, "is not positive")
		}
	}
	for _, t := range []struct {
		name string
		v    int
	}{{"read_depth", k.ReadDepth}, {"write_depth", k.WriteDepth}, {"discard_depth", k.DiscardDepth}, {"other_depth", k.OtherDepth}} {
		if t.v < 1 || t.v > maxDepth {
			bad("kyber."+t.name, t.v, "is not in 1..10240")
		}
	}
	if k.AsyncPercent < 1 || k.AsyncPercent > 100 {
		bad("kyber.async_percent", k.AsyncPercent, "is not in 1..100")
	}
	if s.WriteCache > WriteCacheOff {
		bad("write_cache", s.WriteCache, "is not one of auto, true, false")
	}
	if s.WBTLat < 0 || s.WBTLat > 10*sim.Second {
		bad("wbt_lat", s.WBTLat, "is not in 0..10s (0 = off)")
	}
	return errors.Join(errs...)
}

// nrRequests resolves NrRequests' 0 to Linux's default.
func (s Spec) nrRequests() int {
	if s.NrRequests > 0 {
		return s.NrRequests
	}
	if s.Scheduler == SchedNone {
		return s.QueueDepth
	}
	return 2 * min(s.QueueDepth, 128)
}

// asyncDepth returns how many requests writes and async I/O may hold allocated at once.
func (s Spec) asyncDepth(nr int) int {
	switch s.Scheduler {
	case SchedMQDeadline:
		if s.Deadline.AsyncDepth > 0 {
			return min(s.Deadline.AsyncDepth, nr)
		}
		return max(1, 3*nr/4)
	case SchedKyber:
		// Linux applies the percentage per sbitmap word (shallow depth); the model applies
		// it to the whole pool.
		return max(1, nr*s.Kyber.AsyncPercent/100)
	}
	return nr
}
