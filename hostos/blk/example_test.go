package blk_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// device is a driver that completes every request 80 µs after it takes it.
type device struct {
	eng *sim.Engine
	q   *blk.Queue
}

func (d *device) QueueRequest(now sim.Time, rq *blk.Request) bool {
	fmt.Printf("%v: %v %d+%d (%d bios) tag %d\n", now, rq.Op, rq.Offset, rq.Size, len(rq.Bios), rq.Tag)
	d.eng.Schedule(now+80*sim.Microsecond, d, rq, 0)
	return true
}

func (d *device) HandleEvent(ev *sim.Event) { d.q.Complete(ev.Time, ev.Data.(*blk.Request), nil) }

// done prints each completed bio.
type done struct{}

func (done) HandleEvent(ev *sim.Event) {
	b := ev.Data.(*blk.Bio)
	fmt.Printf("%v: bio %v %d+%d done after %v\n", ev.Time, b.Op, b.Offset, b.Size, ev.Time-b.Issued)
}

// Two adjacent 4 KiB writes submitted together merge into one 8 KiB request; a read of the
// next block never merges with them.
func Example() {
	eng := sim.NewEngine()
	dev := &device{eng: eng}
	q, err := blk.New("nvme0n1", eng, blk.DefaultSpec(), dev)
	if err != nil {
		panic(err)
	}
	dev.q = q
	q.Submit(&blk.Bio{Op: blk.OpWrite, Offset: 0, Size: 4096, Done: done{}})
	q.Submit(&blk.Bio{Op: blk.OpWrite, Offset: 4096, Size: 4096, Done: done{}})
	q.Submit(&blk.Bio{Op: blk.OpRead, Offset: 8192, Size: 4096, Sync: true, Done: done{}})
	eng.Run()
	fmt.Println("back merges:", q.Stats().BackMerges)
	// Output:
	// 0s: write 0+8192 (2 bios) tag 0
	// 0s: read 8192+4096 (1 bios) tag 1
	// 80us: bio write 0+4096 done after 80us
	// 80us: bio write 4096+4096 done after 80us
	// 80us: bio read 8192+4096 done after 80us
	// back merges: 1
}
