package sim

import "fmt"

// Activity identifies what a resource is busy with. Activity 0 of every resource is "idle";
// the others are registered by name with Resource.Activity.
type Activity uint8

// Idle is the activity of a resource that is doing nothing.
const Idle Activity = 0

// ResourceHook observes every busy interval a resource records: [start, end) spent on act.
// It is called when the interval is recorded, which for Occupy may be before it starts.
// Timeline exporters attach one; with none attached a resource pays one nil check.
type ResourceHook func(r *Resource, act Activity, start, end Time)

// interval is one recorded busy interval.
type interval struct {
	start, end Time
	act        Activity
}

// keptIntervals is the room a resource's log of recorded intervals gets on its first
// booking (a Followed resource drops its ended intervals far sooner, at firstFold; see
// Follow), and how many recent intervals a resource without an engine keeps at least, to
// answer queries about times before the end of intervals booked ahead. Models book at most
// a queue's worth of work ahead of the current time, far fewer than this.
const keptIntervals = 256

// firstFold is the length at which a Followed resource's log first drops the intervals
// that ended by now: short, so the log of a resource booked little ahead stays within a
// few cache lines.
const firstFold = 16

// Resource is anything that can be busy: a PCIe direction, a controller core, a DRAM bus, a
// channel bus, a die, a plane. It holds one activity at a time and integrates the time spent
// in each, in integer picoseconds, so utilization over any window is exact:
//
//	u = (BusyAt(t2, a) − BusyAt(t1, a)) / (t2 − t1).
//
// An interval is recorded either open-ended (Begin … End) or with its end known up front
// (Occupy), which lets a model charge a whole transfer or array operation — even one that
// starts later, behind work already booked — with no extra event. Intervals may not
// overlap: the resource has capacity one. Components that can do several things at once own
// several resources.
//
// Recording adds an interval to its activity's sum, future part included, and appends it
// to a log, whose oldest intervals are dropped only when it reaches a length (those that
// ended by now, on a Followed resource; the oldest keptIntervals without an engine).
// Queries take the logged intervals' parts after the queried time off the sums. Queries
// (BusyAt, Snapshot, Busy) may ask about any time from the end of the latest dropped
// interval on: on a Followed resource, any time from now on; without an engine, any time
// from the start of the oldest of the last 256 recorded intervals on.
type Resource struct {
	name  string
	names []string
	busy  []Time // total recorded busy time per activity, future parts included
	// The open interval (Begin without End), if openAct is not Idle.
	openAct   Activity
	openStart Time
	lastEnd   Time       // end of the latest recorded interval
	log       []interval // log[:n]: the latest recorded intervals, in order of time
	n         int
	foldAt    int  // n at which the log's ended intervals are dropped (at most len(log))
	dropped   Time // end of the latest dropped interval: queries before it are refused
	hook      ResourceHook
	eng       *Engine // when set, intervals that ended by now are dropped and the log grows
}

// NewResource returns an idle resource. Activity names beyond "idle" can be given here or
// registered later with Activity.
func NewResource(name string, activities ...string) *Resource {
	r := &Resource{name: name, names: []string{"idle"}, busy: []Time{0}}
	for _, a := range activities {
		r.Activity(a)
	}
	return r
}

// Name returns the resource's name.
func (r *Resource) Name() string { return r.name }

// Activity returns the id of the named activity, registering it on first use.
func (r *Resource) Activity(name string) Activity {
	for i, n := range r.names {
		if n == name {
			return Activity(i)
		}
	}
	if len(r.names) == 256 {
		panic(fmt.Sprintf("sim: resource %s has too many activities", r.name))
	}
	r.names = append(r.names, name)
	r.busy = append(r.busy, 0)
	return Activity(len(r.names) - 1)
}

// Activities returns the registered activity names; index i is Activity(i).
func (r *Resource) Activities() []string { return r.names }

// Follow ties the resource to eng's clock. Queries are then only made at or after the
// current time, so intervals that ended by now can be dropped from the log, and the log
// grows instead of dropping one that may still be needed: a resource may book any number
// of intervals ahead (a DRAM bus with a deep backlog). Without it, the resource keeps at
// least the last 256 intervals. Call it before the first booking.
func (r *Resource) Follow(eng *Engine) { r.eng = eng }

// SetHook attaches a hook that sees every busy interval (nil detaches).
func (r *Resource) SetHook(h ResourceHook) { r.hook = h }

// FreeAt returns the earliest time at or after t when no recorded interval is running or
// booked: t itself if the resource is free from t on, the end of the last booked interval
// otherwise, or MaxTime while an open interval runs.
func (r *Resource) FreeAt(t Time) Time {
	if r.openAct != Idle {
		return MaxTime
	}
	return max(t, r.lastEnd)
}

// Current returns the activity at time t.
func (r *Resource) Current(t Time) Activity {
	if r.openAct != Idle && t >= r.openStart {
		return r.openAct
	}
	for k := r.n - 1; k >= 0; k-- {
		iv := &r.log[k]
		if iv.end <= t {
			break
		}
		if iv.start <= t {
			return iv.act
		}
	}
	return Idle
}

