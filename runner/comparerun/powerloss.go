package comparerun

import (
	"fmt"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The power-loss comparison: with a scripted cut (firmware.power_loss.cut_at), compare
// prints what the cut did to each variant and writes it as plots (docs/reliability.md,
// "How much hold-up does each variant need?").

// powerLossCells returns the cells in scenario-then-variant order, or nil unless every
// run was stopped by a power cut.
func (cmp *Comparison) powerLossCells() []runner.Cell {
	var cs []runner.Cell
	for _, sc := range cmp.Scenarios {
		for _, v := range cmp.Variants {
			c := cmp.run(sc, v)
			if c.Result == nil || c.Result.PowerLoss == nil || c.Result.Recovery == nil {
				return nil
			}
			cs = append(cs, c)
		}
	}
	return cs
}

// powerLossCompareTable lists, per scenario and variant, the pages not on flash at the
// cut, what the drain flushed and lost, the hold-up it used and the recovery scan.
func powerLossCompareTable(cs []runner.Cell) *report.Table {
	t := &report.Table{Title: "power loss per variant (the cut at firmware.power_loss.cut_at)",
		Header: []string{"scenario", "variant", "dirty / evicting at the cut", "flushed", "lost", "drain", "hold-up used", "recovery scan (simulated)"}}
	for _, c := range cs {
		pl, rec := c.Result.PowerLoss, c.Result.Recovery
		t.Append(c.Scenario, c.Variant, fmt.Sprintf("%d / %d", pl.Dirty, pl.Evicting),
			fmt.Sprint(pl.Flushed), fmt.Sprint(pl.Lost), pl.Outcome(),
			report.Duration(pl.DrainTime()), report.Duration(rec.Time))
	}
	return t
}

// writePowerLossPlots writes power-loss-holdup.png/.svg (the hold-up each variant used
// after the cut, per scenario: with no firmware.power_loss.holdup bound, the hold-up it
// needs) and power-loss-pages.png/.svg (per scenario and variant, the pages not on flash
// at the cut, those the drain flushed and those lost: with a bound, what it loses).
func writePowerLossPlots(dir, tag string, scenarios, variants []string, cs []runner.Cell) error {
	ms := func(t sim.Time) float64 { return float64(t) / float64(sim.Millisecond) }
	holdup := make([][]float64, len(variants))
	var labels []string
	pages := make([][]float64, 3)
	for i, c := range cs {
		v := i % len(variants)
		pl := c.Result.PowerLoss
		holdup[v] = append(holdup[v], ms(pl.DrainTime()))
		labels = append(labels, c.Scenario+" "+c.Variant)
		pages[0] = append(pages[0], float64(pl.Dirty+pl.Evicting))
		pages[1] = append(pages[1], float64(pl.Flushed))
		pages[2] = append(pages[2], float64(pl.Lost))
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := report.Bars(filepath.Join(dir, "power-loss-holdup"+ext), "hold-up used after the power cut ("+tag+")",
			"hold-up (ms)", scenarios, variants, holdup); err != nil {
			return err
		}
		if err := report.Bars(filepath.Join(dir, "power-loss-pages"+ext), "buffered pages at the power cut and what became of them ("+tag+")",
			"pages", labels, []string{"dirty or evicting at the cut", "flushed after the cut", "lost"}, pages); err != nil {
			return err
		}
	}
	return nil
}
