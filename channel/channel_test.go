package channel

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

const (
	ns = sim.Nanosecond
	us = sim.Microsecond
	// Hand-computed bus times of the default spec (NV-DDR2 mode 6: 333 MT/s, 8 bits; one
	// cmd/addr cycle 25 ns; address 2 column + 3 row cycles; see onfi's tests):
	xfer16K  = sim.Time(49_201_202) // ⌈16384 · 10⁶ / 333⌉ ps
	readCmd  = 275 * ns             // 00h + 5 addr + 30h = 175 ns, + tWB 100 ns
	outSetup = 20 * ns              // tRR before the first data-out cycle
	progBus  = 345*ns + xfer16K     // 80h + 5 addr (150 ns) + tADL 70 + data + 10h 25 + tWB 100
	readOut  = outSetup + xfer16K   // data-out phase of a one-plane 16 KiB read
	readBus  = readCmd + readOut    // all bus time of a one-plane read
	eraseCmd = 225 * ns             // 60h + 3 row + D0h = 125 ns, + tWB 100 ns
	status78 = 180*ns + 3004        // 78h + 3 row (100 ns) + tWHR 80 + one byte ⌈10⁶/333⌉ ps
)

// recorder is a Done handler that remembers completed transactions in order.
type recorder struct{ done []*Transaction }

func (r *recorder) HandleEvent(ev *sim.Event) { r.done = append(r.done, ev.Data.(*Transaction)) }

func newChannel(t testing.TB, edit func(*Spec)) (*sim.Engine, *Channel) {
	eng := sim.NewEngine()
	s := DefaultSpec()
	s.Die.BlocksPerPlane = 8 // keep tests small
	if edit != nil {
		edit(&s)
	}
	c, err := New(eng, "ssd.ch[3]", s)
	require.NoError(t, err)
	return eng, c
}

func prog(d int, a die.Addr, stamp uint64, done sim.Handler) *Transaction {
	return &Transaction{Kind: Program, Die: d, Addrs: []die.Addr{a}, Stamps: []uint64{stamp}, Done: done}
}

func read(d int, a die.Addr, done sim.Handler) *Transaction {
	return &Transaction{Kind: Read, Die: d, Addrs: []die.Addr{a}, Stamps: make([]uint64, 0, 1), Done: done, MaySuspend: true}
}

// fillTo programs pages 0 … n-1 of plane 0 block 0 of die d and runs until they are done.
func fillTo(eng *sim.Engine, c *Channel, d, n int) {
	for p := range n {
		c.Submit(prog(d, die.Addr{Page: p}, uint64(1000+p), nil))
	}
	eng.Run()
}

// TestNames checks the hierarchical names of the bus, dies and planes.
func TestNames(t *testing.T) {
	_, c := newChannel(t, nil)
	require.Equal(t, "ssd.ch[3]", c.Name())
	require.Equal(t, "ssd.ch[3]", c.Bus().Name())
	require.Equal(t, 4, c.NumDies())
	require.Equal(t, "ssd.ch[3].die[1]", c.Die(1).Name())
	require.Equal(t, "ssd.ch[3].die[1].plane[0]", c.Die(1).Plane(0).Name())
	require.Equal(t, []string{"idle", "command", "data-in", "data-out"}, c.Bus().Activities())
}

// TestReadBesideMSBProgram: a TLC MSB program holds die 0 for 5,001 µs while a read on die 1
// of the same channel goes through; a read on die 0 waits for the program.
func TestReadBesideMSBProgram(t *testing.T) {
	eng, c := newChannel(t, nil)
	fillTo(eng, c, 0, 12) // pages 0–11; page 12 is the first MSB page (2D TLC map)
	fillTo(eng, c, 1, 1)
	t0 := eng.Now()
	rec := &recorder{}
	pg := prog(0, die.Addr{Page: 12}, 77, rec)
	r1 := read(1, die.Addr{Page: 0}, rec)
	r0 := read(0, die.Addr{Page: 3}, rec)
	eng.At(t0, func() { c.Submit(pg) })
	eng.At(t0+100*us, func() { c.Submit(r1); c.Submit(r0) })
	eng.Run()

	// Program: its bus phase, then tPROG(MSB) = 5,001 µs with the bus free.
	require.Equal(t, t0+progBus, pg.ArrayStart)
	require.Equal(t, t0+progBus+5001*us, pg.Completed)
	// Read on die 1: cmd/addr 275 ns + tR(LSB) 58 µs + tRR 20 ns + 16 KiB out.
	require.Equal(t, t0+100*us, r1.BusStart)
	require.Equal(t, t0+100*us+readCmd+58*us+readOut, r1.Completed)
	require.Equal(t, uint64(1000), r1.Stamps[0])
	// Read on die 0 (page 3, LSB) waits for the program, then the same phases.
	require.Equal(t, pg.Completed, r0.BusStart)
	require.Equal(t, pg.Completed+readBus+58*us, r0.Completed)
	require.Equal(t, uint64(1003), r0.Stamps[0])
	require.Equal(t, []*Transaction{r1, pg, r0}, rec.done)
	// The die array of die 0 spent exactly 5,001 µs on the MSB program.
	arr := c.Die(0).Array()
	require.Equal(t, 5001*us, arr.BusyAt(eng.Now(), arr.Activity("program-msb")))
}

