package sim

// Core is a clocked processing element (a controller CPU core, a host CPU) that processes
// charge work to in cycles with Proc.Compute. Work is served in arrival order; it starts on
// the core's next clock edge and ends on an edge, and the core's Resource records it.
type Core struct {
	Clock    Clock
	Res      *Resource
	holder   *Proc
	waiters  []*Proc // FIFO of processes waiting for the core; ownership is handed over
	cycles   int64
	services int64
}

// NewCore returns an idle core with the given clock.
func NewCore(name string, clk Clock) *Core {
	return &Core{Clock: clk, Res: NewResource(name)}
}

// Name returns the core's name.
func (c *Core) Name() string { return c.Res.Name() }

// Cycles returns the total cycles charged to the core so far.
func (c *Core) Cycles() int64 { return c.cycles }

// Services returns how many Compute calls the core has served.
func (c *Core) Services() int64 { return c.services }

func (c *Core) run(p *Proc, act Activity, n int64) {
	if n <= 0 {
		return
	}
	if c.holder != nil {
		// Wait in line; the holder hands the core over directly, so a process that
		// releases the core and computes again cannot jump the queue.
		c.waiters = append(c.waiters, p)
		p.park()
	} else {
		c.holder = p
	}
	now := p.eng.now
	start := c.Clock.NextEdge(now)
	start = max(start, c.Res.FreeAt(start))
	end := c.Clock.After(start, n)
	c.Res.Occupy(start, end, act)
	c.cycles += n
	c.services++
	p.SleepUntil(end)
	if len(c.waiters) > 0 {
		next := c.waiters[0]
		copy(c.waiters, c.waiters[1:])
		c.waiters[len(c.waiters)-1] = nil
		c.waiters = c.waiters[:len(c.waiters)-1]
		c.holder = next
		next.wake()
	} else {
		c.holder = nil
	}
}
