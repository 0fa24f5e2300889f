package nvmedrv_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/nvmedrv"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// ssd answers every command 10 µs after it arrives and reports its buffer above the high
// watermark; it remembers the stamp of the one page it is written.
type ssd struct {
	eng   *sim.Engine
	ctrl  *nvmectrl.Controller
	stamp [8]byte
}

func (s *ssd) Submit(now sim.Time, cmd *nvmectrl.Command) {
	fmt.Printf("ssd: %v LBA %d, hint %+v\n", cmd.SQE.Opcode(), cmd.SQE.SLBA(), cmd.Hint)
	s.eng.Schedule(now+10*sim.Microsecond, s, cmd, 0)
}

func (s *ssd) HandleEvent(ev *sim.Event) {
	cmd := ev.Data.(*nvmectrl.Command)
	if cmd.SQE.Opcode() == nvmectrl.OpWrite {
		s.ctrl.CopyFromHost(cmd, 0, s.stamp[:])
	} else {
		s.ctrl.CopyToHost(cmd, 0, s.stamp[:])
		s.ctrl.WriteHostData(ev.Time, cmd, 0, cmd.DataLen)
	}
	s.ctrl.Complete(ev.Time, cmd, nvmectrl.StatusSuccess, 0, bufferlevel.High)
}

// block is the block layer: it prints each completion.
type block struct{}

func (block) Complete(now sim.Time, rq *blk.Request, err error) {
	fmt.Printf("blk: %v at %d done, err %v\n", rq.Op, rq.Offset, err)
}

func (block) Restart(sim.Time) {}

// Example sends a writeback write carrying FastDrain's hint, then reads the page back with
// its version stamp, through the driver, the controller and a stub SSD.
func Example() {
	eng := sim.NewEngine()
	cs := nvmectrl.DefaultSpec()
	cs.LBASize = 4096
	ctrl := nvmectrl.New("nvme", cs, eng, pcie.NewLink("pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory())
	ctrl.SetFirmware(&ssd{eng: eng, ctrl: ctrl})
	cores := []*sim.Core{sim.NewCore("cpu0", sim.NewClock(3*sim.GHz))}
	drv, err := nvmedrv.New("nvme0", nvmedrv.DefaultSpec(), eng, ctrl, cores)
	if err != nil {
		panic(err)
	}
	drv.SetUpper(block{})
	drv.OnLevel = func(now sim.Time, l bufferlevel.Level) { fmt.Printf("driver: SSD buffer level %d\n", l) }

	w := &blk.Request{Op: blk.OpWrite, Offset: 8192, Size: 4096, Hint: blk.Hint{Victim: true, Pages: 42},
		Bios: []*blk.Bio{{Op: blk.OpWrite, Offset: 8192, Size: 4096, Private: &nvmedrv.Data{Stamps: []uint64{7}}}}}
	drv.QueueRequest(0, w)
	eng.Run()

	back := &nvmedrv.Data{Stamps: make([]uint64, 1)}
	r := &blk.Request{Op: blk.OpRead, Offset: 8192, Size: 4096,
		Bios: []*blk.Bio{{Op: blk.OpRead, Offset: 8192, Size: 4096, Private: back}}}
	drv.QueueRequest(eng.Now(), r)
	eng.Run()
	fmt.Println("stamp read back:", back.Stamps[0])
	// Output:
	// ssd: Write LBA 2, hint {Victim:true Pages:42}
	// driver: SSD buffer level 2
	// blk: write at 8192 done, err <nil>
	// ssd: Read LBA 2, hint {Victim:false Pages:0}
	// driver: SSD buffer level 2
	// blk: read at 8192 done, err <nil>
	// stamp read back: 7
}
