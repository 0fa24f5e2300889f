package energy

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/dram"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Parts are what a Meter reads of one SSD: its resources (whose busy time per activity
// the models already record) and the counters the models already keep. The meter changes
// none of them.
type Parts struct {
	Dies  []*sim.Resource // die arrays: read, program-lsb/csb/msb, erase, suspend
	Buses []*sim.Resource // ONFI channel buses: command, data-in, data-out
	Cores []*sim.Resource // firmware cores
	Link  [2]*sim.Resource
	PCIe  pcie.Spec // the link's width and rate
	DRAM  *sim.Resource
	// DRAMSpec is the rank's configuration: its width (devices), tRAS and tRP (the
	// activate energy), tRFC, tREFI and whether it refreshes (the refresh power).
	DRAMSpec dram.Spec
	// DRAMActivates returns the row activations so far (the DRAM's row misses plus
	// conflicts: each is one activate, and each conflict one precharge before it).
	DRAMActivates func() int64
	// HostCommands and HostWriteBytes return the host commands the SSD has served and the
	// bytes it was asked to write, for the energy per I/O and per GB written (nil: 0).
	HostCommands, HostWriteBytes func() int64
	// Sync records the link's pending bookings up to t before a reading (nil: none).
	Sync func(t sim.Time)
	// Residency returns the link's time in L0s and L1 up to t (nil: always L0). It is read
	// only with PCIe.ASPM on.
	Residency func(t sim.Time) pcie.Residency
}

// Row is one line of the energy table: a component and what it spends energy on.
type Row struct {
	Component string
	Activity  string
}

// The components, in table order.
const (
	NANDArray  = "nand array"
	ONFIBus    = "onfi bus"
	DRAMRank   = "dram"
	Cores      = "controller cores"
	PCIeLink   = "pcie link"
	components = 5
)

// Components lists the component names in table order.
var Components = [components]string{NANDArray, ONFIBus, DRAMRank, Cores, PCIeLink}

// rows is the table: every row the meter charges, grouped by component.
var rows = []Row{
	{NANDArray, "read"}, {NANDArray, "program-lsb"}, {NANDArray, "program-csb"},
	{NANDArray, "program-msb"}, {NANDArray, "program-tsb"}, {NANDArray, "erase"},
	{NANDArray, "read-slc"}, {NANDArray, "program-slc"}, {NANDArray, "erase-slc"},
	{NANDArray, "suspend"}, {NANDArray, "standby"},
	{ONFIBus, "command"}, {ONFIBus, "data-in"}, {ONFIBus, "data-out"},
	{DRAMRank, "activate/precharge"}, {DRAMRank, "read bursts"}, {DRAMRank, "write bursts"},
	{DRAMRank, "refresh"}, {DRAMRank, "active standby"},
	{Cores, "busy"}, {Cores, "idle"},
	{PCIeLink, "down data"}, {PCIeLink, "up data"}, {PCIeLink, "L0 standby"},
	{PCIeLink, "L0s standby"}, {PCIeLink, "L1 standby"},
}

// aspmRows are the rows shown only with pcie.aspm on (an Account's Shown).
var aspmRows = [...]int{len(rows) - 2, len(rows) - 1}

// tsbRow is the row shown only with QLC dies (an Account's Shown).
var tsbRow = rowIndex(NANDArray, "program-tsb")

// slcRows are the rows shown only with dies that have a pSLC mode (an Account's Shown).
var slcRows = [...]int{rowIndex(NANDArray, "read-slc"), rowIndex(NANDArray, "program-slc"), rowIndex(NANDArray, "erase-slc")}

// Rows returns the rows of every Reading, in order.
func Rows() []Row { return rows }

func rowIndex(component, activity string) int {
	for i, r := range rows {
		if r.Component == component && r.Activity == activity {
			return i
		}
	}
	panic(fmt.Sprintf("energy: no row %s/%s", component, activity))
}