// Busy reports whether the resource is busy at time t.
func (r *Resource) Busy(t Time) bool { return r.Current(t) != Idle }

// Begin starts an open-ended interval of act at time t. The resource must be free at t.
func (r *Resource) Begin(t Time, act Activity) {
	r.mustBeFree(t, act)
	r.openAct, r.openStart = act, t
}

// End closes the open interval at time t.
func (r *Resource) End(t Time) {
	if r.openAct == Idle {
		panic(fmt.Sprintf("sim: resource %s ended at %v with no open interval", r.name, t))
	}
	if t < r.openStart {
		panic(fmt.Sprintf("sim: resource %s ended at %v before it began (%v)", r.name, t, r.openStart))
	}
	act, start := r.openAct, r.openStart
	r.openAct = Idle
	r.record(start, t, act)
}

// Occupy records that the resource is busy with act over [start, end). start must not be
// before the end of the previous interval; it may be in the future. A zero-length interval
// records nothing.
func (r *Resource) Occupy(start, end Time, act Activity) {
	if end < start {
		panic(r.backwards(false, start, end, end))
	}
	r.mustBeFree(start, act)
	if end > start {
		r.record(start, end, act)
	}
}

// OccupyPeriodic records the k intervals [first + i·period, first + i·period + length) of
// act, i = 0 … k−1, leaving the resource as k calls of Occupy would (the same answers to
// every query from now on), in a number of steps that does not grow with k when the
// intervals ended by now (a DRAM's refreshes over an idle stretch). It needs the engine
// (Follow), no hook (a hook sees every interval), k ≥ 1 and 0 < length ≤ period, and
// reports false, recording nothing, without them.
func (r *Resource) OccupyPeriodic(first, period, length Time, k int64, act Activity) bool {
	if r.hook != nil || r.eng == nil || k < 1 || length <= 0 || length > period {
		return false
	}
	r.mustBeFree(first, act)
	r.record(first, first+length, act)
	// Intervals 0 … m−1 end by now and each has a successor: after interval 0 every logged
	// interval has ended by now and is dropped; intervals 1 … m−1 are added to the sum in
	// closed form, and interval m is recorded.
	var m int64
	if now := r.eng.now; now >= first+length {
		m = min(k-1, int64((now-first-length)/period)+1)
	}
	if m > 0 {
		r.drop(r.n)
		r.busy[act] += Time(m-1) * length
		r.dropped = max(r.dropped, first+Time(m-1)*period+length)
	}
	for i := max(m, 1); i < k; i++ {
		start := first + Time(i)*period
		r.record(start, start+length, act)
	}
	return true
}

// OccupyPair records two back-to-back intervals, [start, mid) of a then [mid, end) of b,
// exactly as Occupy(start, mid, a) followed by Occupy(mid, end, b) would (a PCIe burst: its
// TLPs, then their share of link-layer packets), in one call.
func (r *Resource) OccupyPair(start, mid, end Time, a, b Activity) {
	if mid < start || end < mid {
		panic(r.backwards(true, start, mid, end))
	}
	r.mustBeFree(start, a)
	n := r.n
	if mid == start || end == mid || r.hook != nil || n+2 > r.foldAt {
		if mid > start {
			r.record(start, mid, a)
		}
		if end > mid {
			r.record(mid, end, b)
		}
		return
	}
	// The common case (two non-empty intervals, no hook, room in the log for both).
	r.busy[a] += mid - start
	r.busy[b] += end - mid
	r.log[n] = interval{start, mid, a}
	r.log[n+1] = interval{mid, end, b}
	r.n = n + 2
	r.lastEnd = end
}

// record adds the interval [start, end) of act to its sum and to the log. The common case
// — no hook, room in the log — calls nothing; the rest goes through recordSlow.
func (r *Resource) record(start, end Time, act Activity) {
	n := r.n
	if r.hook != nil || n == r.foldAt {
		r.recordSlow(start, end, act)
		return
	}
	r.busy[act] += end - start
	r.log[n] = interval{start, end, act}
	r.n = n + 1
	r.lastEnd = end
}

// recordSlow is record with a hook to call, or a log to allocate or make room in.
//
//go:noinline
func (r *Resource) recordSlow(start, end Time, act Activity) {
	if r.hook != nil {
		r.hook(r, act, start, end)
	}
	if r.n == r.foldAt {
		r.makeRoom()
	}
	r.busy[act] += end - start
	r.log[r.n] = interval{start, end, act}
	r.n++
	r.lastEnd = end
}

