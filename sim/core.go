package sim

// Core is a clocked processing element (a controller CPU core, a host CPU) that processes
// and event handlers charge work to in cycles. Work is served in the order it is charged: it
// starts on the core's first clock edge at or after its arrival, once the work charged
// before it has finished, and ends on an edge; the core's Resource records it. Because the
// order is fixed when work is charged, the core is a booking calendar: a process that waits
// for a busy core sleeps once, until its own work ends, and event-driven models (interrupt
// handlers) can charge work without a process at all (Book).
type Core struct {
	Clock    Clock
	Res      *Resource
	cycles   int64
	services int64
	// end is the end of the latest Book, on edge endIdx, so work that queues behind it
	// needs no division to find its start edge.
	end    Time
	endIdx int64
}

// NewCore returns an idle core with the given clock.
func NewCore(name string, clk Clock) *Core {
	return &Core{Clock: clk, Res: NewResource(name)}
}

// Name returns the core's name.
func (c *Core) Name() string { return c.Res.Name() }

// Cycles returns the total cycles charged to the core so far.
func (c *Core) Cycles() int64 { return c.cycles }

// Services returns how many pieces of work (Compute or Book calls) the core has served.
func (c *Core) Services() int64 { return c.services }

// Book charges n cycles of work under activity act arriving at now and returns when the
// work ends: it starts on the first clock edge at or after now once all work booked before
// it has ended, and holds the core for n cycles. n ≤ 0 books nothing and returns now.
func (c *Core) Book(now Time, act Activity, n int64) Time {
	if n <= 0 {
		return now
	}
	var start, end Time
	if c.Clock.period != 0 {
		// Whole-picosecond period: Edge and EdgeIndex are exact inverses, so the start
		// edge's index is that of now's next edge or, behind booked work, that of its end,
		// remembered when it is this core's latest Book (recomputed otherwise).
		idx := c.Clock.EdgeIndex(now)
		start = c.Clock.Edge(idx)
		if f := c.Res.FreeAt(start); f != start {
			start = f
			if f == c.end {
				idx = c.endIdx
			} else {
				idx = c.Clock.EdgeIndex(f)
			}
		}
		end = c.Clock.Edge(idx + n)
		c.end, c.endIdx = end, idx+n
	} else {
		start = c.Res.FreeAt(c.Clock.NextEdge(now))
		end = c.Clock.After(start, n)
	}
	c.Res.Occupy(start, end, act)
	c.cycles += n
	c.services++
	return end
}

func (c *Core) run(p *Proc, act Activity, n int64) {
	if n <= 0 {
		return
	}
	p.SleepUntil(c.Book(p.eng.now, act, n))
}
