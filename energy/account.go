package energy

import (
	"fmt"
	"strconv"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Account is the energy of one measured window [From, To): per row of Rows, the power
// trace in buckets, the peaks over the spec's windows, and the host work it served.
type Account struct {
	From, To   sim.Time
	J          []float64 // per row of Rows, joules
	Buckets    []Bucket
	Peaks      []Peak
	Commands   int64 // host commands served in the window
	WriteBytes int64 // bytes the host wrote in the window
	ASPM       bool  // the link had pcie.aspm on: its L0s and L1 rows are shown
	QLC        bool  // the dies were QLC: the program-tsb row is shown
	SLC        bool  // the dies had a pSLC mode: its read-slc, program-slc and erase-slc rows are shown
}

// Shown reports whether row i of Rows belongs in the account's table and JSON: every row
// but the link's L0s and L1 rows, which appear only with pcie.aspm on (so results without
// it are unchanged), the program-tsb row, which appears only with QLC dies, and the pSLC
// rows, only with dies that have a pSLC mode.
func (a *Account) Shown(i int) bool {
	if i == tsbRow {
		return a.QLC
	}
	for _, k := range slcRows {
		if i == k {
			return a.SLC
		}
	}
	if a.ASPM {
		return true
	}
	for _, k := range aspmRows {
		if i == k {
			return false
		}
	}
	return true
}

// Peak is the highest average power over any Window of whole buckets of the trace (the
// window slides one bucket at a time), and the end of the window where it was reached.
// A trace shorter than the window gives zero.
type Peak struct {
	Window sim.Time
	Watts  float64
	End    sim.Time
}

// peak finds the window of w/res consecutive full buckets with the most energy.
func peak(bs []Bucket, w, res sim.Time) Peak {
	p := Peak{Window: w}
	k := int(w / res)
	var sum float64
	n := 0 // full buckets in the current run
	for i, b := range bs {
		if b.Len != res {
			break // only the last bucket can be short
		}
		sum += total(b)
		n++
		if n > k {
			sum -= total(bs[i-k])
			n = k
		}
		if n == k && (sum/w.Seconds() > p.Watts || p.End == 0) {
			p.Watts, p.End = sum/w.Seconds(), b.End
		}
	}
	return p
}

func total(b Bucket) float64 {
	var s float64
	for _, j := range b.J {
		s += j
	}
	return s
}

// Seconds returns the length of the window in seconds (at least one picosecond's worth).
func (a *Account) Seconds() float64 { return max(a.To-a.From, 1).Seconds() }

// Total returns the energy of the whole SSD over the window, in joules.
func (a *Account) Total() float64 {
	var s float64
	for _, j := range a.J {
		s += j
	}
	return s
}

// Component returns the energy of one component (one of Components), in joules.
func (a *Account) Component(name string) float64 {
	var s float64
	for i, r := range rows {
		if r.Component == name {
			s += a.J[i]
		}
	}
	return s
}

// AveragePower returns the SSD's mean power over the window, in watts.
func (a *Account) AveragePower() float64 { return a.Total() / a.Seconds() }

// PerCommand returns the energy per host command served, in joules (0 with none).
func (a *Account) PerCommand() float64 {
	if a.Commands == 0 {
		return 0
	}
	return a.Total() / float64(a.Commands)
}

// PerGBWritten returns the energy per 10⁹ bytes the host wrote, in joules (0 with none).
func (a *Account) PerGBWritten() float64 {
	if a.WriteBytes == 0 {
		return 0
	}
	return a.Total() / (float64(a.WriteBytes) / 1e9)
}

// Table returns the energy table: every row with its joules, average watts over the
// window and share of the total; a subtotal per component; the total; then the peaks
// and the energy per host command and per GB written.
func (a *Account) Table(title string) *report.Table {
	t := &report.Table{Title: title, Header: []string{"component", "activity", "energy (J)", "avg power (W)", "share"}}
	tot, secs := a.Total(), a.Seconds()
	share := func(j float64) string {
		if tot == 0 {
			return "0.0%"
		}
		return fmt.Sprintf("%.1f%%", 100*j/tot)
	}
	line := func(c, act string, j float64) { t.Append(c, act, joules(j), watts(j/secs), share(j)) }
	for _, c := range Components {
		for i, r := range rows {
			if r.Component == c && a.Shown(i) {
				line(c, r.Activity, a.J[i])
			}
		}
		line(c, "all", a.Component(c))
	}
	line("ssd", "total", tot)
	for _, p := range a.Peaks {
		t.Append("ssd", "peak over "+report.Duration(p.Window), "", watts(p.Watts), "at "+report.Duration(p.End))
	}
	t.Append("ssd", fmt.Sprintf("per host command (%d)", a.Commands), joules(a.PerCommand()), "", "")
	t.Append("ssd", fmt.Sprintf("per GB written (%s GB)", strconv.FormatFloat(float64(a.WriteBytes)/1e9, 'f', 3, 64)),
		joules(a.PerGBWritten()), "", "")
	return t
}

// joules formats an energy with four significant digits.
func joules(j float64) string { return strconv.FormatFloat(j, 'g', 4, 64) }

// watts formats a power with four significant digits.
func watts(w float64) string { return strconv.FormatFloat(w, 'g', 4, 64) }

// Series returns the power trace of every component and of the whole SSD in milliwatts,
// one sample per group of k buckets (the last group may be shorter), stamped with the
// group's end: the series "energy.<component>_mW" and "energy.total_mW".
func (a *Account) Series(k int) []*sim.Series {
	k = max(k, 1)
	out := make([]*sim.Series, components+1)
	for c, name := range Components {
		out[c] = &sim.Series{Name: "energy." + seriesName(name) + "_mW"}
	}
	out[components] = &sim.Series{Name: "energy.total_mW"}
	for i := 0; i < len(a.Buckets); i += k {
		grp := a.Buckets[i:min(i+k, len(a.Buckets))]
		var j [components]float64
		var span sim.Time
		for _, b := range grp {
			span += b.Len
			for c := range j {
				j[c] += b.J[c]
			}
		}
		end := grp[len(grp)-1].End
		var sum float64
		for c := range j {
			out[c].Samples = append(out[c].Samples, sim.Sample{At: end, Value: milliwatts(j[c], span)})
			sum += j[c]
		}
		out[components].Samples = append(out[components].Samples, sim.Sample{At: end, Value: milliwatts(sum, span)})
	}
	return out
}

func milliwatts(j float64, span sim.Time) int64 {
	if span <= 0 {
		return 0
	}
	mw := j / span.Seconds() * 1e3
	return int64(mw + 0.5)
}

func seriesName(component string) string {
	b := []byte(component)
	for i, c := range b {
		if c == ' ' {
			b[i] = '_'
		}
	}
	return string(b)
}
