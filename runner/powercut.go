package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
)

// CutOutcome returns, once a command has run machine m, what its scripted power cut
// (firmware.power_loss.cut_at) did and what rebuilding the mapping from flash at the next
// power-on found (docs/reliability.md, "Power loss and recovery"): nil, nil without a cut
// in m's configuration. Every command that runs a machine — run, compare, sweep, replay,
// fio, uflip — ends with it, so a cut is reported alike everywhere.
//
// A cut the run ended before is an error naming cut_at and the run's end: the cut was
// asked for and did not happen, so nothing it was to show was tested. So is a cut after
// which the simulation ended with the firmware still running (its drain went idle).
//
// First of all, a run whose host I/O stalled (platforms.Machine.Stall) ends with the
// stall's report as its error, cut or not.
func CutOutcome(m *platforms.Machine) (*firmware.PowerLossReport, *firmware.Recovery, error) {
	if err := m.Stall(); err != nil {
		return nil, nil, err
	}
	at := m.Config.Firmware.PowerLoss.CutAt
	if at <= 0 {
		return nil, nil, nil
	}
	fw := m.SSD.FW
	rep := fw.PowerLossReport()
	switch {
	case rep.At == 0:
		return nil, nil, fmt.Errorf("firmware.power_loss.cut_at: %v is after the end of the run (it ended at %s of simulated time, set-up included): no power cut happened; give a cut_at before the end",
			at, report.Duration(m.Eng.Now()))
	case !fw.PoweredOff():
		return nil, nil, fmt.Errorf("firmware.power_loss.cut_at: the power cut at %v did not end: the simulation went idle at %s with the firmware still draining (%d dirty and %d evicting pages)",
			rep.At, report.Duration(m.Eng.Now()), fw.Buffer().Dirty(), fw.Buffer().Evicting())
	}
	if _, err := m.CutFlash(); err != nil {
		return nil, nil, err
	}
	peng, flash, err := platforms.PowerOnFlash(m.Config)
	if err != nil {
		return nil, nil, err
	}
	defer peng.Close()
	rec, err := fw.RecoverOn(peng, flash)
	if err != nil {
		return nil, nil, err
	}
	rec.Map = nil // the summary is kept, not the map
	return &rep, rec, nil
}

// CutLine is the start of the sentence a command prints when a power cut stopped its
// workload: when the cut came and what became of the buffered pages. The command goes on
// with what its own work was at the cut.
func CutLine(pl *firmware.PowerLossReport) string {
	return fmt.Sprintf("power cut at %s (firmware.power_loss.cut_at): %d dirty and %d evicting pages at the cut, %d flushed after it, %d lost (%s)",
		report.Duration(pl.At), pl.Dirty, pl.Evicting, pl.Flushed, pl.Lost, pl.Outcome())
}
