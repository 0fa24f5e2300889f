package nvmectrl

import (
	"errors"
	"fmt"
)

// Controller register offsets in BAR0 (docs/sources.md §1.4; SPDK offsets). Doorbells start at
// 1000h and are written with RingSQ and RingCQ.
const (
	RegCAP   = 0x00 // 64-bit: capabilities
	RegVS    = 0x08 // version
	RegINTMS = 0x0C // interrupt mask set (pin/MSI only; ignored)
	RegINTMC = 0x10 // interrupt mask clear (ignored)
	RegCC    = 0x14 // controller configuration
	RegCSTS  = 0x1C // controller status
	RegAQA   = 0x24 // admin queue attributes
	RegASQ   = 0x28 // 64-bit: admin SQ base
	RegACQ   = 0x30 // 64-bit: admin CQ base
)

// CC and CSTS bits (NVMe base spec; docs/sources.md §1.4, §1.6).
const (
	CCEnable      = 1 << 0
	ccAMSShift    = 11 // AMS [13:11]
	ccMPSShift    = 7  // MPS [10:7]
	ccSHNShift    = 14 // SHN [15:14]
	ccIOSQESShift = 16 // IOSQES [19:16]
	ccIOCQESShift = 20 // IOCQES [23:20]
	CSTSReady     = 1 << 0
	cstsSHSTDone  = 2 << 2 // SHST [3:2] = 10b, shutdown complete
)

// version is VS for NVMe 1.4: MJR [31:16], MNR [15:8].
const version = 0x00010400

type registers struct {
	cc, csts, aqa uint32
	asq, acq      uint64
}

// ReadReg returns the value of the register at offset off: CAP, ASQ and ACQ are 64-bit,
// the others 32-bit. It panics on an unknown offset.
func (c *Controller) ReadReg(off int) uint64 {
	switch off {
	case RegCAP:
		return c.capReg()
	case RegVS:
		return version
	case RegINTMS, RegINTMC:
		return 0
	case RegCC:
		return uint64(c.regs.cc)
	case RegCSTS:
		return uint64(c.regs.csts)
	case RegAQA:
		return uint64(c.regs.aqa)
	case RegASQ:
		return c.regs.asq
	case RegACQ:
		return c.regs.acq
	}
	c.panicf("read of unknown register %#x", off)
	return 0
}

// capReg builds CAP: MQES [15:0] (0's based), CQR [16] = 1, AMS bit 17 = WRR with urgent,
// TO [31:24] = 1 (500 ms), DSTRD [35:32] = 0, CSS bit 37 = NVM command set, MPSMIN and
// MPSMAX [55:48] = 0 (4 KiB only) (docs/sources.md §1.4).
func (c *Controller) capReg() uint64 {
	v := uint64(c.spec.MaxQueueEntries-1) | 1<<16 | 1<<24 | 1<<37
	if c.spec.WRR {
		v |= 1 << 17
	}
	return v
}

// WriteReg writes v to the register at offset off. Writes take effect at once: this is the
// set-up path, with no link traffic modelled. Setting CC.EN creates the admin queues from
// AQA, ASQ and ACQ and sets CSTS.RDY; clearing it resets the controller (all queues gone),
// which must then be idle. A value the controller cannot accept returns an error naming
// the field and changes nothing.
func (c *Controller) WriteReg(off int, v uint64) error {
	switch off {
	case RegINTMS, RegINTMC:
		return nil // MSI-X is used; the pin/MSI masks do nothing
	case RegAQA:
		c.regs.aqa = uint32(v) & 0x0FFF0FFF
	case RegASQ:
		c.regs.asq = v
	case RegACQ:
		c.regs.acq = v
	case RegCC:
		return c.writeCC(uint32(v))
	default:
		return fmt.Errorf("nvmectrl %s: write to read-only or unknown register %#x", c.name, off)
	}
	return nil
}

