package nvmectrl

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// loopHost keeps depth commands in flight on SQ1 until total have been submitted,
// resubmitting on every completion it reaps; it allocates nothing.
type loopHost struct {
	c                 *Controller
	mem               *HostMemory
	sqBase, cqBase    uint64
	size              int
	tail, head        int
	phase             uint8
	sqe               SQE
	submitted, reaped int
	total             int
}

func (h *loopHost) submit(now sim.Time, n int) {
	for range n {
		if h.submitted == h.total {
			break
		}
		h.sqe.SetCID(uint16(h.tail))
		h.mem.WriteSQE(h.sqBase+uint64(h.tail)*SQESize, &h.sqe)
		h.tail = (h.tail + 1) % h.size
		h.submitted++
	}
	h.c.RingSQ(now, 1, h.tail)
}

func (h *loopHost) Interrupt(now sim.Time, vec int) {
	n := 0
	for {
		var e CQE
		h.mem.ReadCQE(h.cqBase+uint64(h.head)*CQESize, &e)
		if e.Phase() != h.phase {
			break
		}
		if h.head++; h.head == h.size {
			h.head, h.phase = 0, h.phase^1
		}
		n++
	}
	if n == 0 {
		return
	}
	h.reaped += n
	h.c.RingCQ(now, 1, h.head)
	if h.submitted < h.total {
		h.submit(now, n)
	}
}

// autoFW completes every command at once.
type autoFW struct{ c *Controller }

func (f *autoFW) Submit(now sim.Time, cmd *Command) {
	f.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.Low)
}

// BenchmarkFetchComplete measures simulated commands per wall-second through doorbell,
// fetch, firmware hand-off, completion and interrupt, 32 in flight on one queue pair.
func BenchmarkFetchComplete(b *testing.B) {
	const depth = 32
	eng := sim.NewEngine()
	mem := NewHostMemory()
	c := New("nvme", DefaultSpec(), eng, pcie.NewLink("pcie", pcie.DefaultSpec()), mem)
	c.SetFirmware(&autoFW{c})
	if err := c.Enable(mem.Alloc(PageSize), mem.Alloc(PageSize), 64, ArbRoundRobin); err != nil {
		b.Fatal(err)
	}
	h := &loopHost{c: c, mem: mem, size: 256, phase: 1}
	h.sqBase, h.cqBase = mem.Alloc(256*SQESize), mem.Alloc(256*CQESize)
	c.CreateCQ(CQConfig{ID: 1, Base: h.cqBase, Entries: 256, IEN: true, Vector: 1})
	c.CreateSQ(SQConfig{ID: 1, Base: h.sqBase, Entries: 256, CQID: 1})
	c.SetHost(h)
	h.sqe.SetRW(OpRead, 0, 1, mem.Alloc(PageSize), 0, 0, 8)
	// Warm up: grow the engine heap and the rings' pages.
	h.total = 4096
	h.submit(0, depth)
	eng.Run()

	b.ReportAllocs()
	b.ResetTimer()
	h.total += b.N
	h.submit(eng.Now(), depth)
	eng.Run()
	b.StopTimer()
	if h.reaped != h.total {
		b.Fatalf("reaped %d of %d", h.reaped, h.total)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cmds/s")
}

// BenchmarkPRPWalk measures walking the PRPs of a 128 KiB transfer (PRP1 + 31-entry list).
func BenchmarkPRPWalk(b *testing.B) {
	mem := NewHostMemory()
	buf := mem.Alloc(128 << 10)
	prp1, prp2, _, err := BuildPRP(mem, buf, 128<<10, []uint64{mem.Alloc(PageSize)})
	if err != nil {
		b.Fatal(err)
	}
	var p PRPs
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Walk(mem, prp1, prp2, 128<<10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSQEEncodeDecode measures building a Write SQE with a hint and decoding it.
func BenchmarkSQEEncodeDecode(b *testing.B) {
	var e SQE
	var sink Hint
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.SetRW(OpWrite, uint16(i), 1, 0x1000, 0x2000, uint64(i), 8)
		HintCDW13.Encode(&e, Hint{Victim: true, Pages: uint32(i)})
		sink = HintCDW13.Decode(&e)
	}
	_ = sink
}
