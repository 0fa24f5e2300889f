package nvmectrl

import (
	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// ownsAdmin reports whether the controller executes an admin opcode itself (queue set-up,
// features, Identify, Get Log Page); the others go to the firmware.
func (c *Controller) ownsAdmin(op Opcode) bool {
	switch op {
	case AdminCreateIOCQ, AdminCreateIOSQ, AdminDeleteIOCQ, AdminDeleteIOSQ, AdminSetFeatures, AdminGetFeatures,
		AdminIdentify, AdminGetLogPage:
		return true
	}
	return false
}

// admin executes an admin command the controller owns and completes it.
func (c *Controller) admin(now sim.Time, cmd *Command) {
	e := &cmd.SQE
	cdw10, cdw11 := e.DW(10), e.DW(11)
	qid, entries := uint16(cdw10), int(cdw10>>16)+1 // QSIZE is 0's based
	var st Status
	var dw0 uint32
	switch e.Opcode() {
	case AdminCreateIOCQ:
		// CDW11: PC [0], IEN [1], IV [31:16] (docs/sources.md §1.5). CAP.CQR = 1: PC must be set.
		if cdw11&1 == 0 {
			st = StatusInvalidField
			break
		}
		st = c.CreateCQ(CQConfig{ID: qid, Base: e.PRP1(), Entries: entries, IEN: cdw11&2 != 0,
			Vector: uint16(cdw11 >> 16)})
	case AdminCreateIOSQ:
		// CDW11: PC [0], QPRIO [2:1], CQID [31:16] (docs/sources.md §1.5).
		if cdw11&1 == 0 {
			st = StatusInvalidField
			break
		}
		st = c.CreateSQ(SQConfig{ID: qid, Base: e.PRP1(), Entries: entries, CQID: uint16(cdw11 >> 16),
			Priority: Priority(cdw11>>1) & 3})
	case AdminDeleteIOSQ:
		st = c.DeleteSQ(qid)
	case AdminDeleteIOCQ:
		st = c.DeleteCQ(qid)
	case AdminSetFeatures:
		dw0, st = c.SetFeature(uint8(cdw10), cdw11)
	case AdminGetFeatures:
		dw0, st = c.GetFeature(uint8(cdw10))
	case AdminIdentify:
		st = c.identify(now, cmd, uint8(cdw10))
	case AdminGetLogPage:
		st = c.getLogPage(now, cmd)
	}
	c.Stats.AdminHandled++
	c.Complete(now, cmd, st, dw0, bufferlevel.None)
}

// identify serves Identify with CNS cns (CDW10 bits 7:0; NVMe Base Specification 2.1,
// Identify command, CNS values): 00h the Identify Namespace data structure of NSID, 01h the
// Identify Controller data structure, 02h the Active Namespace ID list after NSID, 05h and
// 06h the I/O command set specific namespace and controller structures for CSI (CDW11
// bits 31:24) 02h, the Zoned Namespace command set. The structure is DMA'd to the
// command's PRPs (its CQE follows the data, as posted writes stay in order). An inactive
// NSID is Invalid Namespace or Format; any other CNS or CSI is Invalid Field.
func (c *Controller) identify(now sim.Time, cmd *Command, cns uint8) Status {
	var id [IdentifySize]byte
	nsid, csi := cmd.SQE.NSID(), uint8(cmd.SQE.DW(11)>>24)
	ok := true
	switch {
	case cns == CNSController:
		id = c.IdentifyController()
	case cns == CNSNamespace:
		id, ok = c.IdentifyNamespace(nsid)
	case cns == CNSActiveNSList:
		id = c.activeNamespaces(nsid)
	case cns == CNSCSNamespace && csi == NSZoned.CSI():
		id, ok = c.IdentifyZonedNamespace(nsid)
	case cns == CNSCSController && csi == NSZoned.CSI():
		// ZASL 0: the Zone Append size limit is the MDTS.
	default:
		return StatusInvalidField
	}
	if !ok {
		return StatusInvalidNamespace
	}
	cmd.DataLen = IdentifySize
	if c.preparePRP(cmd) != nil {
		return StatusInvalidField.WithDNR()
	}
	c.CopyToHost(cmd, 0, id[:])
	c.WriteHostData(now, cmd, 0, IdentifySize)
	return StatusSuccess
}

// SetFeature applies Set Features for feature fid with CDW11 value cdw11 and returns the
// completion's DW0 and status, as the admin command would. Supported: Arbitration (01h:
// AB [2:0], LPW [15:8], MPW [23:16], HPW [31:24], weights 0's based), Number of Queues (07h:
// NSQR [15:0], NCQR [31:16], 0's based; DW0 returns what was granted), Interrupt Coalescing
// (08h: THR [7:0], TIME [15:8]) and Interrupt Vector Configuration (09h: IV [15:0], CD [16]).
// Others return Invalid Field.
func (c *Controller) SetFeature(fid uint8, cdw11 uint32) (uint32, Status) {
	switch fid {
	case FeatureArbitration:
		a := &c.arb
		a.setBurst(uint8(cdw11 & 7))
		a.weights = [3]int{int(cdw11>>24) + 1, int(cdw11>>16&0xFF) + 1, int(cdw11>>8&0xFF) + 1}
		a.credit, a.class = a.weights, 0
		return 0, StatusSuccess
	case FeatureNumberOfQueues:
		nsqr, ncqr := cdw11&0xFFFF, cdw11>>16
		if nsqr == 0xFFFF || ncqr == 0xFFFF {
			return 0, StatusInvalidField
		}
		c.nsqa = min(int(nsqr)+1, c.spec.MaxIOQueues)
		c.ncqa = min(int(ncqr)+1, c.spec.MaxIOQueues)
		return c.numberOfQueues(), StatusSuccess
	case FeatureInterruptCoalescing:
		c.coal = coalescing{thr: uint8(cdw11), time: uint8(cdw11 >> 8)}
		return 0, StatusSuccess
	case FeatureInterruptVectorConfig:
		iv := int(cdw11 & 0xFFFF)
		if iv >= len(c.vectors) {
			return 0, StatusInvalidField
		}
		c.vectors[iv].cd = cdw11&(1<<16) != 0
		return 0, StatusSuccess
	}
	return 0, StatusInvalidField
}

// GetFeature returns the current value of feature fid in Set Features' CDW11 layout (for
// Interrupt Vector Configuration, of vector 0), and the status.
func (c *Controller) GetFeature(fid uint8) (uint32, Status) {
	switch fid {
	case FeatureArbitration:
		a := &c.arb
		return uint32(a.weights[0]-1)<<24 | uint32(a.weights[1]-1)<<16 | uint32(a.weights[2]-1)<<8 | uint32(a.ab), StatusSuccess
	case FeatureNumberOfQueues:
		return c.numberOfQueues(), StatusSuccess
	case FeatureInterruptCoalescing:
		return uint32(c.coal.time)<<8 | uint32(c.coal.thr), StatusSuccess
	case FeatureInterruptVectorConfig:
		return b2u(c.vectors[0].cd) << 16, StatusSuccess
	}
	return 0, StatusInvalidField
}

func (c *Controller) numberOfQueues() uint32 {
	return uint32(c.ncqa-1)<<16 | uint32(c.nsqa-1)
}
