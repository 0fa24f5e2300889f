package channel

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// driver keeps one die of a benchmark channel busy: program the next page of block 0, read
// it back, and erase the block when it is full. It reuses one Transaction.
type driver struct {
	c     *Channel
	tx    Transaction
	addr  [1]die.Addr
	stamp [1]uint64
	got   [1]uint64
	left  *int // operations still to issue, shared by all drivers
}

func (d *driver) HandleEvent(*sim.Event) { d.issue() }

func (d *driver) issue() {
	if *d.left == 0 {
		return
	}
	*d.left--
	tx := &d.tx
	a := &d.addr[0]
	switch {
	case tx.Kind == Program:
		tx.Kind, tx.Stamps = Read, d.got[:0]
	case tx.Kind == Read && a.Page == d.c.spec.Die.PagesPerBlock-1:
		tx.Kind, a.Page = Erase, 0
	default: // after a read or an erase
		if tx.Kind == Erase {
			a.Page = -1
		}
		a.Page++
		d.stamp[0]++
		tx.Kind, tx.Stamps = Program, d.stamp[:]
	}
	d.c.Submit(tx)
}

// BenchmarkChannelOps measures flash operations (programs, reads, erases) per wall-clock
// second through one 8-die channel driven by the dies' completions, engine included.
func BenchmarkChannelOps(b *testing.B) {
	eng := sim.NewEngine()
	s := DefaultSpec()
	s.Dies = 8
	c, err := New(eng, "ssd.ch[0]", s)
	if err != nil {
		b.Fatal(err)
	}
	left := b.N
	drivers := make([]*driver, s.Dies)
	for i := range drivers {
		d := &driver{c: c, left: &left}
		d.addr[0].Page = -1
		d.tx = Transaction{Die: i, Addrs: d.addr[:], Done: d, Kind: Read}
		drivers[i] = d
	}
	b.ReportAllocs()
	b.ResetTimer()
	for _, d := range drivers {
		d.issue()
	}
	eng.Run()
	b.StopTimer()
	st := c.Stats()
	if got := st.Reads + st.Programs + st.Erases; got != int64(b.N) {
		b.Fatalf("completed %d of %d operations", got, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}