func (c *Controller) writeCC(v uint32) error {
	was := c.regs.cc&CCEnable != 0
	on := v&CCEnable != 0
	if on && !was {
		if err := c.checkEnable(v); err != nil {
			return err
		}
		c.regs.cc = v
		c.enable()
		return nil
	}
	if !on && was {
		c.reset()
		c.regs.cc = v
		return nil
	}
	c.regs.cc = v
	if v>>ccSHNShift&3 != 0 { // shutdown notification: nothing to flush here
		c.regs.csts |= cstsSHSTDone
	}
	return nil
}

// checkEnable reports every problem with enabling the controller with CC value v.
func (c *Controller) checkEnable(v uint32) error {
	var errs []error
	if mps := v >> ccMPSShift & 0xF; mps != 0 {
		errs = append(errs, fmt.Errorf("nvmectrl.cc.mps: %d, only 0 (4 KiB pages) is supported", mps))
	}
	ams := v >> ccAMSShift & 7
	if ams != uint32(ArbRoundRobin) && (ams != uint32(ArbWRR) || !c.spec.WRR) {
		errs = append(errs, fmt.Errorf("nvmectrl.cc.ams: %d is not supported (CAP.AMS wrr=%v)", ams, c.spec.WRR))
	}
	asqs, acqs := int(c.regs.aqa&0xFFF)+1, int(c.regs.aqa>>16&0xFFF)+1
	if asqs < 2 || acqs < 2 {
		errs = append(errs, fmt.Errorf("nvmectrl.aqa: admin queues of %d and %d entries, need at least 2", asqs, acqs))
	}
	if c.regs.asq == 0 || c.regs.asq%PageSize != 0 {
		errs = append(errs, fmt.Errorf("nvmectrl.asq: %#x is zero or not page aligned", c.regs.asq))
	}
	if c.regs.acq == 0 || c.regs.acq%PageSize != 0 {
		errs = append(errs, fmt.Errorf("nvmectrl.acq: %#x is zero or not page aligned", c.regs.acq))
	}
	return errors.Join(errs...)
}

// enable creates the admin queue pair and makes the controller ready.
func (c *Controller) enable() {
	c.arb.mode = Arbitration(c.regs.cc >> ccAMSShift & 7)
	// The admin CQ uses vector 0 with interrupts enabled (docs/sources.md §1.5, Linux).
	c.addCQ(CQConfig{ID: 0, Base: c.regs.acq, Entries: int(c.regs.aqa>>16&0xFFF) + 1, IEN: true})
	c.addSQ(SQConfig{ID: 0, Base: c.regs.asq, Entries: int(c.regs.aqa&0xFFF) + 1})
	c.regs.csts = CSTSReady
}

// reset returns the controller to its state after a controller reset.
func (c *Controller) reset() {
	c.landed(c.eng.Now())
	if c.slotFree != len(c.slots) {
		c.panicf("reset with %d commands in flight", len(c.slots)-c.slotFree)
	}
	c.regs = registers{}
	c.sqs, c.cqs = c.sqs[:0], c.cqs[:0]
	c.nsqa, c.ncqa = c.spec.MaxIOQueues, c.spec.MaxIOQueues
	s := c.spec
	c.arb = arbiter{weights: [3]int{s.HighWeight, s.MediumWeight, s.LowWeight}}
	c.arb.credit = c.arb.weights
	c.arb.setBurst(uint8(s.ArbitrationBurst))
	c.coal = coalescing{}
	clear(c.vectors)
}

// Enable brings the controller up the way a driver does: it writes AQA, ASQ and ACQ for
// admin queues of entries entries at asq and acq, then CC with EN, 4 KiB pages, 64-byte
// SQEs, 16-byte CQEs and arbitration arb.
func (c *Controller) Enable(asq, acq uint64, entries int, arb Arbitration) error {
	if entries < 2 || entries > 4096 {
		return fmt.Errorf("nvmectrl %s: admin queue of %d entries is not in 2..4096", c.name, entries)
	}
	n := uint64(entries - 1)
	_ = c.WriteReg(RegAQA, n<<16|n)
	_ = c.WriteReg(RegASQ, asq)
	_ = c.WriteReg(RegACQ, acq)
	return c.WriteReg(RegCC, CCEnable|uint64(arb)<<ccAMSShift|6<<ccIOSQESShift|4<<ccIOCQESShift)
}