// TestDiesOverlapArrayNotBus: LSB programs to dies 0 and 1 submitted together overlap their
// 558 µs tPROG but take the bus one after the other; two programs to one die serialize.
func TestDiesOverlapArrayNotBus(t *testing.T) {
	eng, c := newChannel(t, nil)
	a := prog(0, die.Addr{Page: 0}, 1, nil)
	b := prog(1, die.Addr{Page: 0}, 2, nil)
	a2 := prog(0, die.Addr{Page: 1}, 3, nil)
	c.Submit(a)
	c.Submit(b)
	c.Submit(a2)
	eng.Run()
	B := progBus
	require.Equal(t, sim.Time(0), a.BusStart)
	require.Equal(t, B+558*us, a.Completed)
	require.Equal(t, B, b.BusStart) // waited for a's bus phase only
	require.Equal(t, 2*B+558*us, b.Completed)
	require.Equal(t, B+558*us, a2.BusStart) // waited for die 0
	require.Equal(t, 2*B+2*558*us, a2.Completed)
	// Bus: three programs of 345 ns command + one page of data each.
	end := eng.Now()
	bus := c.Bus()
	require.Equal(t, 3*345*ns, bus.BusyAt(end, bus.Activity("command")))
	require.Equal(t, 3*xfer16K, bus.BusyAt(end, bus.Activity("data-in")))
	require.Equal(t, sim.Time(0), bus.BusyAt(end, bus.Activity("data-out")))
	// Array time overlaps: 3 × 558 µs of programming ends at 2B + 1,116 µs, less than the
	// serial 1,674 µs.
	total := c.Die(0).Array().TotalBusyAt(end) + c.Die(1).Array().TotalBusyAt(end)
	require.Equal(t, 3*558*us, total)
	require.Less(t, end, 3*558*us)
	require.Equal(t, Stats{Programs: 3, BytesIn: 3 * 16384}, c.Stats())
}

// TestMultiPlane: a two-plane program and read on different blocks of one die, with the
// ONFI multi-plane sequences; a read of different page indexes panics in the die.
func TestMultiPlane(t *testing.T) {
	eng, c := newChannel(t, nil)
	addrs := []die.Addr{{Plane: 0, Block: 2, Page: 0}, {Plane: 1, Block: 5, Page: 0}}
	p := &Transaction{Kind: Program, Addrs: addrs, Stamps: []uint64{11, 22}}
	r := &Transaction{Kind: Read, Addrs: addrs}
	c.Submit(p)
	c.Submit(r)
	eng.Run()
	// Program: plane 0 80h-addr-tADL (220 ns), data, 11h-tWB-tDBSY (625 ns); plane 1 81h (220
	// ns), data, 10h-tWB (125 ns): 1,190 ns + 2 pages; then one tPROG(LSB) of 558 µs.
	require.Equal(t, 1190*ns+2*xfer16K+558*us, p.Completed)
	// Read: 00h-32h + tDBSY (775 ns) and 00h-30h (275 ns); tR 58 µs; data-out tRR 20 ns +
	// per plane 06h-addr-E0h (175 ns) + tCCS 500 ns + page.
	require.Equal(t, p.Completed+1050*ns+58*us+1370*ns+2*xfer16K, r.Completed)
	require.Equal(t, []uint64{11, 22}, r.Stamps)

	bad := &Transaction{Kind: Read, Addrs: []die.Addr{{Plane: 0, Page: 0}, {Plane: 1, Page: 1}}}
	c.Submit(bad)
	// The die panics when the two-plane command (1,050 ns) reaches it.
	at := r.Completed + 1050*ns
	require.PanicsWithValue(t, "die ssd.ch[3].die[0] at "+at.String()+": multi-plane read of plane 0 block 0 page 0 "+
		"and plane 1 block 0 page 1: pages must have the same index", func() { eng.Run() })
	require.Equal(t, at, eng.Now())
}

