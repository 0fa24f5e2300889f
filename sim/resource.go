package sim

import "fmt"

// Activity identifies what a resource is busy with. Activity 0 of every resource is "idle";
// the others are registered by name with Resource.Activity.
type Activity uint8

// Idle is the activity of a resource that is doing nothing.
const Idle Activity = 0

// ResourceHook observes every busy interval a resource records: [start, end) spent on act.
// Timeline exporters attach one; with none attached a resource pays one nil check.
type ResourceHook func(r *Resource, act Activity, start, end Time)

// Resource is anything that can be busy: a PCIe direction, a controller core, a DRAM bus, a
// channel bus, a die, a plane. It holds one activity at a time and integrates the time spent
// in each, in integer picoseconds, so utilization over any window is exact:
//
//	u = (BusyAt(t2, a) − BusyAt(t1, a)) / (t2 − t1).
//
// An interval is recorded either open-ended (Begin … End) or with its end known up front
// (Occupy), which lets a model charge a whole transfer or array operation with no second
// event. Intervals may not overlap: the resource has capacity one. Components that can do
// several things at once own several resources.
type Resource struct {
	name  string
	names []string
	busy  []Time // closed busy time per activity
	// The current interval: act since start, until end (MaxTime while open).
	act   Activity
	start Time
	end   Time
	hook  ResourceHook
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

// SetHook attaches a hook that sees every busy interval (nil detaches).
func (r *Resource) SetHook(h ResourceHook) { r.hook = h }

// Busy reports whether the resource is busy at time t.
func (r *Resource) Busy(t Time) bool { return r.act != Idle && t >= r.start && t < r.end }

// FreeAt returns the earliest time at or after t when the resource has no interval running:
// t itself if idle, the known end of an Occupy interval, or MaxTime while an open interval runs.
func (r *Resource) FreeAt(t Time) Time {
	if r.act == Idle || t >= r.end {
		return t
	}
	return r.end
}

// Current returns the activity at time t.
func (r *Resource) Current(t Time) Activity {
	if r.Busy(t) {
		return r.act
	}
	return Idle
}

// settle closes the current interval if it ended at or before t.
func (r *Resource) settle(t Time) {
	if r.act != Idle && r.end != MaxTime && r.end <= t {
		r.close(r.end)
	}
}

func (r *Resource) close(end Time) {
	r.busy[r.act] += end - r.start
	if r.hook != nil {
		r.hook(r, r.act, r.start, end)
	}
	r.act = Idle
	r.start, r.end = end, end
}

// Begin starts an open-ended interval of act at time t. The resource must be free at t.
func (r *Resource) Begin(t Time, act Activity) {
	r.settle(t)
	r.mustBeFree(t, act)
	r.act, r.start, r.end = act, t, MaxTime
}

// End closes the open interval at time t.
func (r *Resource) End(t Time) {
	if r.act == Idle || r.end != MaxTime {
		panic(fmt.Sprintf("sim: resource %s ended at %v with no open interval", r.name, t))
	}
	if t < r.start {
		panic(fmt.Sprintf("sim: resource %s ended at %v before it began (%v)", r.name, t, r.start))
	}
	r.close(t)
}

// Occupy records that the resource is busy with act over [start, end). start must not be
// before the end of the previous interval. A zero-length interval records nothing.
func (r *Resource) Occupy(start, end Time, act Activity) {
	if end < start {
		panic(fmt.Sprintf("sim: resource %s interval [%v, %v) ends before it starts", r.name, start, end))
	}
	r.settle(start)
	r.mustBeFree(start, act)
	if end == start {
		return
	}
	r.act, r.start, r.end = act, start, end
}

func (r *Resource) mustBeFree(t Time, act Activity) {
	if r.act != Idle {
		panic(fmt.Sprintf("sim: resource %s asked to start %q at %v while busy with %q since %v",
			r.name, r.names[act], t, r.names[r.act], r.start))
	}
	if t < r.start {
		panic(fmt.Sprintf("sim: resource %s asked to start %q at %v, before its last interval ended (%v)",
			r.name, r.names[act], t, r.start))
	}
}

// BusyAt returns the total time spent in act up to time t (t must not be before the start of
// the current interval). BusyAt(t, Idle) is not tracked; use TotalBusyAt.
func (r *Resource) BusyAt(t Time, act Activity) Time {
	b := r.busy[act]
	if r.act == act && act != Idle && t > r.start {
		b += min(t, r.end) - r.start
	}
	return b
}

// TotalBusyAt returns the time spent in any activity other than idle up to time t.
func (r *Resource) TotalBusyAt(t Time) Time {
	var b Time
	for a := 1; a < len(r.busy); a++ {
		b += r.busy[a]
	}
	if r.act != Idle && t > r.start {
		b += min(t, r.end) - r.start
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
