package nvmectrl

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Link is the PCIe link as the controller uses it; *pcie.Link implements it. Every method
// books the transfer at or after now and returns when it arrives at the far end (for
// DMARead, when the last completion arrives back at the device).
type Link interface {
	MMIOWrite(now sim.Time, bytes int) sim.Time // host→device posted write
	DMAWrite(now sim.Time, bytes int) sim.Time  // device→host posted write
	DMARead(now sim.Time, bytes int) sim.Time   // device reads host memory
	MSIX(now sim.Time) sim.Time                 // device→host interrupt message
	MaxReadRequest() int                        // MRRS: the most bytes one read request asks for
}

// Firmware receives fetched commands. Submit is called from an engine event at the time the
// command's SQE arrived in the controller; it must not block (a firmware process typically
// TrySends the command to its queue). The command belongs to the firmware until it calls
// Controller.Complete.
type Firmware interface {
	Submit(now sim.Time, cmd *Command)
}

// Host receives MSI-X interrupts: Interrupt is called when the message for vector arrives at
// the host, after every CQE it covers has landed in host memory.
type Host interface {
	Interrupt(now sim.Time, vector int)
}

// Stats counts what the controller did.
type Stats struct {
	SQDoorbells  int64 // SQ tail doorbell writes that arrived
	CQDoorbells  int64 // CQ head doorbell writes booked on the link
	Fetches      int64 // SQE fetch DMAs
	Commands     int64 // SQEs fetched
	Completions  int64 // CQEs written
	CQFullWaits  int64 // completions that had to wait for room in a full CQ
	Interrupts   int64 // MSI-X messages sent
	ListBytes    int64 // PRP list bytes read
	DataRead     int64 // data bytes read from host memory
	DataWaits    int64 // FetchHostData ranges that had to wait for read tags
	DataWritten  int64 // data bytes written to host memory
	AdminHandled int64 // admin commands the controller executed itself
}

// ReadTimes are Read commands' controller times, ps: FetchWait from the doorbell that
// published the entry to its arrival in the controller (arbitration and the SQE fetch), and
// Service from there to the firmware's Complete (firmware, flash and data out).
type ReadTimes struct {
	FetchWait, Service sim.Histogram
}

// Controller is the NVMe controller front end: registers, queues, doorbells, arbitration,
// SQE fetch, PRP data movement, CQE posting and MSI-X with interrupt coalescing. It is idle
// between events: a doorbell, a fetch or a completion is one event each, scheduled for the
// time it takes effect.
//
// Doorbell timing: RingSQ and RingCQ are called by the host at the time it writes the
// doorbell; the controller books the 4-byte MMIO write on the link itself and applies the
// doorbell when it arrives. Register writes (WriteReg) are the set-up path and take effect
// at once without link traffic.
type Controller struct {
	// Stats counts operations; read it, do not write it.
	Stats Stats
	// Reads holds the Read commands' controller times; read it, do not write it.
	Reads ReadTimes

	name string
	spec Spec
	clk  sim.Clock
	eng  *sim.Engine
	link Link
	mem  *HostMemory
	fw   Firmware
	host Host
	// tracer, if set, is told of every command's arrival and completion (tracer.go).
	tracer CommandTracer

	regs    registers
	ns      []Namespace // NSID i+1 at index i (Spec.NamespaceList)
	sqs     []*subQueue // by qid; nil if absent
	cqs     []*complQueue
	nsqa    int // I/O queues granted by Number of Queues
	ncqa    int
	arb     arbiter
	vectors []vector
	coal    coalescing

	slots    []Command
	freeCmd  *Command
	slotFree int // slots neither in use nor reserved by an outstanding fetch

	fetches   []fetch
	freeFetch []*fetch
	arbQueued bool // an evArbitrate event is scheduled
	qstats    bool // keep QueueStats (EnableQueueStats)
	// landings are CQEs on their way to host memory with no event of their own, in order
	// of landing (complete.go, write).
	landings []landing

	dma dmaEngine // data reads: Spec.ReadTags requests outstanding at most (dma.go)
}

