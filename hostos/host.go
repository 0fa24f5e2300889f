package hostos

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Spec is the host configuration.
type Spec struct {
	// Profile names the host kernel profile (profile.go): "paper" or "linux6". It sets the
	// defaults of the keys it lists; keys given explicitly override them.
	Profile   string         `yaml:"profile"`
	PageCache pagecache.Spec `yaml:"pagecache"` // memory, CPUs, dirty limits, writeback, FastDrain ratio switching
	Block     blk.Spec       `yaml:"block"`     // block layer and I/O scheduler
	Driver    nvmedrv.Spec   `yaml:"nvme"`      // NVMe driver
}

// DefaultSpec returns each layer's defaults.
func DefaultSpec() Spec {
	// Each layer's defaults are a Linux 6.x host's, so the built-in profile is linux6.
	return Spec{Profile: ProfileLinux6, PageCache: pagecache.DefaultSpec(), Block: blk.DefaultSpec(), Driver: nvmedrv.DefaultSpec()}
}

// Validate reports every problem with the spec.
func (s Spec) Validate() error {
	var perr error
	if err := checkProfile(s.Profile); err != nil {
		perr = fmt.Errorf("host.%w", err)
	}
	return errors.Join(perr, s.PageCache.Validate(), s.Block.Validate(), s.Driver.Validate())
}

// Host is one simulated host with one NVMe SSD.
type Host struct {
	eng   *sim.Engine
	Cache *pagecache.Cache
	// Queue is namespace 1's block queue (/dev/nvme0n1), the device the page cache's files
	// live on; Queues holds every namespace's, NSID i+1 at index i.
	Queue  *blk.Queue
	Queues []*blk.Queue
	Driver *nvmedrv.Driver
	tasks  []*pagecache.Task // by process ID
	nextCo int
	acts   map[*sim.Core]sim.Activity // each core's "app" activity
}

// deviceRef lets the page cache be built before the block queue it submits to.
type deviceRef struct{ q *blk.Queue }

func (d *deviceRef) Submit(b *blk.Bio) { d.q.Submit(b) }

// DirtySleep passes the page cache's balance_dirty_pages sleeps to writeback throttling.
func (d *deviceRef) DirtySleep(t sim.Time) { d.q.NoteDirtySleep(t) }

// New builds the host's storage stack on ctrl (whose namespace holds capacity bytes) and
// connects the FastDrain status path: every completion's buffer level goes to the page
// cache, which switches dirty ratios if its FastDrain mode is adaptive.
func New(eng *sim.Engine, spec Spec, ctrl *nvmectrl.Controller, capacity int64) (*Host, error) {
	ref := &deviceRef{}
	cache, err := pagecache.New(eng, "host.pagecache", spec.PageCache, ref, capacity)
	if err != nil {
		return nil, err
	}
	drv, err := nvmedrv.New("host.nvme", spec.Driver, eng, ctrl, cache.Cores())
	if err != nil {
		return nil, err
	}
	h := &Host{eng: eng, Cache: cache, Driver: drv}
	for _, ns := range drv.Namespaces() {
		bs := spec.Block
		// The block layer must not build requests the controller cannot take (MDTS), and
		// its tags are the driver's (Linux: tag set depth = q_depth − 1 per queue, the
		// namespaces of a controller sharing the tag set).
		bs.MaxRequestBytes = min(bs.MaxRequestBytes, sim.Size(drv.MaxTransfer()))
		bs.QueueDepth = ns.Queues() * ns.Depth()
		q, err := blk.New(queueName(ns.NSID()), eng, bs, ns)
		if err != nil {
			return nil, err
		}
		if ns.Zoned() {
			if err := q.SetZoned(ns.ZoneBytes(), ns.Zones()); err != nil {
				return nil, fmt.Errorf("host: namespace %d: %w", ns.NSID(), err)
			}
		}
		ns.SetUpper(q)
		h.Queues = append(h.Queues, q)
	}
	h.Queue = h.Queues[0]
	ref.q = h.Queue
	// The file system lives on namespace 1: its write streams (max_write_streams, one per
	// FDP placement identifier) are what a file's hint can be mapped to.
	cache.SetWriteStreams(drv.Namespaces()[0].WriteStreams())
	drv.OnLevel = func(now sim.Time, l bufferlevel.Level) { cache.SetBufferLevel(now, l) }
	if len(cache.Cores()) == 0 {
		return nil, fmt.Errorf("host: no CPU cores")
	}
	h.acts = map[*sim.Core]sim.Activity{}
	for _, c := range cache.Cores() {
		// Activities are numbered per resource: register "app" on every core.
		h.acts[c] = c.Res.Activity("app")
	}
	return h, nil
}

// queueName names namespace nsid's block queue: "host.blk" for namespace 1 (the only one
// before namespaces were modelled), "host.blk.n2" and so on for the others.
func queueName(nsid uint32) string {
	if nsid == 1 {
		return "host.blk"
	}
	return fmt.Sprintf("host.blk.n%d", nsid)
}

// Task returns the page-cache task of process p, creating it on the next core in turn.
func (h *Host) Task(p *sim.Proc) *pagecache.Task {
	if id := p.ID(); id < len(h.tasks) && h.tasks[id] != nil {
		return h.tasks[id]
	}
	cores := h.Cache.Cores()
	t := h.Cache.NewTask(p, cores[h.nextCo%len(cores)])
	h.nextCo++
	if id := p.ID(); id >= len(h.tasks) {
		h.tasks = append(h.tasks, make([]*pagecache.Task, id+1-len(h.tasks))...)
	}
	h.tasks[p.ID()] = t
	return t
}
