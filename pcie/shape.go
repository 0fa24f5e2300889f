package pcie

// burst is a booking's shape, precomputed from the spec and the transfer size: the TLP
// count, the TLP bytes, and exact durations at the link's rates (the TLPs with their DLLP
// share, the TLPs alone at the line rate, and the first lead bytes at the line rate).
type burst struct {
	tlps, tlpBytes int
	dur, raw, lead exact
}

// shape holds the bursts of one transfer size: a posted write, and a read's requests and
// completions.
type shape struct {
	bytes          int // 0: empty cache entry
	write, rq, cpl burst
}

// shapeSlots is the size of a link's shape cache. Commands use few transfer sizes (4 B
// doorbells and MSI-X, 16 B CQEs, 64 B SQEs, PRP lists, data sizes); 13 is prime, so they
// spread over the entries.
const shapeSlots = 13

// newBurst returns the burst of tlps TLPs of tlpBytes in all whose first lead bytes are
// reported separately. The durations are those exact.add would add to a time with a zero
// fraction; exact.plus adds them to any time with the same result.
func newBurst(r rates, tlps, tlpBytes, lead int) burst {
	return burst{
		tlps: tlps, tlpBytes: tlpBytes,
		dur:  exact{}.add(r.tlp, tlpBytes),
		raw:  exact{}.add(r.raw, tlpBytes),
		lead: exact{}.add(r.raw, lead),
	}
}

// shapeOf returns the shape of a transfer of bytes, from the cache or computed into it. The
// computation is out of line (fillShape), so that the cache look is inlined.
func (l *Link) shapeOf(bytes int) *shape {
	sh := &l.shapes[uint(bytes)%shapeSlots]
	if sh.bytes != bytes {
		l.fillShape(sh, bytes)
	}
	return sh
}

// fillShape computes the shape of a transfer of bytes into cache entry sh.
//
//go:noinline
func (l *Link) fillShape(sh *shape, bytes int) {
	s, r := &l.spec, l.rates
	*sh = shape{
		bytes: bytes,
		write: newBurst(r, s.WriteTLPs(bytes), s.WriteTLPBytes(bytes), 0),
		rq:    newBurst(r, s.ReadRequests(bytes), s.ReadRequestBytes(bytes), s.RequestOverhead()),
		cpl:   newBurst(r, s.Completions(bytes), s.CompletionBytes(bytes), 0),
	}
}
