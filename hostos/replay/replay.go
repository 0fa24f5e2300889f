package replay

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Replay is one trace replay in progress on a host's raw block device. It runs on engine
// events alone; a process can wait for it with Wait.
type Replay struct {
	eng      *sim.Engine
	q        *blk.Queue
	capacity int64
	block    int64
	opt      Options
	limit    int
	src      Source

	next    trace.Request // the request to issue next, if have
	have    bool
	fetched int64
	ended   bool // no request will be fetched any more
	err     error
	armed   bool // the timer for next is pending

	inflight int
	free     []*slot
	res      Result
	rec      *recorder
	finished bool
	done     sim.Signal
}

// slot is one request in flight: its bio and what the result needs at completion.
type slot struct {
	bio  blk.Bio
	r    *Replay
	req  trace.Request
	late bool
}

// HandleEvent completes the slot's request; it implements sim.Handler.
func (s *slot) HandleEvent(*sim.Event) { s.r.complete(s) }

// Start begins replaying src on dev's host at the current time of eng and returns at once;
// the requests are issued by engine events (the first at the current time, after the
// caller's step). The options are validated first.
func Start(eng *sim.Engine, dev *hostos.RawDevice, src Source, opt Options) (*Replay, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if eng == nil || dev == nil || src == nil {
		return nil, errors.New("replay: Start needs an engine, a device and a source")
	}
	opt = opt.withDefaults()
	r := &Replay{eng: eng, q: dev.Host().Queue, capacity: dev.Capacity(), block: dev.BlockSize(),
		opt: opt, limit: opt.limit(), src: src}
	r.free = make([]*slot, 0, min(r.limit, 1024))
	r.res.init(eng.Now())
	if opt.Records != nil {
		r.rec = newRecorder(opt.Records)
	}
	r.armed = true
	eng.Schedule(eng.Now(), r, nil, 0)
	return r, nil
}

// Run replays src on dev from process p and returns when every request has completed. The
// error is the first that stopped the replay (a malformed or unfit request, or a write error
// of the records); requests the device failed are counted in Result.Errors instead.
func Run(p *sim.Proc, dev *hostos.RawDevice, src Source, opt Options) (*Result, error) {
	r, err := Start(p.Engine(), dev, src, opt)
	if err != nil {
		return nil, err
	}
	r.Wait(p)
	return r.Result(), r.Err()
}

// RunFile opens the trace file at path with the reader options topt fitted to dev
// (FitOptions), replays it with Run and returns the result with the reader's statistics.
func RunFile(p *sim.Proc, dev *hostos.RawDevice, path string, topt trace.Options, opt Options) (*Result, trace.Stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, trace.Stats{}, err
	}
	defer f.Close()
	rd, err := trace.NewReader(f, path, FitOptions(topt, dev))
	if err != nil {
		return nil, trace.Stats{}, err
	}
	res, err := Run(p, dev, rd, opt)
	return res, rd.Stats(), err
}

// Wait blocks p until the replay has finished.
func (r *Replay) Wait(p *sim.Proc) {
	for !r.finished {
		p.Wait(&r.done)
	}
}

// Finished reports whether every request has been issued and completed.
func (r *Replay) Finished() bool { return r.finished }

// Result returns the results so far; they are final once Finished.
func (r *Replay) Result() *Result { return &r.res }

// Err returns the error that stopped the replay, if any.
func (r *Replay) Err() error { return r.err }

// Inflight returns the number of requests in flight.
func (r *Replay) Inflight() int { return r.inflight }

// Stop ends an unfinished replay where it stands, for a device that lost power (a
// scripted cut, firmware.power_loss.cut_at): the requests in flight will never complete
// and are counted in Result.Unfinished, nothing more is issued, the records written so far
// are flushed and Finished becomes true. The Result is then that of the requests completed
// before the stop. Call it once the engine has stopped; a finished replay is left as it is.
func (r *Replay) Stop() {
	if r.finished {
		return
	}
	r.ended = true
	r.have = false
	r.res.Unfinished = int64(r.inflight)
	r.finish()
}

// HandleEvent is the timer: the next request is due. It implements sim.Handler.
func (r *Replay) HandleEvent(*sim.Event) {
	r.armed = false
	r.pump()
}

// pump issues every request that is due while the in-flight bound allows, arms the timer
// for the next one, and finishes the replay when nothing is left.
func (r *Replay) pump() {
	now := r.eng.Now()
	for r.fetch() {
		due := now
		if r.opt.Mode == Timed {
			due = r.res.Start + r.next.Time
			if due > now {
				if !r.armed {
					r.armed = true
					r.eng.Schedule(due, r, nil, 0)
				}
				return
			}
		}
		if r.inflight >= r.limit {
			return // a completion calls pump again
		}
		r.issue(now, due)
	}
	if r.inflight == 0 && !r.finished && !r.armed {
		r.finish()
	}
}