// suspendRun runs an MSB program (page 12) on die 0 with program suspend on (tSuspend 20
// µs, tResume 30 µs) and, 1,000 µs after it, a read of page 2 that may suspend it or not.
func suspendRun(t *testing.T, maySuspend bool) (c *Channel, t0 sim.Time, pg, r *Transaction) {
	eng, c := newChannel(t, func(s *Spec) {
		s.Die.Suspend, s.Die.TSuspend, s.Die.TResume = true, 20*us, 30*us
	})
	fillTo(eng, c, 0, 12)
	t0 = eng.Now()
	pg = prog(0, die.Addr{Page: 12}, 77, nil)
	r = read(0, die.Addr{Page: 2}, nil)
	r.MaySuspend = maySuspend
	eng.At(t0, func() { c.Submit(pg) })
	eng.At(t0+1000*us, func() { c.Submit(r) })
	eng.Run()
	return c, t0, pg, r
}

// TestSuspendMovesProgramEnd: with program suspend on (tSuspend 20 µs, tResume 30 µs), a
// read on the die of a running MSB program suspends it and delays its end by 20 + 58 + 30
// = 108 µs.
func TestSuspendMovesProgramEnd(t *testing.T) {
	c, t0, pg, r := suspendRun(t, true)
	// Read: command at 1,000 µs (275 ns), suspend 20 µs, tR 58 µs, data-out.
	require.Equal(t, t0+1000*us+readCmd, r.ArrayStart)
	require.Equal(t, t0+1000*us+readCmd+78*us, r.ArrayEnd)
	require.Equal(t, r.ArrayEnd+readOut, r.Completed)
	require.Equal(t, uint64(1002), r.Stamps[0])
	// Program: 5,001 µs of tPROG plus 108 µs.
	require.Equal(t, t0+progBus+5001*us+108*us, pg.Completed)
	require.Equal(t, int64(1), c.Die(0).Stats().Suspends)
	require.True(t, r.Suspended)
	require.False(t, pg.Suspended)
}

// TestSuspendNeedsMaySuspend: the same read without MaySuspend (a read the flash scheduler
// does not let suspend, such as GC's) waits for the program: its command goes on the bus
// when the program's 5,001 µs tPROG ends, and the program is not delayed.
func TestSuspendNeedsMaySuspend(t *testing.T) {
	c, t0, pg, r := suspendRun(t, false)
	require.Equal(t, t0+progBus+5001*us, pg.Completed)
	require.Equal(t, pg.Completed+readCmd, r.ArrayStart)
	require.False(t, r.Suspended)
	require.Zero(t, c.Die(0).Stats().Suspends)
}

// TestPolicy: a program to die 0 and a read to die 1 submitted at the same instant, program
// first. FIFO issues the program first; ReadFirst the read.
func TestPolicy(t *testing.T) {
	for _, pol := range []Policy{FIFO, ReadFirst} {
		eng, c := newChannel(t, func(s *Spec) { s.Policy = pol })
		fillTo(eng, c, 1, 1)
		t0 := eng.Now()
		pg := prog(0, die.Addr{Page: 0}, 1, nil)
		r := read(1, die.Addr{Page: 0}, nil)
		eng.At(t0, func() { c.Submit(pg); c.Submit(r) })
		eng.Run()
		if pol == FIFO {
			require.Equal(t, t0, pg.BusStart)
			require.Equal(t, t0+progBus, r.BusStart)
		} else {
			require.Equal(t, t0, r.BusStart)
			require.Equal(t, t0+readCmd, pg.BusStart)
			// tR (58 µs) outlasts the program's bus phase (49.5 µs): the data-out is not delayed.
			require.Equal(t, t0+readCmd+58*us+readOut, r.Completed)
		}
	}
}

// TestStatusPollAndErase: with status polling and several dies, each array operation ends
// with a 78h status read (180 ns + one byte) on the bus before completion.
func TestStatusPollAndErase(t *testing.T) {
	eng, c := newChannel(t, func(s *Spec) { s.StatusPoll = true })
	e := &Transaction{Kind: Erase, Die: 2, Addrs: []die.Addr{{Plane: 1, Block: 4}}}
	c.Submit(e)
	eng.Run()
	require.Equal(t, eraseCmd+2274*us, e.ArrayEnd)
	require.Equal(t, eraseCmd+2274*us+status78, e.Completed)
	require.Equal(t, 1, c.Die(2).EraseCount(1, 4))
	pg := prog(2, die.Addr{Plane: 1, Block: 4}, 5, nil)
	r := read(2, die.Addr{Plane: 1, Block: 4}, nil)
	c.Submit(pg)
	c.Submit(r)
	eng.Run()
	require.Equal(t, e.Completed+progBus+558*us+status78, pg.Completed)
	// Read: status, then 00h (25 ns) back to read mode, then the data-out.
	require.Equal(t, pg.Completed+readCmd+58*us+status78+25*ns+readOut, r.Completed)
	require.Equal(t, uint64(5), r.Stamps[0])
}

