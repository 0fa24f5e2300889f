package nvmectrl

import "github.com/fastdrain-sim/fastdrain/sim"

// dmaEngine is the controller's data-read DMA engine: it fetches Write payloads from host
// memory with at most Spec.ReadTags non-posted read requests outstanding, each of at most
// the link's MRRS bytes, so at most ReadTags × MRRS bytes of data completions are ever
// requested and not yet received. Without the bound a controller asked for tens of MiB of
// write data booked the host→device direction milliseconds ahead, and the SQE fetch of the
// next read waited behind all of it.
//
// Modelling choices, stated:
//   - Round robin by command: each command waiting for data gets one quantum per turn, at
//     most one host page (PageSize, so PageSize/MRRS requests) and never more than the
//     free tags cover.
//   - A quantum's tags are held until its last byte has landed in device memory
//     (DataSink.Land): the engine streams completions into DRAM and issues no more reads
//     than it can put away, so DRAM never falls behind the link by more than the window.
//     A real engine frees each request's tag when that request's completions are in and
//     buffered, a little earlier.
//   - SQE fetches (bounded by Spec.MaxFetches) and PRP list reads are not data: they use
//     tags of their own, outside ReadTags, and are booked on the link at once, so data
//     never starves them.
//
// The engine costs no event while the tags cover a transfer at once (the common case); a
// transfer that must wait for tags is served by one event per tag release (evDMA), that is
// per quantum, never per TLP.
type dmaEngine struct {
	tags int // Spec.ReadTags
	mrrs int // the link's Max Read Request Size
	free int // tags not held
	// held lists the quanta in flight, each holding its tags until it arrives, in no
	// particular order; first is the earliest arrival among them (sim.MaxTime if none).
	held  []dmaHold
	first sim.Time
	// head and tail are the commands waiting for tags, in round-robin order.
	head, tail *Command
	queued     bool // an evDMA event is scheduled
}

// DataSink takes a Write's data into device memory as the DMA engine fetches it (the
// firmware, which owns the DRAM buffer, implements it).
type DataSink interface {
	// Land is called when bytes [off, off+n) of cmd's data have arrived in the controller
	// at t; it books their move into device memory and returns when they are there.
	Land(t sim.Time, cmd *Command, off, n int) sim.Time
}

// dmaHold is one booked quantum: tags held until arrive.
type dmaHold struct {
	arrive sim.Time
	tags   int
}

// dmaWait is a command's state in the DMA engine while its data waits for tags.
type dmaWait struct {
	off, end int         // bytes [off, end) are still to be requested
	ready    sim.Time    // earliest time a request may leave (after its PRP list arrived)
	done     sim.Time    // latest landing of what was requested so far
	sink     DataSink    // lands each quantum in device memory
	h        sim.Handler // told at done once the last quantum is booked
	code     int64
	next     *Command // next in the engine's round robin
}

func (e *dmaEngine) init(tags, mrrs int) {
	*e = dmaEngine{tags: tags, mrrs: mrrs, free: tags, held: make([]dmaHold, 0, tags), first: sim.MaxTime}
}

// tagsFor returns the read requests n bytes need: one per MRRS bytes (an aligned start).
func (e *dmaEngine) tagsFor(n int) int { return (n + e.mrrs - 1) / e.mrrs }

// release frees the tags of every quantum that has arrived by now. Before the first
// arrival it has nothing to do; otherwise each arrived quantum's place is taken by the
// last one (the order of held does not matter), and first is found again.
func (e *dmaEngine) release(now sim.Time) {
	if now < e.first {
		return
	}
	first := sim.MaxTime
	for i := 0; i < len(e.held); {
		h := e.held[i]
		if h.arrive <= now {
			e.free += h.tags
			last := len(e.held) - 1
			e.held[i] = e.held[last]
			e.held = e.held[:last]
			continue
		}
		first = min(first, h.arrive)
		i++
	}
	e.first = first
}