// makeRoom makes room in a log of foldAt intervals. The first time it allocates the log.
// With an engine it drops the intervals that ended by now, and lets the log grow to twice
// the length before the next drop when that left more than half of it (a backlog booked
// ahead); once the log is empty the next drop comes at firstFold again. Without one it
// drops the oldest keptIntervals.
func (r *Resource) makeRoom() {
	switch {
	case r.log == nil && r.eng != nil:
		r.log, r.foldAt = make([]interval, keptIntervals), firstFold
	case r.log == nil:
		r.log, r.foldAt = make([]interval, 2*keptIntervals), 2*keptIntervals
	case r.eng == nil:
		r.drop(keptIntervals)
	case r.lastEnd <= r.eng.now:
		// Every logged interval has ended (an idle resource booking again): drop them all.
		r.dropped = max(r.dropped, r.lastEnd)
		r.n, r.foldAt = 0, min(r.foldAt, firstFold)
	default:
		now, k := r.eng.now, 0
		for k < r.n && r.log[k].end <= now {
			k++
		}
		r.drop(k)
		switch {
		case r.n == 0:
			r.foldAt = min(r.foldAt, firstFold)
		case r.n > r.foldAt/2:
			r.foldAt *= 2
			if r.foldAt > len(r.log) {
				grown := make([]interval, r.foldAt)
				copy(grown, r.log[:r.n])
				r.log = grown
			}
		}
	}
}

// drop takes the log's oldest k intervals out of it.
func (r *Resource) drop(k int) {
	if k == 0 {
		return
	}
	r.dropped = max(r.dropped, r.log[k-1].end)
	r.n = copy(r.log, r.log[k:r.n])
}

// mustBeFree panics unless the resource can start an interval at t (small enough to be
// inlined: the messages are built out of line).
func (r *Resource) mustBeFree(t Time, act Activity) {
	if r.openAct != Idle || t < r.lastEnd {
		panic(r.notFree(t, act))
	}
}

// notFree returns the message of the panic when the resource cannot start act at t. It is
// out of line and the caller panics, so the callers' fast paths keep their values in
// registers (a call that returned would make them save them first).
//
//go:noinline
func (r *Resource) notFree(t Time, act Activity) string {
	if r.openAct != Idle {
		return fmt.Sprintf("sim: resource %s asked to start %q at %v while busy with %q since %v",
			r.name, r.names[act], t, r.names[r.openAct], r.openStart)
	}
	return fmt.Sprintf("sim: resource %s asked to start %q at %v, before its last interval ends (%v)",
		r.name, r.names[act], t, r.lastEnd)
}

// backwards returns the message of the panic when an interval (or a pair, [start, mid)
// then [mid, end)) ends before it starts (out of line, as notFree).
//
//go:noinline
func (r *Resource) backwards(pair bool, start, mid, end Time) string {
	if !pair {
		return fmt.Sprintf("sim: resource %s interval [%v, %v) ends before it starts", r.name, start, end)
	}
	return fmt.Sprintf("sim: resource %s intervals [%v, %v) and [%v, %v) end before they start", r.name, start, mid, mid, end)
}

// BusyAt returns the time spent in act up to time t: recorded intervals count only for
// their part before t.
func (r *Resource) BusyAt(t Time, act Activity) Time {
	if t < r.dropped {
		panic(fmt.Sprintf("sim: resource %s queried at %v, before intervals it no longer keeps (up to %v)", r.name, t, r.dropped))
	}
	b := r.busy[act]
	for k := r.n - 1; k >= 0; k-- {
		iv := &r.log[k]
		if iv.end <= t {
			break
		}
		if iv.act == act {
			b -= iv.end - max(iv.start, t)
		}
	}
	if r.openAct == act && act != Idle && t > r.openStart {
		b += t - r.openStart
	}
	return b
}

// TotalBusyAt returns the time spent in any activity other than idle up to time t.
func (r *Resource) TotalBusyAt(t Time) Time {
	var b Time
	for a := 1; a < len(r.busy); a++ {
		b += r.BusyAt(t, Activity(a))
	}
	return b
}

// Snapshot is the cumulative busy time of every activity of a resource at one time.
// Utilization over a window is the difference of two snapshots divided by its length.
type Snapshot struct {
	At   Time
	Busy []Time // indexed by Activity; Busy[0] is the idle time
}

// Snapshot returns the cumulative busy time per activity at time t, with idle time in
// Busy[0] computed as t minus the rest.
func (r *Resource) Snapshot(t Time) Snapshot {
	s := Snapshot{At: t, Busy: make([]Time, len(r.busy))}
	var total Time
	for a := 1; a < len(r.busy); a++ {
		s.Busy[a] = r.BusyAt(t, Activity(a))
		total += s.Busy[a]
	}
	s.Busy[0] = t - total
	return s
}

// Utilization returns the busy fraction of each activity between two snapshots of the same
// resource, indexed like Activities (index 0 is the idle fraction). A zero-length window
// gives all zeros.
func Utilization(from, to Snapshot) []float64 {
	u := make([]float64, len(to.Busy))
	span := to.At - from.At
	if span <= 0 {
		return u
	}
	for a := range to.Busy {
		var before Time
		if a < len(from.Busy) {
			before = from.Busy[a]
		}
		u[a] = float64(to.Busy[a]-before) / float64(span)
	}
	return u
}