// Event kinds, in the low byte of Event.Code.
const (
	evSQDoorbell = iota // arg: qid<<16 | tail
	evCQDoorbell        // arg: qid<<16 | head
	evArbitrate
	evFetchDone  // Data: *fetch
	evAdmin      // Data: *Command
	evPost       // Data: *Command
	evCQEArrive  // Data: *Command
	evCoalesce   // arg: gen<<16 | vector
	evMSIXArrive // arg: vector
	evDrainCQ    // arg: qid
	evDMA        // read tags come back (dma.go)
)

// New returns a disabled controller on engine eng, link link and host memory mem. The host
// enables it through the registers (or Enable). It panics if spec is invalid: configuration
// is checked with Spec.Validate before a platform is built.
func New(name string, spec Spec, eng *sim.Engine, link Link, mem *HostMemory) *Controller {
	if err := spec.Validate(); err != nil {
		panic(fmt.Sprintf("nvmectrl %s: invalid spec: %v", name, err))
	}
	c := &Controller{name: name, spec: spec, clk: sim.NewClock(spec.Clock), eng: eng, link: link, mem: mem,
		ns: spec.NamespaceList()}
	mem.landers = append(mem.landers, c)
	c.slots = make([]Command, spec.MaxCommands)
	for i := len(c.slots) - 1; i >= 0; i-- {
		c.slots[i].Slot = i
		c.slots[i].next = c.freeCmd
		c.freeCmd = &c.slots[i]
	}
	c.slotFree = spec.MaxCommands
	c.fetches = make([]fetch, spec.MaxFetches)
	for i := range c.fetches {
		c.freeFetch = append(c.freeFetch, &c.fetches[i])
	}
	c.vectors = make([]vector, spec.Vectors)
	c.dma.init(spec.ReadTags, link.MaxReadRequest())
	c.reset()
	return c
}

// SetFirmware attaches the firmware that receives fetched commands.
func (c *Controller) SetFirmware(fw Firmware) { c.fw = fw }

// Firmware returns the firmware SetFirmware attached (nil before), so a test can put a
// fault between the two (internal/lostcmd).
func (c *Controller) Firmware() Firmware { return c.fw }

// SetHost attaches the host that receives interrupts.
func (c *Controller) SetHost(h Host) { c.host = h }

// Name returns the controller's name.
func (c *Controller) Name() string { return c.name }

// Spec returns the controller's configuration.
func (c *Controller) Spec() Spec { return c.spec }

// Memory returns the host memory the controller reads and writes.
func (c *Controller) Memory() *HostMemory { return c.mem }

// panicf reports a model bug (a host or firmware breaking the protocol) with the
// controller's name and the simulated time.
func (c *Controller) panicf(format string, args ...any) {
	panic(fmt.Sprintf("nvmectrl %s at %v: %s", c.name, c.eng.Now(), fmt.Sprintf(format, args...)))
}

// HandleEvent implements sim.Handler.
func (c *Controller) HandleEvent(ev *sim.Event) {
	now, arg := ev.Time, ev.Code>>8
	switch ev.Code & 0xFF {
	case evSQDoorbell:
		c.sqDoorbell(now, uint16(arg>>16), uint32(arg&0xFFFF))
	case evCQDoorbell:
		c.cqDoorbell(now, uint16(arg>>16), uint32(arg&0xFFFF))
	case evArbitrate:
		c.arbQueued = false
		c.arbitrate(now)
	case evFetchDone:
		c.fetchDone(now, ev.Data.(*fetch))
	case evAdmin:
		c.admin(now, ev.Data.(*Command))
	case evPost:
		c.post(now, ev.Data.(*Command))
	case evCQEArrive:
		c.cqeArrive(now, ev.Data.(*Command))
	case evCoalesce:
		c.coalesceTimer(now, int(arg&0xFFFF), uint32(arg>>16))
	case evMSIXArrive:
		c.Stats.Interrupts++
		if c.host != nil {
			c.host.Interrupt(now, int(arg))
		}
	case evDrainCQ:
		c.drainCQ(now, uint16(arg))
	case evDMA:
		c.dmaRelease(now)
	default:
		c.panicf("unknown event code %d", ev.Code)
	}
}

func (c *Controller) schedule(t sim.Time, kind int, arg int64, data any) {
	c.eng.Schedule(t, c, data, arg<<8|int64(kind))
}