// hold records a quantum of tags tags in flight until arrive.
func (e *dmaEngine) hold(arrive sim.Time, tags int) {
	e.free -= tags
	e.held = append(e.held, dmaHold{arrive, tags})
	e.first = min(e.first, arrive)
}

// firstArrival returns the earliest arrival of a quantum in flight (sim.MaxTime if none).
func (e *dmaEngine) firstArrival() sim.Time { return e.first }

// FetchHostData moves bytes [off, off+n) of cmd's data from host memory into device memory
// (a Write's payload) through the DMA engine, starting at now: each piece is fetched by DMA
// read and handed to sink as it arrives. PRP list pieces are read first, as ReadHostData
// does. If the engine's free read tags cover the whole range and no other command waits
// for tags, it is booked at once and FetchHostData returns when its last byte has landed,
// and true. Otherwise the range joins the engine's round robin and FetchHostData returns
// false: h.HandleEvent is then called, with cmd as the event's Data and code as its Code,
// at the time the last byte has landed. A command may have one such range outstanding at a
// time.
func (c *Controller) FetchHostData(now sim.Time, cmd *Command, off, n int, sink DataSink, h sim.Handler, code int64) (sim.Time, bool) {
	c.checkRange(cmd, off, n)
	if cmd.dma.end > cmd.dma.off {
		c.panicf("FetchHostData for slot %d while its previous range is still fetched", cmd.Slot)
	}
	c.Stats.DataRead += int64(n)
	t := c.readLists(now, cmd, off, n)
	e := &c.dma
	e.release(now)
	if e.head == nil && e.free >= e.tagsFor(n) {
		done := sink.Land(c.bookRead(t, cmd, off, n), cmd, off, n)
		e.hold(done, e.tagsFor(n))
		return done, true
	}
	// Field by field (push sets next): a composite literal would be built on the stack
	// and copied over.
	w := &cmd.dma
	w.off, w.end, w.ready, w.done, w.sink, w.h, w.code = off, off+n, t, now, sink, h, code
	e.push(cmd)
	c.Stats.DataWaits++
	c.dmaFill(now, cmd)
	if cmd.dma.off == cmd.dma.end {
		return cmd.dma.done, true // served in full by this fill (it left the round robin)
	}
	return 0, false
}

func (e *dmaEngine) push(cmd *Command) {
	cmd.dma.next = nil
	if e.tail == nil {
		e.head = cmd
	} else {
		e.tail.dma.next = cmd
	}
	e.tail = cmd
}

func (e *dmaEngine) pop() *Command {
	cmd := e.head
	e.head = cmd.dma.next
	if e.head == nil {
		e.tail = nil
	}
	cmd.dma.next = nil
	return cmd
}

// dmaFill hands the free tags to the waiting commands, one quantum per command per turn.
// A command whose last quantum is booked is told when it arrives, except caller, which
// FetchHostData answers itself. While commands still wait, an evDMA event is scheduled for
// the first tag release.
func (c *Controller) dmaFill(now sim.Time, caller *Command) {
	e := &c.dma
	for e.head != nil && e.free > 0 {
		cmd := e.pop()
		w := &cmd.dma
		a := cmd.prp.Addr(w.off)
		l := min(w.end-w.off, PageSize-int(a%PageSize), e.free*e.mrrs)
		end := w.sink.Land(c.link.DMARead(max(now, w.ready), l), cmd, w.off, l)
		e.hold(end, e.tagsFor(l))
		w.off += l
		w.done = max(w.done, end)
		if w.off < w.end {
			e.push(cmd)
			continue
		}
		if cmd != caller {
			c.eng.Schedule(w.done, w.h, cmd, w.code)
		}
	}
	if e.head != nil && !e.queued {
		e.queued = true
		c.schedule(e.firstArrival(), evDMA, 0, nil)
	}
}

// dmaRelease is the evDMA event: tags have come back.
func (c *Controller) dmaRelease(now sim.Time) {
	c.dma.queued = false
	c.dma.release(now)
	c.dmaFill(now, nil)
}
