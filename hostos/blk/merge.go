package blk

// Merging (block/blk-merge.c, elevator.c): a bio part joins a queued request of the same
// operation that ends where it starts (back merge) or starts where it ends (front merge),
// if neither carries FUA (REQ_NOMERGE_FLAGS), both have the same write stream (Linux 6.16's
// blk_rq_merge_ok and attempt_merge) and the same write hint (Linux 6.9's, writehint.go)
// and the result stays within MaxRequestBytes.
// After a bio merge the grown request is merged with a queued neighbour it now touches
// (attempt_back_merge / attempt_front_merge). Only requests still in the scheduler are
// candidates: once dispatched a request is the driver's. Linux looks candidates up in the
// elevator's hash and rbtree; the model keeps two hash maps per operation. With the none
// scheduler Linux only scans the last few requests of the software queue, so the model
// merges somewhat more there.

// tryMerge merges n bytes of b at off into a queued request and reports whether it did.
func (q *Queue) tryMerge(b *Bio, off, n int64) bool {
	i := mergeIndex(b.Op)
	if i < 0 || b.FUA {
		return false
	}
	if rq := q.byEnd[i].get(off); rq != nil && rq.Size+n <= q.maxReq && rq.WriteStream == b.WriteStream && rq.WriteHint == b.WriteHint {
		q.unhash(rq)
		rq.Size += n
		addBio(rq, b)
		q.hash(rq)
		q.stats.BackMerges++
		if nx := q.byOff[i].get(rq.End()); nx != nil && nx != rq && rq.Size+nx.Size <= q.maxReq && nx.WriteStream == rq.WriteStream && nx.WriteHint == rq.WriteHint {
			q.mergeRequests(rq, nx)
		}
		return true
	}
	if !q.front {
		return false
	}
	if rq := q.byOff[i].get(off + n); rq != nil && rq.Size+n <= q.maxReq && rq.WriteStream == b.WriteStream && rq.WriteHint == b.WriteHint {
		q.unhash(rq)
		rq.Offset = off
		rq.Size += n
		addBio(rq, b)
		q.hash(rq)
		q.sched.frontMerged(rq)
		q.stats.FrontMerges++
		if pv := q.byEnd[i].get(rq.Offset); pv != nil && pv != rq && pv.Size+rq.Size <= q.maxReq && pv.WriteStream == rq.WriteStream && pv.WriteHint == rq.WriteHint {
			q.mergeRequests(pv, rq)
		}
		return true
	}
	return false
}

// addBio records b's part in rq and merges its flags.
func addBio(rq *Request, b *Bio) {
	rq.Bios = append(rq.Bios, b)
	rq.Sync = rq.Sync || isSync(b)
	rq.Hint.Victim = rq.Hint.Victim || b.Hint.Victim
	rq.Hint.Pages = max(rq.Hint.Pages, b.Hint.Pages)
}

// mergeRequests merges gone, which starts where into ends, into into and frees gone.
func (q *Queue) mergeRequests(into, gone *Request) {
	q.unhash(into)
	q.unhash(gone)
	into.Size += gone.Size
	for _, b := range gone.Bios {
		addBio(into, b)
	}
	q.sched.requestsMerged(into, gone)
	q.hash(into)
	q.stats.RequestMerges++
	class := int(gone.wbt) - 1
	q.free(gone)
	if class >= 0 {
		// A request freed by a merge gives its wbt slot back (rq_qos_done on free).
		q.wbt.done(q.eng.Now(), class)
	}
}

// hash indexes a queued request for merging. A second request with the same key is left
// out of the index (it can still be dispatched; it just cannot be found for merging).
func (q *Queue) hash(rq *Request) {
	i := mergeIndex(rq.Op)
	if i < 0 || rq.FUA || !q.spec.Merges {
		return
	}
	// A zoned queue's request is not merged across a zone boundary (zoned.go).
	if !q.zoneBoundary(rq.End()) && q.byEnd[i].add(rq.End(), rq) {
		rq.hashEnd = true
	}
	if !q.zoneBoundary(rq.Offset) && q.byOff[i].add(rq.Offset, rq) {
		rq.hashOff = true
	}
}

// unhash removes rq from the merge index.
func (q *Queue) unhash(rq *Request) {
	i := mergeIndex(rq.Op)
	if rq.hashEnd {
		q.byEnd[i].del(rq.End())
		rq.hashEnd = false
	}
	if rq.hashOff {
		q.byOff[i].del(rq.Offset)
		rq.hashOff = false
	}
}
