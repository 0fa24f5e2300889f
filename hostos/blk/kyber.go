package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// Domain is a kyber scheduling domain (docs/sources.md §6.1).
type Domain int

// Kyber's scheduling domains, chosen by the request's operation.
const (
	DomainRead    Domain = iota // reads
	DomainWrite                 // writes
	DomainDiscard               // discards
	DomainOther                 // anything else (flushes bypass the scheduler, so unused)
	NumDomains
)

// String returns the domain's name as kyber's tracepoints print it.
func (d Domain) String() string {
	switch d {
	case DomainRead:
		return "READ"
	case DomainWrite:
		return "WRITE"
	case DomainDiscard:
		return "DISCARD"
	case DomainOther:
		return "OTHER"
	}
	return "DOMAIN?"
}

func domainOf(op Op) Domain {
	switch op {
	case OpRead:
		return DomainRead
	case OpWrite:
		return DomainWrite
	case OpDiscard:
		return DomainDiscard
	}
	return DomainOther
}

// Kyber constants from block/kyber-iosched.c (docs/sources.md §6.1).
const (
	kyberLatencyShift   = 2                      // KYBER_LATENCY_SHIFT
	kyberGoodBuckets    = 1 << kyberLatencyShift // 4 buckets of target/4 up to the target
	kyberLatencyBuckets = 2 << kyberLatencyShift // 8 buckets in all
	kyberMinSamples     = 500                    // a percentile needs 500 samples …
	kyberSampleWindow   = sim.Second             // … or 1 s since the window opened
	kyberTimerDelay     = 100 * sim.Millisecond  // timer_reduce(jiffies + HZ/10)
	latTotal, latIO     = 0, 1                   // KYBER_TOTAL_LATENCY, KYBER_IO_LATENCY
	numLatTypes         = 2                      //
	noP99               = -1                     // no percentile available
)

// kyberBatch is kyber_batch_size[]: requests one domain may dispatch in a row.
var kyberBatch = [NumDomains]int{16, 8, 1, 1}

// DepthChange records one resize of a kyber domain's token pool.
type DepthChange struct {
	At       sim.Time
	Domain   Domain
	From, To int
}

// kyber is the kyber scheduler. Each domain has a FIFO of queued requests and a token pool
// (an sbitmap in Linux, a count here) whose size the timer scales from latency percentiles.
type kyber struct {
	q        *Queue
	spec     KyberSpec
	lists    [NumDomains]rqList
	maxDepth [NumDomains]int
	depth    [NumDomains]int
	tokens   [NumDomains]int // tokens held by requests in the driver
	target   [NumDomains]sim.Time
	cur      Domain
	batching int
	buckets  [NumDomains][numLatTypes][kyberLatencyBuckets]uint32
	timeout  [NumDomains]sim.Time // end of the percentile window, 0 when none is open
	p99      [NumDomains]int      // remembered p99 bucket (domain_p99)
	armed    bool
}

func newKyber(q *Queue, spec KyberSpec) *kyber {
	k := &kyber{q: q, spec: spec,
		maxDepth: [NumDomains]int{spec.ReadDepth, spec.WriteDepth, spec.DiscardDepth, spec.OtherDepth},
		target:   [NumDomains]sim.Time{spec.ReadTarget, spec.WriteTarget, spec.DiscardTarget, 0},
		p99:      [NumDomains]int{noP99, noP99, noP99, noP99},
	}
	k.depth = k.maxDepth
	return k
}

// Name names the scheduler's timer for engine diagnostics.
func (k *kyber) Name() string { return k.q.name + ".kyber" }

func (k *kyber) insert(_ sim.Time, rq *Request) {
	rq.domain = int(domainOf(rq.Op))
	k.lists[rq.domain].pushBack(rq)
}

// empty reports whether no domain has a request queued.
func (k *kyber) empty() bool {
	for d := range k.lists {
		if k.lists[d].head != nil {
			return false
		}
	}
	return true
}

// dispatch continues the current domain's batch while it has requests and tokens, then
// moves round robin to the next domain that can dispatch (kyber_dispatch_request).
func (k *kyber) dispatch(sim.Time) *Request {
	if k.batching < kyberBatch[k.cur] {
		if rq := k.dispatchCur(); rq != nil {
			return rq
		}
	}
	k.batching = 0
	if k.empty() {
		// The round below would find no request and bring cur back where it is.
		return nil
	}
	for range NumDomains {
		k.cur = (k.cur + 1) % NumDomains
		if rq := k.dispatchCur(); rq != nil {
			return rq
		}
	}
	return nil
}