func componentIndex(name string) int {
	for i, c := range Components {
		if c == name {
			return i
		}
	}
	panic("energy: no component " + name)
}

// steadyTerm charges watts to row all the time.
type steadyTerm struct {
	row   int
	watts float64
}

// charge is what a group's resources spend on one activity, or with group.all on any
// busy activity: watts to row.
type charge struct {
	name  string
	row   int
	watts float64
}

// group holds resources charged alike (every die, every channel bus, every core) and,
// per charge, the sum of their busy times, kept up to date one changed member at a time:
// an idle member costs one comparison per reading, not a query per activity.
type group struct {
	charges []charge
	all     bool // one charge for every busy activity (TotalBusyAt)
	idleRow int  // charged idleW while a member is idle; -1: idle time is free
	idleW   float64
	members []member
	sum     []sim.Time
}

// member is one resource of a group with its busy time per charge at the last update (at
// time at, when its latest interval ended at lastEnd). While it records nothing new
// (lastEnd unchanged) and that interval had ended by then, the busy times still hold.
type member struct {
	r           *sim.Resource
	acts        []sim.Activity
	cached      bool
	at, lastEnd sim.Time
	busy        []sim.Time
}

func newGroup(charges []charge, all bool, idleRow int, idleW float64, rs []*sim.Resource) group {
	g := group{charges: charges, all: all, idleRow: idleRow, idleW: idleW, sum: make([]sim.Time, len(charges))}
	for _, r := range rs {
		mb := member{r: r, busy: make([]sim.Time, len(charges))}
		if !all {
			for _, c := range charges {
				mb.acts = append(mb.acts, r.Activity(c.name))
			}
		}
		g.members = append(g.members, mb)
	}
	return g
}

// update brings member i's busy times, and the group's sums, to t (readings come at
// non-decreasing times).
func (g *group) update(i int, t sim.Time) {
	mb := &g.members[i]
	le := mb.r.FreeAt(0) // the latest interval's end; MaxTime while one is open
	if mb.cached && t >= mb.at && le != sim.MaxTime && le == mb.lastEnd && le <= mb.at {
		return
	}
	for k := range g.charges {
		var b sim.Time
		if g.all {
			b = mb.r.TotalBusyAt(t)
		} else {
			b = mb.r.BusyAt(t, mb.acts[k])
		}
		g.sum[k] += b - mb.busy[k]
		mb.busy[k] = b
	}
	mb.cached, mb.at, mb.lastEnd = true, t, le
}

// read brings every member to t and adds the group's energy from time zero to t to j (per
// row of Rows).
func (g *group) read(t sim.Time, j []float64) {
	for i := range g.members {
		g.update(i, t)
	}
	var busy sim.Time
	for k, c := range g.charges {
		busy += g.sum[k]
		j[c.row] += g.sum[k].Seconds() * c.watts
	}
	if g.idleRow >= 0 {
		j[g.idleRow] += (sim.Time(len(g.members))*t - busy).Seconds() * g.idleW
	}
}

// Meter turns an SSD's resource records and counters into energy. It holds no state the
// models see: a reading at time t depends only on what the resources recorded up to t.
type Meter struct {
	spec   Spec
	parts  Parts
	groups []group
	// Steady power charged for all time (DRAM active standby and refresh, the link's L0).
	steady []steadyTerm
	// Energy per DRAM activate (all devices), charged to actRow.
	actJ   float64
	actRow int
	// With pcie.aspm on: the power of one direction (all lanes) in L0, L0s and L1.
	aspm                 bool
	qlc                  bool // the dies have top pages: the program-tsb row is shown
	slc                  bool // the dies have a pSLC mode: its rows are shown
	l0W, l0sW, l1W       float64
	l0Row, l0sRow, l1Row int

	watch   *sim.Watch // tells the meter of every bucket's end
	started bool
	last    Reading  // the latest bucket boundary's reading
	start   Reading  // when measurement started
	buckets []Bucket // completed buckets since start
	rowComp []int    // component index of each row
}

