package pagecache_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// ssd completes every bio 100 µs after it is submitted.
type ssd struct {
	eng    *sim.Engine
	hinted []blk.Hint
}

func (d *ssd) Submit(b *blk.Bio) {
	if b.Hint.Victim {
		d.hinted = append(d.hinted, b.Hint)
	}
	d.eng.Schedule(d.eng.Now()+100*sim.Microsecond, b.Done, b, 0)
}

// A 4 GiB host with FastDrain's adaptive ratios: an application appends 1 MiB to a log and
// fsyncs it; a writer dirties 40000 pages, which crosses the low set's background threshold
// and starts a page victimization whose bios carry the hint.
func Example() {
	eng := sim.NewEngine()
	dev := &ssd{eng: eng}
	spec := pagecache.DefaultSpec()
	spec.FastDrain.Adaptive = true
	c, err := pagecache.New(eng, "host", spec, dev, 64<<30)
	if err != nil {
		panic(err)
	}
	thresh, bg, freerun := c.Thresholds()
	fmt.Println("low set thresholds (pages):", thresh, bg, freerun)

	eng.Spawn("app", func(p *sim.Proc) {
		t := c.NewTask(p, c.Cores()[0])
		f, _ := c.Create(t, "log")
		c.Write(t, f, 0, 1<<20)
		c.Fsync(t, f)
		// 3 GHz core: create 1500 cycles (0.5 µs); write 1500 + 256·1500 cycles (128.5 µs);
		// fsync 0.5 µs, one 1 MiB bio (100 µs), then the flush (100 µs): 329.5 µs.
		fmt.Println("fsync returned at", p.Now())
	})
	eng.Spawn("ungzip", func(p *sim.Proc) {
		t := c.NewTask(p, c.Cores()[1])
		f, _ := c.Create(t, "out")
		c.Write(t, f, 0, 40000*pagecache.PageSize)
	})
	eng.RunUntil(sim.Second)
	// The background pass counts the 40000 − 31457 = 8543 pages over the background
	// threshold rounded up to whole write chunks of 7168 pages (dirty_limit 52428 / 8 = 6553,
	// plus 1024, rounded down to a multiple of 1024): 14336.
	v := c.Stats().Victims[0]
	fmt.Println("victimization:", v.Reason, v.Pages, "pages; first hint", dev.hinted[0].Pages)
	// Output:
	// low set thresholds (pages): 52428 31457 41942
	// fsync returned at 329.5us
	// victimization: background 14336 pages; first hint 14336
}