// fetch makes the next request available, reporting false when there is none.
func (r *Replay) fetch() bool {
	if r.have {
		return true
	}
	if r.ended {
		return false
	}
	if r.opt.MaxRequests > 0 && r.fetched >= r.opt.MaxRequests {
		r.ended = true
		return false
	}
	req, err := r.src.Next()
	if err == nil {
		err = r.check(&req)
	}
	if err != nil {
		r.ended = true
		if err != io.EOF {
			r.err = err
		}
		return false
	}
	r.fetched++
	r.next, r.have = req, true
	return true
}

// check reports why the device cannot take req, or nil.
func (r *Replay) check(req *trace.Request) error {
	bad := func(why string, args ...any) error {
		return fmt.Errorf("replay: request %d (trace line %d, %v of %d B at %d): %s",
			r.fetched+1, req.Line, req.Op, req.Size, req.Offset, fmt.Sprintf(why, args...))
	}
	switch {
	case req.Op > trace.Flush:
		return bad("unknown operation")
	case req.Time < 0:
		return bad("negative time %v", req.Time)
	case req.Op == trace.Flush:
		req.Offset, req.Size = 0, 0
		return nil
	case req.Size <= 0:
		return bad("size is not positive")
	case req.Offset < 0 || req.Offset%r.block != 0 || req.Size%r.block != 0:
		return bad("not aligned to the device's %d-byte blocks (round out with trace.Options.SectorSize, see FitOptions)", r.block)
	case req.Size > r.capacity || req.Offset > r.capacity-req.Size:
		return bad("past the device's %d B (wrap or reject with trace.Options.Capacity, see FitOptions)", r.capacity)
	}
	return nil
}

// blkOps maps trace operations to block operations.
var blkOps = [NumOps]blk.Op{trace.Read: blk.OpRead, trace.Write: blk.OpWrite,
	trace.Trim: blk.OpDiscard, trace.Flush: blk.OpFlush}

// issue submits the next request now; it was due at due.
func (r *Replay) issue(now, due sim.Time) {
	req := r.next
	r.have = false
	s := r.slot()
	s.req = req
	s.late = now > due
	op := blkOps[req.Op]
	s.bio = blk.Bio{Op: op, Offset: req.Offset, Size: req.Size,
		// O_DIRECT reads and writes are REQ_SYNC (block/fops.c, dio_bio_write_op), writes
		// also REQ_IDLE, so writeback throttling leaves them alone; a discard is neither.
		Sync: op == blk.OpRead || op == blk.OpWrite,
		Idle: op == blk.OpWrite,
		FUA:  op == blk.OpWrite && req.Flags&trace.FlagFUA != 0,
		Done: s}
	if s.late {
		r.res.Late++
		r.res.Lateness.Record(int64(now - due))
	}
	if r.fetched == 1 {
		r.res.FirstIssue = now
	}
	r.res.LastIssue = now
	r.inflight++
	r.res.Peak = max(r.res.Peak, r.inflight)
	r.q.Submit(&s.bio)
}

// complete records a finished request, frees its slot and issues what is due.
func (r *Replay) complete(s *slot) {
	now := r.eng.Now()
	lat := now - s.bio.Issued
	op := s.req.Op
	res := &r.res
	res.Requests++
	res.Count[op]++
	res.Bytes[op] += s.req.Size
	res.Latency[op].Record(int64(lat))
	d := res.device(s.req.Device)
	d.Count[op]++
	d.Bytes[op] += s.req.Size
	d.Latency.Record(int64(lat))
	res.LastCompletion = now
	failed := s.bio.Err != nil
	if failed {
		res.Errors++
		if res.DeviceErr == nil {
			res.DeviceErr = fmt.Errorf("trace line %d, %v of %d B at byte %d: %w",
				s.req.Line, op, s.req.Size, s.req.Offset, s.bio.Err)
		}
	}
	if r.rec != nil {
		r.rec.record(&s.req, s.bio.Issued-res.Start, lat, s.late, failed)
	}
	r.inflight--
	s.bio = blk.Bio{}
	r.free = append(r.free, s)
	r.pump()
}

// slot takes a free slot, or makes one (at most limit exist).
func (r *Replay) slot() *slot {
	if n := len(r.free); n > 0 {
		s := r.free[n-1]
		r.free = r.free[:n-1]
		return s
	}
	return &slot{r: r}
}

// finish flushes the records and wakes the waiters.
func (r *Replay) finish() {
	r.finished = true
	r.res.sortDevices()
	if r.rec != nil {
		if err := r.rec.flush(); err != nil && r.err == nil {
			r.err = fmt.Errorf("replay: records: %w", err)
		}
	}
	r.done.Broadcast()
}