// Reading is the energy spent from time zero to At, per row of Rows, in joules, with the
// host counters at At.
type Reading struct {
	At         sim.Time
	J          []float64
	Commands   int64
	WriteBytes int64
}

// Bucket is the energy each component spent in one bucket of the power trace, which ends
// at End and lasts Len.
type Bucket struct {
	End, Len sim.Time
	J        [components]float64
}

// New returns a meter of parts under spec, or the problems with either.
func New(spec Spec, p Parts) (*Meter, error) {
	var errs []error
	if err := spec.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := spec.ValidateDRAM(p.DRAMSpec.BusWidth); err != nil {
		errs = append(errs, err)
	}
	if p.DRAM == nil || p.Link[0] == nil || p.Link[1] == nil || p.DRAMActivates == nil {
		errs = append(errs, errors.New("energy: parts need the DRAM bus, its activate count and both link directions"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m := &Meter{spec: spec, parts: p}
	m.rowComp = make([]int, len(rows))
	for i, r := range rows {
		m.rowComp[i] = componentIndex(r.Component)
	}
	m.groups = append(m.groups, dieGroup(spec.NAND, p.Dies), busGroup(spec.NAND, p.Buses))
	m.qlc = hasTopPages(p.Dies)
	m.slc = hasActivity(p.Dies, "program-slc")
	c := spec.Controller
	m.groups = append(m.groups, newGroup([]charge{{"", rowIndex(Cores, "busy"), c.ActivePower.Watts()}},
		true, rowIndex(Cores, "idle"), c.IdlePower.Watts(), p.Cores))
	// A busy link direction puts BytesPerSecond on the wire (TLPs and their DLLP share).
	wireW := float64(p.PCIe.BytesPerSecond()) * 8 * spec.PCIe.EnergyPerBit.JoulesPerBit()
	for k, name := range []string{"down data", "up data"} {
		m.groups = append(m.groups, newGroup([]charge{{"", rowIndex(PCIeLink, name), wireW}}, true, -1, 0,
			[]*sim.Resource{p.Link[k]}))
	}
	m.steady = append(m.steady, steadyTerm{row: rowIndex(PCIeLink, "L0 standby"),
		watts: 2 * float64(p.PCIe.Lanes) * spec.PCIe.IdlePowerPerLane.Watts()})
	if p.PCIe.ASPM.On() && p.Residency != nil {
		lanes := float64(p.PCIe.Lanes)
		m.aspm = true
		m.l0W, m.l0sW, m.l1W = lanes*spec.PCIe.IdlePowerPerLane.Watts(),
			lanes*spec.PCIe.L0sPowerPerLane.Watts(), lanes*spec.PCIe.L1PowerPerLane.Watts()
		m.l0Row, m.l0sRow, m.l1Row = rowIndex(PCIeLink, "L0 standby"),
			rowIndex(PCIeLink, "L0s standby"), rowIndex(PCIeLink, "L1 standby")
	}
	m.dram()
	return m, nil
}

// dieGroup charges the die arrays: ICC1, ICC2 (every program page type and a suspension)
// and ICC3 on VCC while busy, ISB on VCC while idle. A read, program or erase in pSLC mode
// (die.SLCSpec) draws the same array current as in the native mode (the datasheet gives
// one ICC1, ICC2, ICC3 a part) for its own, shorter time.
func dieGroup(n NAND, dies []*sim.Resource) group {
	vcc := n.VCC.Volts()
	die := func(name string, i Current) charge { return charge{name, rowIndex(NANDArray, name), i.Amperes() * vcc} }
	charges := []charge{die("read", n.ICC1), die("program-lsb", n.ICC2),
		die("program-csb", n.ICC2), die("program-msb", n.ICC2), die("erase", n.ICC3), die("suspend", n.ICC2)}
	if hasTopPages(dies) {
		charges = append(charges, die("program-tsb", n.ICC2))
	}
	if hasActivity(dies, "program-slc") {
		charges = append(charges, die("read-slc", n.ICC1), die("program-slc", n.ICC2), die("erase-slc", n.ICC3))
	}
	return newGroup(charges,
		false, rowIndex(NANDArray, "standby"), n.ISB.Amperes()*vcc, dies)
}

// hasTopPages reports whether the dies have QLC top pages (their "program-tsb" activity,
// registered only on QLC dies: looking it up with Activity would add it to every die).
func hasTopPages(dies []*sim.Resource) bool { return hasActivity(dies, "program-tsb") }

// hasActivity reports whether the dies have activity name, without registering it (as
// Activity would, on every die).
func hasActivity(dies []*sim.Resource, name string) bool {
	if len(dies) == 0 {
		return false
	}
	for _, n := range dies[0].Activities() {
		if n == name {
			return true
		}
	}
	return false
}

// busGroup charges the ONFI buses: ICC4W on VCCQ for command and data-in phases, ICC4R for
// data-out; an idle bus is free.
func busGroup(n NAND, buses []*sim.Resource) group {
	vccq := n.VCCQ.Volts()
	bus := func(name string, i Current) charge { return charge{name, rowIndex(ONFIBus, name), i.Amperes() * vccq} }
	return newGroup([]charge{bus("command", n.ICC4W), bus("data-in", n.ICC4W),
		bus("data-out", n.ICC4R)}, false, -1, 0, buses)
}

// dram sets up the JEDEC IDD terms (Micron TN-41-01's method): per device, bursts cost
// (IDD4R|IDD4W − IDD3N)·VDD over their bus time, an activate–precharge pair
// (IDD0·tRC − IDD3N·tRAS − IDD2N·tRP)·VDD with tRC = tRAS + tRP, refresh
// (IDD5B − IDD3N)·VDD·tRFC/tREFI continuously, and active standby IDD3N·VDD all the time
// (the model keeps rows open between accesses).
func (m *Meter) dram() {
	d, ds := m.spec.DRAM, m.parts.DRAMSpec
	devices := float64(ds.BusWidth / d.DeviceWidth)
	vdd := d.VDD.Volts()
	a := func(c Current) float64 { return c.Amperes() }
	m.groups = append(m.groups, newGroup([]charge{
		{"read", rowIndex(DRAMRank, "read bursts"), devices * vdd * (a(d.IDD4R) - a(d.IDD3N))},
		{"write", rowIndex(DRAMRank, "write bursts"), devices * vdd * (a(d.IDD4W) - a(d.IDD3N))},
	}, false, -1, 0, []*sim.Resource{m.parts.DRAM}))
	tras, trp := ds.TRAS.Seconds(), ds.TRP.Seconds()
	m.actJ = devices * vdd * (a(d.IDD0)*(tras+trp) - a(d.IDD3N)*tras - a(d.IDD2N)*trp)
	m.actRow = rowIndex(DRAMRank, "activate/precharge")
	if ds.Refresh {
		m.steady = append(m.steady, steadyTerm{row: rowIndex(DRAMRank, "refresh"),
			watts: devices * vdd * (a(d.IDD5B) - a(d.IDD3N)) * ds.TRFC.Seconds() / ds.TREFI.Seconds()})
	}
	m.steady = append(m.steady, steadyTerm{row: rowIndex(DRAMRank, "active standby"), watts: devices * vdd * a(d.IDD3N)})
}

// Read returns the energy spent from time zero to t (t must not be before the current
// time of the engine the resources follow).
func (m *Meter) Read(t sim.Time) Reading {
	r := Reading{At: t, J: make([]float64, len(rows))}
	m.readInto(&r, t)
	return r
}

func (m *Meter) readInto(r *Reading, t sim.Time) {
	if m.parts.Sync != nil {
		m.parts.Sync(t)
	}
	clear(r.J)
	r.At = t
	secs := t.Seconds()
	for gi := range m.groups {
		m.groups[gi].read(t, r.J)
	}
	for _, s := range m.steady {
		r.J[s.row] += secs * s.watts
	}
	r.J[m.actRow] += float64(m.parts.DRAMActivates()) * m.actJ
	if m.aspm {
		m.linkStates(r.J, t)
	}
	r.Commands, r.WriteBytes = 0, 0
	if m.parts.HostCommands != nil {
		r.Commands = m.parts.HostCommands()
	}
	if m.parts.HostWriteBytes != nil {
		r.WriteBytes = m.parts.HostWriteBytes()
	}
}

// linkStates moves each direction's time in L0s and L1 up to t out of the L0 standby
// row (charged all the time as a steady term) into the L0s and L1 rows. The residency
// includes the open idle gap up to t, so a gap that spans buckets is split between them.
func (m *Meter) linkStates(j []float64, t sim.Time) {
	r := m.parts.Residency(t)
	for _, s := range r.L0s {
		j[m.l0Row] -= s.Seconds() * m.l0W
		j[m.l0sRow] += s.Seconds() * m.l0sW
	}
	l1 := 2 * r.L1.Seconds() // both directions
	j[m.l0Row] -= l1 * m.l0W
	j[m.l1Row] += l1 * m.l1W
}

// Start begins measuring at eng's current time: it reads the start and then reads again
// at the end of every bucket of Spec.Resolution. The readings add no events: the engine
// tells the meter of each bucket's end (sim.Engine.Observe) once every event up to it has
// fired and before any later one, so the resources and counters then hold exactly their
// state at the bucket's end; the trace never keeps a run going. Call it once.
func (m *Meter) Start(eng *sim.Engine) {
	if m.started {
		panic("energy: meter started twice")
	}
	m.started = true
	m.start = m.Read(eng.Now())
	m.last = m.Read(eng.Now())
	m.watch = eng.Observe(eng.Now()+m.spec.Resolution, m.spec.Resolution, m)
}

// AtBoundary closes the bucket of the trace that ends at t; it implements
// sim.BoundaryObserver.
func (m *Meter) AtBoundary(t sim.Time) { m.bucket(t) }

// bucket closes the bucket that ends at t: the energy since the last reading, by
// component.
func (m *Meter) bucket(t sim.Time) {
	prev := m.last.J
	cur := Reading{J: make([]float64, len(rows))}
	m.readInto(&cur, t)
	b := Bucket{End: t, Len: t - m.last.At}
	for i := range rows {
		b.J[m.rowComp[i]] += cur.J[i] - prev[i]
	}
	m.buckets = append(m.buckets, b)
	m.last = cur
}

// Stop ends the measurement at t (at or after the last bucket's end) and returns its
// account. A final bucket shorter than Resolution is kept in the trace but not in the
// peaks.
func (m *Meter) Stop(t sim.Time) *Account {
	if !m.started {
		panic("energy: meter stopped before it started")
	}
	// The bucket ends up to t the engine has not reached yet (at most one, at t itself,
	// when the run's last event is at a bucket's end), then the final part-bucket.
	m.watch.Close(t)
	if t > m.last.At {
		m.bucket(t)
	}
	end := m.last
	a := &Account{From: m.start.At, To: t, ASPM: m.aspm, QLC: m.qlc, SLC: m.slc, J: make([]float64, len(rows)), Buckets: m.buckets,
		Commands: end.Commands - m.start.Commands, WriteBytes: end.WriteBytes - m.start.WriteBytes}
	for i := range rows {
		a.J[i] = end.J[i] - m.start.J[i]
	}
	for _, w := range m.spec.PeakWindows {
		a.Peaks = append(a.Peaks, peak(m.buckets, w, m.spec.Resolution))
	}
	return a
}
