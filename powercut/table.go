package powercut

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Table lays out a campaign's rows: per target and schedule, the cuts, how many met the
// schedule's condition, the durable losses (pages, and the cuts with one), the volatile
// losses (legal without power-loss protection), the stale reads, the stuck drains, the
// recovery scan's mean and longest time, and the first failure.
func Table(rows []Row) *report.Table {
	t := &report.Table{Title: "power cuts: every acknowledged write checked after recovery",
		Header: []string{"target", "schedule", "cuts", "condition met", "durable losses (pages / cuts)", "volatile losses (pages)",
			"stale reads", "stuck drains", "recovery mean", "recovery max", "first failure"}}
	for _, r := range rows {
		met := fmt.Sprint(r.Met)
		if r.Schedule == "random" {
			met = "-"
		}
		first := r.First
		if first == "" {
			first = "-"
		}
		t.Append(r.Target, r.Schedule, fmt.Sprint(r.Cuts), met, fmt.Sprintf("%d / %d", r.DurableLoss, r.LossCuts),
			fmt.Sprint(r.Volatile), fmt.Sprint(r.Stale), fmt.Sprint(r.Stuck),
			report.Duration(r.RecoveryMean), report.Duration(r.RecoveryMax), first)
	}
	return t
}

// Totals sums rows up: the cuts, and those that lost durable data, read stale data or left
// the drain stuck.
func Totals(rows []Row) (cuts, failed int) {
	for _, r := range rows {
		cuts += r.Cuts
		failed += r.FailedCuts
	}
	return cuts, failed
}

// Numbers lays out the rows as numbers for CSV: the time columns in microseconds, the
// durable losses in two columns, and last the note of the row's variant (notes: what the
// matrix left out of it, Matrix.Targets; "" if none).
func Numbers(rows []Row, notes []Note) *report.Table {
	t := &report.Table{Header: []string{"target", "schedule", "plp", "cuts", "condition_met", "durable_loss_pages", "durable_loss_cuts",
		"volatile_loss_pages", "stale_reads", "stuck_drains", "writes", "gc_moved_pages", "recovery_mean_us", "recovery_max_us", "first_failure", "note"}}
	us := func(x sim.Time) string { return strconv.FormatFloat(float64(x)/float64(sim.Microsecond), 'f', 3, 64) }
	for _, r := range rows {
		t.Append(r.Target, r.Schedule, strconv.FormatBool(r.PLP), strconv.Itoa(r.Cuts), strconv.Itoa(r.Met),
			strconv.FormatInt(r.DurableLoss, 10), strconv.Itoa(r.LossCuts), strconv.FormatInt(r.Volatile, 10),
			strconv.FormatInt(r.Stale, 10), strconv.Itoa(r.Stuck), strconv.FormatInt(r.Writes, 10), strconv.FormatInt(r.GCMoved, 10),
			us(r.RecoveryMean), us(r.RecoveryMax), r.First, rowNote(r, notes))
	}
	return t
}

// rowNote returns the note of row r's variant (its target's label "variant plp|no-plp
// mapping", Matrix.Targets), "" if none.
func rowNote(r Row, notes []Note) string {
	v, _, _ := strings.Cut(r.Target, " ")
	for _, n := range notes {
		if n.Variant == v {
			return n.Text
		}
	}
	return ""
}

// cutDoc is one cut in WriteJSON's document: times in picoseconds.
type cutDoc struct {
	Target       string `json:"target"`
	Schedule     string `json:"schedule"`
	Seed         uint64 `json:"seed"`
	ArmedPS      int64  `json:"armed_ps"`
	AtPS         int64  `json:"at_ps"`
	Met          bool   `json:"condition_met"`
	Outcome      string `json:"outcome"`
	Dirty        int    `json:"dirty_pages"`
	Evicting     int    `json:"evicting_pages"`
	Flushed      int64  `json:"flushed_pages"`
	Lost         int    `json:"lost_pages"`
	DrainPS      int64  `json:"drain_ps"`
	RecoveryPS   int64  `json:"recovery_ps"`
	Writes       int64  `json:"writes"`
	Pages        int64  `json:"pages_checked"`
	GCMoved      int64  `json:"gc_moved_pages"`
	DurableLoss  int64  `json:"durable_loss_pages"`
	Volatile     int64  `json:"volatile_loss_pages"`
	Stale        int64  `json:"stale_reads"`
	FirstFailure string `json:"first_failure,omitempty"`
}

// rowDoc is one row in WriteJSON's document: Numbers' columns, times in picoseconds.
type rowDoc struct {
	Target         string `json:"target"`
	Schedule       string `json:"schedule"`
	PLP            bool   `json:"plp"`
	Cuts           int    `json:"cuts"`
	Met            int    `json:"condition_met"`
	DurableLoss    int64  `json:"durable_loss_pages"`
	LossCuts       int    `json:"durable_loss_cuts"`
	Volatile       int64  `json:"volatile_loss_pages"`
	Stale          int64  `json:"stale_reads"`
	Stuck          int    `json:"stuck_drains"`
	Writes         int64  `json:"writes"`
	GCMoved        int64  `json:"gc_moved_pages"`
	RecoveryMeanPS int64  `json:"recovery_mean_ps"`
	RecoveryMaxPS  int64  `json:"recovery_max_ps"`
	FirstFailure   string `json:"first_failure,omitempty"`
}

// WriteJSON writes the campaign as a JSON document: the matrix's notes (the lines the
// text output prints; [] if none), the rows (Numbers' columns but the note, times in
// picoseconds) and every cut, in the order Campaign returned them.
func WriteJSON(w io.Writer, rows []Row, cuts []*Cut, notes []Note) error {
	doc := struct {
		Notes []string `json:"notes"`
		Rows  []rowDoc `json:"rows"`
		Cuts  []cutDoc `json:"cuts"`
	}{Notes: []string{}}
	for _, n := range notes {
		doc.Notes = append(doc.Notes, n.Text)
	}
	for _, r := range rows {
		doc.Rows = append(doc.Rows, rowDoc{Target: r.Target, Schedule: r.Schedule, PLP: r.PLP, Cuts: r.Cuts, Met: r.Met,
			DurableLoss: r.DurableLoss, LossCuts: r.LossCuts, Volatile: r.Volatile, Stale: r.Stale, Stuck: r.Stuck,
			Writes: r.Writes, GCMoved: r.GCMoved, RecoveryMeanPS: int64(r.RecoveryMean), RecoveryMaxPS: int64(r.RecoveryMax),
			FirstFailure: r.First})
	}
	for _, c := range cuts {
		rep := c.Report
		doc.Cuts = append(doc.Cuts, cutDoc{Target: c.Target, Schedule: c.Schedule, Seed: c.Seed, ArmedPS: int64(c.Armed),
			AtPS: int64(c.At), Met: c.Met, Outcome: rep.Outcome(), Dirty: rep.Dirty, Evicting: rep.Evicting, Flushed: rep.Flushed,
			Lost: rep.Lost, DrainPS: int64(rep.DrainTime()), RecoveryPS: int64(c.RecoveryTime), Writes: c.Writes, Pages: c.Pages,
			GCMoved: c.GCMoved, DurableLoss: c.DurableLoss, Volatile: c.Volatile, Stale: c.Stale, FirstFailure: c.First})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
