package powercut

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/report"
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
