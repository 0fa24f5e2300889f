package report

import (
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// The statistics registry's outputs (sim.Stat, sim.StatSnapshot): one table for people,
// one of numbers, and the catalogue itself. Each iterates the snapshot, so every output
// carries the same statistics with the same values.

// Exact formats a number exactly: the shortest decimal that reads back as the same float64.
func Exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// StatText formats v, a value of s as a snapshot holds it, for people: a time as a
// duration (Duration), a ratio with three decimals, anything else as an integer.
func StatText(s *sim.Stat, v float64) string {
	switch s.Unit {
	case sim.UnitTime:
		return Duration(sim.Time(int64(v)))
	case sim.UnitRatio:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return strconv.FormatInt(int64(v), 10)
}

// StatsTable renders sn for people, "statistic, value": one row per Row, the values of
// the statistics that share it joined by " / ".
func StatsTable(title string, sn *sim.StatSnapshot) *Table {
	t := &Table{Title: title, Header: []string{"statistic", "value"}}
	var row string
	var vals []string
	flush := func() {
		if vals != nil {
			t.Append(row, strings.Join(vals, " / "))
		}
	}
	for _, v := range sn.Values() {
		if v.Stat.Row != row || vals == nil {
			flush()
			row, vals = v.Stat.Row, nil
		}
		vals = append(vals, StatText(v.Stat, v.Value))
	}
	flush()
	return t
}

// StatsCSV renders sn as numbers, "statistic, value": one row per statistic, named by
// Stat.Name, the value in the unit of its name (a time in µs), written exactly.
func StatsCSV(title string, sn *sim.StatSnapshot) *Table {
	t := &Table{Title: title, Header: []string{"statistic", "value"}}
	for _, v := range sn.Values() {
		t.Append(v.Stat.Name, Exact(v.Stat.Number(v.Value)))
	}
	return t
}

// CatalogueTable lists a catalogue's statistics: name, unit and description
// (`fastdrain stats list`).
func CatalogueTable(title string, c *sim.Catalogue) *Table {
	t := &Table{Title: title, Header: []string{"name", "unit", "description"}}
	for _, s := range c.Stats() {
		t.Append(s.Name, s.Unit.String(), s.Desc)
	}
	return t
}
