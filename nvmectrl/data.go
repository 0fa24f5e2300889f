package nvmectrl

import (
	"encoding/binary"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// ReadHostData moves bytes [off, off+n) of cmd's data from host memory into the controller
// (a Write's payload) by DMA read, starting at now, and returns when the last byte has
// arrived. The PRP list pieces that locate those bytes and were not read before are fetched
// first, one DMA read per piece (each piece's chain pointer leads to the next). Contents are
// not copied: see CopyFromHost.
func (c *Controller) ReadHostData(now sim.Time, cmd *Command, off, n int) sim.Time {
	t := c.dataMove(now, cmd, off, n, false)
	c.Stats.DataRead += int64(n)
	return t
}

// WriteHostData moves bytes [off, off+n) of cmd's data from the controller into host memory
// (a Read's payload) by posted DMA writes, starting at now, and returns when the last byte
// has arrived in host memory. The command's CQE will not arrive before it (PCIe posted
// writes stay in order).
func (c *Controller) WriteHostData(now sim.Time, cmd *Command, off, n int) sim.Time {
	t := c.dataMove(now, cmd, off, n, true)
	cmd.dataDone = max(cmd.dataDone, t)
	c.Stats.DataWritten += int64(n)
	return t
}

func (c *Controller) dataMove(now sim.Time, cmd *Command, off, n int, toHost bool) sim.Time {
	c.checkRange(cmd, off, n)
	t := c.readLists(now, cmd, off, n)
	if !toHost {
		return c.bookRead(t, cmd, off, n)
	}
	// One DMA per physically contiguous piece; pieces are booked back to back.
	p := &cmd.prp
	done := t
	for n > 0 {
		l := contiguous(p, off, n)
		cmd.dataIssued = max(cmd.dataIssued, t)
		done = max(done, c.link.DMAWrite(t, l))
		off, n = off+l, n-l
	}
	return done
}

// readLists fetches, from now on, the PRP list pieces not read before until the entry of
// byte off+n-1 is known, one DMA read per piece (each piece's chain pointer leads to the
// next), and returns when the last one arrives (now if none was needed).
func (c *Controller) readLists(now sim.Time, cmd *Command, off, n int) sim.Time {
	p := &cmd.prp
	t := now
	for need := p.EntryOf(off + n - 1); cmd.listRead < len(p.Lists) && need >= cmd.knownEntries(); {
		l := p.Lists[cmd.listRead]
		t = c.link.DMARead(t, l.Len)
		c.Stats.ListBytes += int64(l.Len)
		cmd.listRead++
	}
	return t
}

// bookRead books DMA reads of bytes [off, off+n) of cmd's data from t on, one per
// physically contiguous piece, and returns when the last byte arrives.
func (c *Controller) bookRead(t sim.Time, cmd *Command, off, n int) sim.Time {
	done := t
	for n > 0 {
		l := contiguous(&cmd.prp, off, n)
		done = max(done, c.link.DMARead(t, l))
		off, n = off+l, n-l
	}
	return done
}

// contiguous returns how many of the n bytes from off are physically contiguous.
func contiguous(p *PRPs, off, n int) int {
	a := p.Addr(off)
	l := min(n, PageSize-int(a%PageSize))
	for l < n && p.Addr(off+l) == a+uint64(l) {
		l += min(n-l, PageSize)
	}
	return l
}

// knownEntries returns how many PRP entries the controller knows: PRP1 alone until the
// first list piece has been read.
func (cmd *Command) knownEntries() int {
	if cmd.listRead == 0 {
		if len(cmd.prp.Lists) == 0 {
			return len(cmd.prp.Entries)
		}
		return 1
	}
	return cmd.prp.ListEnd[cmd.listRead-1]
}

// checkRange validates a data range and makes sure the PRPs have been walked.
func (c *Controller) checkRange(cmd *Command, off, n int) {
	if !cmd.held || cmd.completed {
		c.panicf("data movement for slot %d: not held or already completed", cmd.Slot)
	}
	if off < 0 || n <= 0 || off+n > cmd.DataLen {
		c.panicf("data range [%d, %d) outside command data of %d bytes (SQ %d CID %d)",
			off, off+n, cmd.DataLen, cmd.SQID, cmd.SQE.CID())
	}
	if !cmd.prpReady || cmd.prp.Length != cmd.DataLen {
		cmd.listRead = 0
		if err := c.preparePRP(cmd); err != nil {
			c.panicf("SQ %d CID %d: %v", cmd.SQID, cmd.SQE.CID(), err)
		}
	}
}

// CopyFromHost copies bytes [off, off+len(dst)) of cmd's data out of host memory, with no
// timing: firmware that needs real contents (a Dataset Management range list, say) calls
// it beside ReadHostData.
func (c *Controller) CopyFromHost(cmd *Command, off int, dst []byte) {
	c.checkRange(cmd, off, len(dst))
	for len(dst) > 0 {
		a := cmd.prp.Addr(off)
		l := min(len(dst), PageSize-int(a%PageSize))
		c.mem.Read(a, dst[:l])
		dst, off = dst[l:], off+l
	}
}

// Uint64FromHost returns the little-endian 64-bit value at byte off of cmd's data in host
// memory, with no timing, as CopyFromHost of 8 bytes would (a page's version stamp, say).
func (c *Controller) Uint64FromHost(cmd *Command, off int) uint64 {
	c.checkRange(cmd, off, 8)
	if a := cmd.prp.Addr(off); a%PageSize <= PageSize-8 {
		return c.mem.Uint64(a)
	}
	var b [8]byte
	c.CopyFromHost(cmd, off, b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// CopyToHost copies src into bytes [off, off+len(src)) of cmd's data in host memory, with
// no timing (an Identify data structure, say), beside WriteHostData.
func (c *Controller) CopyToHost(cmd *Command, off int, src []byte) {
	c.checkRange(cmd, off, len(src))
	for len(src) > 0 {
		a := cmd.prp.Addr(off)
		l := min(len(src), PageSize-int(a%PageSize))
		c.mem.Write(a, src[:l])
		src, off = src[l:], off+l
	}
}
