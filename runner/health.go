package runner

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
)

// Health is the drive's health when the run ended: the firmware's account of its spare
// pool and read-only mode, and the SMART / Health Information log page the controller
// returns for Get Log Page 02h, decoded (what a host's smartctl would show).
type Health struct {
	firmware.Health
	Log nvmectrl.HealthInfo
}

// healthOf returns machine m's health, or nil without a fault model (nothing can have
// happened to it, and outputs stay those of a build without the model).
func healthOf(m *platforms.Machine) *Health {
	if !m.Config.Flash.Die.Faults.Enabled() {
		return nil
	}
	page := m.SSD.Ctrl.HealthLog()
	return &Health{Health: m.SSD.FW.Health(), Log: nvmectrl.ParseHealthLog(page[:])}
}

// appResult returns the application's result as a run keeps it.
func appResult(a *apps.Result) AppResult {
	h := a.Latency
	r := AppResult{App: a.App, Requests: a.Requests, Bytes: a.Bytes, Latency: &h, Series: a.Series,
		IOErrors: a.IOErrors, FirstIOErrorAt: a.FirstIOErrorAt}
	if a.FirstIOError != nil {
		r.FirstIOError = a.FirstIOError.Error()
	}
	return r
}

// criticalWarning names the set bits of a SMART critical warning, "none" if none is.
func criticalWarning(cw uint8, h nvmectrl.HealthInfo) string {
	if cw == 0 {
		return "none"
	}
	var parts []string
	for _, b := range []struct {
		bit  uint8
		name string
	}{{nvmectrl.CriticalSpare, fmt.Sprintf("available spare %d %% below its threshold of %d %%", h.AvailableSpare, h.AvailableSpareThreshold)},
		{nvmectrl.CriticalTemperature, "temperature"}, {nvmectrl.CriticalReliability, "reliability degraded by media errors"},
		{nvmectrl.CriticalReadOnly, "media placed in read-only mode"}, {nvmectrl.CriticalBackup, "volatile memory backup failed"}} {
		if cw&b.bit != 0 {
			parts = append(parts, b.name)
		}
	}
	return fmt.Sprintf("0x%02x: %s", cw, strings.Join(parts, ", "))
}

// Notes returns what went wrong in the run, in sentences, for the text output: the drive's
// read-only mode, its uncorrectable reads, and the I/O errors the applications and the
// page cache saw. None without a fault, so outputs of runs without one are unchanged.
func (r *Result) Notes() []string {
	var notes []string
	h, x := r.Health, r.Faults
	if h != nil && h.ReadOnly {
		notes = append(notes, fmt.Sprintf("The drive went read-only at %s: die %d %s (%d grown bad blocks; its spare pool is %d blocks, firmware.ftl.spare_blocks). From then on it refused %d commands that would write (Attempted Write to Read Only Range) and went on serving reads; its SMART / Health log reports critical warning %s.",
			report.Duration(h.ReadOnlyAt), h.ReadOnlyDie, h.ReadOnlyReason, h.GrownBad, h.SparePool, x.RefusedWrites,
			criticalWarning(h.Log.CriticalWarning, h.Log)))
	}
	if x.Uncorrectable > 0 {
		notes = append(notes, fmt.Sprintf("%d page reads could not be corrected even after every read-retry step (flash.die.faults.read.max_retries = %d); %d host read commands failed with Unrecovered Read Error.",
			x.Uncorrectable, r.Config.Flash.Die.Faults.Read.MaxRetries, x.FailedReads))
	}
	for _, a := range r.Apps {
		if a.IOErrors > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d requests failed with an I/O error and are not in its latency figures (%d completed); the first, at %s: %s.",
				a.App, a.IOErrors, a.Requests, report.Duration(a.FirstIOErrorAt), a.FirstIOError))
		}
	}
	if c := r.Cache; c.WriteErrors > 0 || c.ReadErrors > 0 {
		notes = append(notes, fmt.Sprintf("The page cache lost %d dirty pages whose write to the device failed (their files' fsync reported it) and %d pages a read could not fill.",
			c.WriteErrors, c.ReadErrors))
	}
	return notes
}
