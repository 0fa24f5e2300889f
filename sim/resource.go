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

// keptIntervals is how many recent intervals a resource keeps to answer queries about
// times before the end of intervals booked ahead (a power of two: the ring is indexed by
// masking). Models book at most a queue's worth of
// work ahead of the current time, far fewer than this.
const keptIntervals = 256

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
// Queries (BusyAt, Snapshot, Busy) may ask about any time from the start of the oldest of
// the last 256 recorded intervals on, so bookings made ahead of the current time are counted
// only for the part that has elapsed.
type Resource struct {
	name  string
	names []string
	busy  []Time // total recorded busy time per activity, future parts included
	// The open interval (Begin without End), if openAct is not Idle.
	openAct   Activity
	openStart Time
	lastEnd   Time // end of the latest recorded interval
	ring      []interval
	head, n   int
	dropped   Time // end of the latest interval dropped from the ring
	hook      ResourceHook
	eng       *Engine // when set, intervals that ended by now are let go and the ring grows
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
// current time, so intervals that ended by now can be let go, and the ring of kept
// intervals grows instead of dropping one that may still be needed: a resource may book any
// number of intervals ahead (a DRAM bus with a deep backlog). Without it, the resource keeps
// the last 256 intervals.
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
		iv := &r.ring[(r.head+k)&(len(r.ring)-1)]
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
// act, i = 0 … k−1, leaving the resource exactly as k calls of Occupy would, in a number of
// steps that does not grow with k when the intervals ended by now (a DRAM's refreshes over an
// idle stretch). It needs the engine (Follow), no hook (a hook sees every interval), k ≥ 1
// and 0 < length ≤ period, and reports false, recording nothing, without them.
func (r *Resource) OccupyPeriodic(first, period, length Time, k int64, act Activity) bool {
	if r.hook != nil || r.eng == nil || k < 1 || length <= 0 || length > period {
		return false
	}
	r.mustBeFree(first, act)
	r.record(first, first+length, act)
	// Intervals 0 … m−1 end by now and each has a successor: recording interval i ≤ m lets
	// every kept interval go (letGo: the latest, i−1, ended by now) and keeps i alone.
	var m int64
	if now := r.eng.now; now >= first+length {
		m = min(k-1, int64((now-first-length)/period)+1)
	}
	if m > 0 {
		r.busy[act] += Time(m) * length
		r.dropped = max(r.dropped, first+Time(m-1)*period+length)
		start := first + Time(m)*period
		r.head, r.n = 0, 1
		r.ring[0] = interval{start, start + length, act}
		r.lastEnd = start + length
	}
	for i := m + 1; i < k; i++ {
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
	if mid == start || end == mid || a == b || r.hook != nil || r.n+2 > len(r.ring) {
		if mid > start {
			r.record(start, mid, a)
		}
		if end > mid {
			r.record(mid, end, b)
		}
		return
	}
	// The common case (two non-empty intervals of different activities, no hook, room for
	// both) is record's fast path twice, in one call; the second interval follows one of
	// another activity, so it cannot extend it.
	r.busy[a] += mid - start
	r.busy[b] += end - mid
	prev := r.lastEnd
	r.lastEnd = end
	n := r.keep(start, mid, a, r.letGo(prev, r.n))
	r.n = r.put(mid, end, b, r.letGo(mid, n))
}

// record adds the interval [start, end) of act. An interval that continues the previous
// one with the same activity extends it (the ring's length is a power of two). The common
// case — no hook, room in the ring — calls nothing, so its values stay in registers; the
// rest goes through recordSlow.
func (r *Resource) record(start, end Time, act Activity) {
	if r.hook != nil || r.n == len(r.ring) {
		r.recordSlow(start, end, act)
		return
	}
	r.busy[act] += end - start
	prev := r.lastEnd
	r.lastEnd = end
	r.n = r.keep(start, end, act, r.letGo(prev, r.n))
}

// recordSlow is record with a hook to call, or a ring to allocate or make room in.
//
//go:noinline
func (r *Resource) recordSlow(start, end Time, act Activity) {
	r.busy[act] += end - start
	prev := r.lastEnd
	r.lastEnd = end
	if r.hook != nil {
		r.hook(r, act, start, end)
	}
	r.n = r.letGo(prev, r.n)
	if last := r.last(r.n); last != nil && last.end == start && last.act == act {
		last.end = end
		return
	}
	if r.ring == nil {
		r.ring = make([]interval, keptIntervals)
	}
	if r.n == len(r.ring) {
		r.makeRoom()
	}
	r.n = r.put(start, end, act, r.n)
}

// The helpers below take and return the count of kept intervals instead of updating r.n,
// so their callers keep it in a register (r.n is stored once, at the end).

// letGo lets the n kept intervals go when all ended by now (prev, the end of the latest, is
// not after it): no query needs them (queries are at now or later), and the ring starts over
// at its first slot, which keeps the ring of a resource booked little ahead within a few
// cache lines. It needs the engine (Follow). It returns how many are kept then.
func (r *Resource) letGo(prev Time, n int) int {
	if n > 0 && r.eng != nil && prev <= r.eng.now {
		r.dropped = max(r.dropped, prev)
		r.head = 0
		return 0
	}
	return n
}

// last returns the latest of n kept intervals, or nil if n is 0. An interval that
// continues it with the same activity extends it instead of taking a slot.
func (r *Resource) last(n int) *interval {
	if n == 0 {
		return nil
	}
	return &r.ring[(r.head+n-1)&(len(r.ring)-1)]
}

// keep keeps [start, end) of act after n kept intervals, which the ring must have room for:
// by extending the latest if it ends at start with the same activity, or in a slot of its
// own. It returns how many are kept then. It is record's fast path and the first half of
// OccupyPair's; written without last and put, it is inlined into both (the ring is not
// empty, so the latest slot's index is valid even when n is 0).
func (r *Resource) keep(start, end Time, act Activity, n int) int {
	mask := len(r.ring) - 1
	if last := &r.ring[(r.head+n-1)&mask]; n > 0 && last.end == start && last.act == act {
		last.end = end
		return n
	}
	r.ring[(r.head+n)&mask] = interval{start, end, act}
	return n + 1
}

// put keeps [start, end) of act after n kept intervals, which the ring must have room for,
// and returns n+1.
func (r *Resource) put(start, end Time, act Activity, n int) int {
	r.ring[(r.head+n)&(len(r.ring)-1)] = interval{start, end, act}
	return n + 1
}

// makeRoom frees a slot of the full ring: with an engine, by letting go of intervals that
// ended by now, or else by doubling the ring; without one, by dropping the oldest interval.
func (r *Resource) makeRoom() {
	if r.eng == nil {
		r.dropped = r.ring[r.head].end
		r.head = (r.head + 1) & (len(r.ring) - 1)
		r.n--
		return
	}
	now := r.eng.now
	for r.n > 0 && r.ring[r.head].end <= now {
		r.dropped = max(r.dropped, r.ring[r.head].end)
		r.head = (r.head + 1) & (len(r.ring) - 1)
		r.n--
	}
	if r.n < len(r.ring) {
		return
	}
	grown := make([]interval, 2*len(r.ring))
	for k := 0; k < r.n; k++ {
		grown[k] = r.ring[(r.head+k)&(len(r.ring)-1)]
	}
	r.ring, r.head = grown, 0
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
		iv := &r.ring[(r.head+k)&(len(r.ring)-1)]
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