// TestPartialRead checks Bytes: a 4 KiB read from a 16 KiB page moves ⌈4096·10⁶/333⌉ =
// 12,300,301 ps of data.
func TestPartialRead(t *testing.T) {
	eng, c := newChannel(t, nil)
	r := read(0, die.Addr{}, nil)
	r.Bytes = 4096
	c.Submit(r)
	eng.Run()
	require.Equal(t, readCmd+58*us+outSetup+12_300_301, r.Completed)
	require.Equal(t, die.ErasedStamp, r.Stamps[0])
	require.Equal(t, int64(4096), c.Stats().BytesOut)
}

// TestSubmitPanics checks malformed transactions are reported with the channel name.
func TestSubmitPanics(t *testing.T) {
	eng, c := newChannel(t, nil)
	cases := []struct {
		name string
		tx   *Transaction
		want string
	}{
		{"die", &Transaction{Kind: Read, Die: 4, Addrs: []die.Addr{{}}}, "transaction to die 4; the channel has 4 dies"},
		{"planes", &Transaction{Kind: Read, Addrs: make([]die.Addr, 3)}, "read of 3 planes on die 0; dies have 2 planes"},
		{"stamps", &Transaction{Kind: Program, Addrs: []die.Addr{{}}}, "program of 1 planes on die 0 with 0 stamps"},
		{"bytes", &Transaction{Kind: Read, Addrs: []die.Addr{{}}, Bytes: 16385}, "read of 16385 bytes per plane; pages hold 16384"},
		{"kind", &Transaction{Kind: 9, Addrs: []die.Addr{{}}}, "transaction of unknown kind 9"},
	}
	for _, tc := range cases {
		require.PanicsWithValue(t, "channel ssd.ch[3] at 0s: "+tc.want, func() { c.Submit(tc.tx) }, tc.name)
	}
	tx := read(0, die.Addr{}, nil)
	c.Submit(tx)
	require.True(t, tx.InFlight())
	require.Panics(t, func() { c.Submit(tx) })
	eng.Run()
	require.False(t, tx.InFlight())
	c.Submit(tx) // reusable once done
	eng.Run()
	require.Equal(t, 0, c.Outstanding(0))
}

// TestValidate checks the channel spec reports its own and its parts' problems.
func TestValidate(t *testing.T) {
	require.NoError(t, DefaultSpec().Validate())
	s := DefaultSpec()
	s.Dies = 0
	s.Policy = 7
	s.ONFI.Mode = 99
	s.Die.Planes = 0
	err := s.Validate()
	for _, f := range []string{"channel.dies", "channel.policy", "onfi.mode", "die.planes"} {
		require.ErrorContains(t, err, f)
	}
	_, err = New(sim.NewEngine(), "x", s)
	require.Error(t, err)
	var p Policy
	require.NoError(t, p.UnmarshalText([]byte("read-first")))
	require.Equal(t, ReadFirst, p)
	require.Error(t, p.UnmarshalText([]byte("lifo")))
}

// FuzzPolicyText checks the policy parser: whatever it accepts prints back unchanged.
func FuzzPolicyText(f *testing.F) {
	for _, s := range []string{"fifo", "read-first", "", "FIFO"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p Policy
		if p.UnmarshalText([]byte(s)) == nil {
			require.Equal(t, s, p.String())
		}
	})
}

// TestSpecYAML checks a channel spec decodes over the defaults from nested YAML.
func TestSpecYAML(t *testing.T) {
	s := DefaultSpec()
	src := "dies: 8\npolicy: read-first\nstatus_poll: true\nonfi: {interface: nv-ddr3, mode: 10}\n" +
		"die: {cell: mlc, t_read: {lsb: 40us, msb: 65us}, t_prog: {lsb: 500us, msb: 1300us}, t_erase: 3.5ms}\n"
	require.NoError(t, yaml.Unmarshal([]byte(src), &s))
	require.NoError(t, s.Validate())
	require.Equal(t, 8, s.Dies)
	require.Equal(t, ReadFirst, s.Policy)
	require.Equal(t, 800, s.ONFI.MTps())
	require.Equal(t, 3500*us, s.Die.TErase)
	require.Equal(t, 16384, s.Die.PageSize) // kept from the default
}
