package nvmectrl_test

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// firmware completes every command as soon as its data has been read, reporting the
// buffer above its high watermark.
type firmware struct {
	eng  *sim.Engine
	ctrl *nvmectrl.Controller
}

func (f *firmware) Submit(now sim.Time, cmd *nvmectrl.Command) {
	done := f.ctrl.ReadHostData(now, cmd, 0, cmd.DataLen)
	fmt.Printf("firmware: %v of %d B from SQ %d, hint %+v\n", cmd.SQE.Opcode(), cmd.DataLen, cmd.SQID, cmd.Hint)
	f.eng.At(done, func() { f.ctrl.Complete(done, cmd, nvmectrl.StatusSuccess, 0, bufferlevel.High) })
}

// host reads the one completion on interrupt.
type host struct {
	mem  *nvmectrl.HostMemory
	cq   uint64
	ctrl *nvmectrl.Controller
}

func (h *host) Interrupt(now sim.Time, vector int) {
	var e nvmectrl.CQE
	h.mem.ReadCQE(h.cq, &e)
	level, _ := nvmectrl.StatusSQHD.Decode(&e)
	fmt.Printf("host: vector %d, CID %d, phase %d, status ok %v, buffer level %d\n",
		vector, e.CID(), e.Phase(), e.Status().OK(), level)
	h.ctrl.RingCQ(now, 1, 1)
}

// Example shows one 4 KiB Write carrying a FastDrain hint from the host through the
// controller to the firmware and back.
func Example() {
	eng := sim.NewEngine()
	mem := nvmectrl.NewHostMemory()
	ctrl := nvmectrl.New("nvme", nvmectrl.DefaultSpec(), eng, pcie.NewLink("pcie", pcie.DefaultSpec()), mem)
	ctrl.SetFirmware(&firmware{eng: eng, ctrl: ctrl})

	// Bring-up: admin queues, then one I/O queue pair on vector 1.
	if err := ctrl.Enable(mem.Alloc(4096), mem.Alloc(4096), 64, nvmectrl.ArbRoundRobin); err != nil {
		panic(err)
	}
	sq, cq := mem.Alloc(64*nvmectrl.SQESize), mem.Alloc(64*nvmectrl.CQESize)
	ctrl.CreateCQ(nvmectrl.CQConfig{ID: 1, Base: cq, Entries: 64, IEN: true, Vector: 1})
	ctrl.CreateSQ(nvmectrl.SQConfig{ID: 1, Base: sq, Entries: 64, CQID: 1})
	ctrl.SetHost(&host{mem: mem, cq: cq, ctrl: ctrl})

	// The host writes a Write SQE for 8 blocks of 512 B with the victimization hint, and
	// rings the doorbell.
	buf := mem.Alloc(4096)
	var e nvmectrl.SQE
	e.SetRW(nvmectrl.OpWrite, 7, 1, buf, 0, 2048, 8)
	nvmectrl.HintCDW13.Encode(&e, nvmectrl.Hint{Victim: true, Pages: 300})
	mem.WriteSQE(sq, &e)
	ctrl.RingSQ(0, 1, 1)
	eng.Run()
	// Output:
	// firmware: Write of 4096 B from SQ 1, hint {Victim:true Pages:300}
	// host: vector 1, CID 7, phase 1, status ok true, buffer level 2
}