// dispatchCur takes a token and the head request of the current domain; with requests but
// no token the domain is throttled (trace kyber_throttled).
func (k *kyber) dispatchCur() *Request {
	d := k.cur
	rq := k.lists[d].head
	if rq == nil {
		return nil
	}
	if k.tokens[d] >= k.depth[d] {
		k.q.stats.Throttled[d]++
		return nil
	}
	k.tokens[d]++
	k.batching++
	k.lists[d].remove(rq)
	k.q.stats.DomainDispatches[d]++
	return rq
}

// completed frees rq's token and records its total latency (from allocation) and I/O
// latency (from dispatch) in the domain's histograms, then arms the timer to fire within
// 100 ms (kyber_completed_request).
func (k *kyber) completed(now sim.Time, rq *Request) {
	d := Domain(rq.domain)
	k.tokens[d]--
	if d == DomainOther {
		return
	}
	k.buckets[d][latTotal][k.bucket(d, now-rq.Alloc)]++
	k.buckets[d][latIO][k.bucket(d, now-rq.Dispatch)]++
	if !k.armed {
		k.armed = true
		// A daemon: the timer alone never keeps a run going.
		k.q.eng.ScheduleDaemon(now+kyberTimerDelay, sim.PhaseDefault, k, nil, 0)
	}
}

// bucket maps a latency to one of 8 buckets of target/4 (add_latency_sample).
func (k *kyber) bucket(d Domain, lat sim.Time) int {
	if lat <= 0 {
		return 0
	}
	div := max(k.target[d]>>kyberLatencyShift, 1)
	return int(min((lat-1)/div, kyberLatencyBuckets-1))
}

// HandleEvent is the timer (kyber_timer_fn): if any domain's I/O-latency p90 reaches its
// target the device is congested; then each domain with a p99 (total latency) that is
// congested or over its target gets depth·(p99+1)/4 tokens, clamped to [1, maximum].
func (k *kyber) HandleEvent(ev *sim.Event) {
	now := ev.Time
	k.armed = false
	k.q.stats.KyberTimerRuns++
	bad := false
	for d := DomainRead; d < DomainOther; d++ {
		if k.percentile(now, d, latIO, 90) >= kyberGoodBuckets {
			bad = true
		}
	}
	if bad {
		k.q.stats.KyberCongested++
	}
	for d := DomainRead; d < DomainOther; d++ {
		p99 := k.percentile(now, d, latTotal, 99)
		if bad {
			if p99 < 0 {
				p99 = k.p99[d]
			}
			k.p99[d] = noP99
		} else if p99 >= 0 {
			k.p99[d] = p99
		}
		if p99 < 0 {
			continue
		}
		if bad || p99 >= kyberGoodBuckets {
			k.resize(now, d, (k.depth[d]*(p99+1))>>kyberLatencyShift)
		}
	}
}

// percentile returns the bucket holding the pct-th percentile of a domain's histogram and
// clears it, or −1 until the window has 500 samples or is 1 s old (calculate_percentile).
func (k *kyber) percentile(now sim.Time, d Domain, typ, pct int) int {
	b := &k.buckets[d][typ]
	var samples uint32
	for _, c := range b {
		samples += c
	}
	if samples == 0 {
		return noP99
	}
	if k.timeout[d] == 0 {
		k.timeout[d] = now + kyberSampleWindow
	}
	if samples < kyberMinSamples && k.timeout[d] > now {
		return noP99
	}
	k.timeout[d] = 0
	want := (samples*uint32(pct) + 99) / 100
	bucket := 0
	for ; bucket < kyberLatencyBuckets-1; bucket++ {
		if b[bucket] >= want {
			break
		}
		want -= b[bucket]
	}
	*b = [kyberLatencyBuckets]uint32{}
	return bucket
}

// resize sets a domain's token depth (kyber_resize_domain) and runs the queue if it grew.
func (k *kyber) resize(now sim.Time, d Domain, depth int) {
	depth = min(max(depth, 1), k.maxDepth[d])
	if depth == k.depth[d] {
		return
	}
	k.q.stats.DepthChanges = append(k.q.stats.DepthChanges,
		DepthChange{At: now, Domain: d, From: k.depth[d], To: depth})
	grew := depth > k.depth[d]
	k.depth[d] = depth
	if grew {
		k.q.kick()
	}
}

func (k *kyber) frontMerged(*Request) {}

func (k *kyber) requestsMerged(_, gone *Request) { k.lists[gone.domain].remove(gone) }

// KyberDepth returns a kyber domain's current token depth, or 0 if the queue does not run
// kyber. Track it with a sim.Sampler for depth over time; Stats.DepthChanges lists every
// change.
func (q *Queue) KyberDepth(d Domain) int {
	if k, ok := q.sched.(*kyber); ok && d >= 0 && d < NumDomains {
		return k.depth[d]
	}
	return 0
}
