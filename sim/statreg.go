package sim

import "fmt"

// The statistics registry, in the spirit of gem5's stats: each statistic is declared once,
// beside the counter it reads, with its name, unit and a one-line description (Stat); a
// machine lists the statistics it reports in one Catalogue, in the order people read them;
// at the end of a run (never per event) its components put their values into one StatSnapshot,
// and every output — text tables, CSV, JSON, sweep columns, compare tables — iterates that
// snapshot, so none of them names a statistic again.

// Unit is what a statistic counts or measures. It decides how each output writes the value:
// a time is held in picoseconds, written in microseconds as a number and as a duration
// ("1.234ms") for people; a ratio with three decimals for people; the rest as integers.
type Unit uint8

// The units of statistics.
const (
	UnitCount  Unit = iota // things counted: runs, switches, events
	UnitPages              // flash or buffer pages (4 KiB host pages unless said)
	UnitBlocks             // flash blocks
	UnitTime               // simulated time: ps in a snapshot, µs as a number
	UnitRatio              // a dimensionless ratio
)

// String names the unit as the catalogue prints it.
func (u Unit) String() string {
	switch u {
	case UnitPages:
		return "pages"
	case UnitBlocks:
		return "blocks"
	case UnitTime:
		return "us"
	case UnitRatio:
		return "ratio"
	}
	return "count"
}

// Stat declares one statistic. Declare it once, as a package variable beside the counter
// it reads, and put its value into a StatSnapshot where the component's statistics are taken.
type Stat struct {
	// Name is the machine-readable name, its unit in the name where it has one
	// ("write_stall_time_us"): stats.csv's first column, JSON's "name".
	Name string
	Unit Unit
	// Desc is one line saying what is counted, for `fastdrain stats list`.
	Desc string
	// Row is the text table's row: statistics next to each other in a catalogue with the
	// same Row print as one row, their values joined by " / " ("GC runs / pages moved /
	// erases").
	Row string
}

// Number returns v, a value of s as a snapshot holds it, as the machine-readable outputs
// write it: a time in microseconds, anything else unchanged.
func (s *Stat) Number(v float64) float64 {
	if s.Unit == UnitTime {
		return v / float64(Microsecond)
	}
	return v
}

// Catalogue is the ordered list of statistics a machine reports.
type Catalogue struct {
	stats []*Stat
	index map[*Stat]int // looked up only, never ranged over
}

// NewCatalogue lists stats in the order outputs show them. A name given twice is a
// programming error and panics.
func NewCatalogue(stats ...*Stat) *Catalogue {
	c := &Catalogue{stats: stats, index: make(map[*Stat]int, len(stats))}
	names := make(map[string]bool, len(stats))
	for i, s := range stats {
		if names[s.Name] {
			panic("sim: statistic " + s.Name + " listed twice")
		}
		names[s.Name] = true
		c.index[s] = i
	}
	return c
}

// Stats returns the catalogue's statistics in order; the caller must not modify it.
func (c *Catalogue) Stats() []*Stat { return c.stats }

// Lookup returns the statistic named name, or nil.
func (c *Catalogue) Lookup(name string) *Stat {
	for _, s := range c.stats {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// StatSnapshot holds the values of a catalogue's statistics taken at one moment. A statistic
// no component put (a fault counter without a fault model) is absent, and every output
// leaves it out alike.
type StatSnapshot struct {
	cat *Catalogue
	val []float64
	has []bool
}

// NewSnapshot returns an empty snapshot of c's statistics.
func (c *Catalogue) NewSnapshot() *StatSnapshot {
	return &StatSnapshot{cat: c, val: make([]float64, len(c.stats)), has: make([]bool, len(c.stats))}
}

// Put sets s's value: a count, pages or blocks as a number, a time in picoseconds, a
// ratio as it is. A statistic outside the catalogue is a programming error and panics.
func (sn *StatSnapshot) Put(s *Stat, v float64) {
	i, ok := sn.cat.index[s]
	if !ok {
		panic(fmt.Sprintf("sim: statistic %s is not in the catalogue", s.Name))
	}
	sn.val[i], sn.has[i] = v, true
}

// PutInt sets s's value from an integer counter.
func (sn *StatSnapshot) PutInt(s *Stat, v int64) { sn.Put(s, float64(v)) }

// Value returns s's value and whether the snapshot holds it (a nil snapshot holds none).
func (sn *StatSnapshot) Value(s *Stat) (float64, bool) {
	if sn == nil {
		return 0, false
	}
	i, ok := sn.cat.index[s]
	if !ok || !sn.has[i] {
		return 0, false
	}
	return sn.val[i], true
}

// StatValue is one statistic with its value in a snapshot.
type StatValue struct {
	Stat  *Stat
	Value float64 // as Put: a time in picoseconds
}

// Values returns the statistics the snapshot holds, in catalogue order.
func (sn *StatSnapshot) Values() []StatValue {
	if sn == nil {
		return nil
	}
	var out []StatValue
	for i, s := range sn.cat.stats {
		if sn.has[i] {
			out = append(out, StatValue{s, sn.val[i]})
		}
	}
	return out
}

// StatEvents is the engine's statistic: events fired (Engine.Fired).
var StatEvents = &Stat{Name: "simulated_events", Unit: UnitCount,
	Desc: "events the simulation engine fired", Row: "simulated events"}
