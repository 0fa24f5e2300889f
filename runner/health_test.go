package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// uncorrectable is a read model under which every flash read is uncorrectable: RBER 0.01
// gives 0.01 × 8 × 1,024 = 81.92 bit errors a 1 KiB codeword, the ECC corrects 40, and
// the one retry step allowed leaves 81.92 × 0.5 = 40.96 > 40.
var uncorrectable = []string{"flash.die.faults.read.rber=0.01", "flash.die.faults.read.ecc_bits=40",
	"flash.die.faults.read.codeword=1024", "flash.die.faults.read.retry_gain=0.5", "flash.die.faults.read.max_retries=1"}

// TestRunUncorrectableReadsReported: db-s's random 16 KiB direct reads on a device whose
// every flash read is uncorrectable. The run completes (it aborted with "nvme: sct 2 sc 81h"
// before): every read command fails with Unrecovered Read Error, db-s counts each failed
// request as an I/O error and goes on, and the output says so in sentences (no raw status):
// the uncorrectable page reads, the commands failed, db-s's count and its first error with
// its sector. The SMART / Health log's Media and Data Integrity Errors are the
// uncorrectable page reads.
func TestRunUncorrectableReadsReported(t *testing.T) {
	c, sc := setup(t, "fd", "db-s", 200*sim.Millisecond, append(smallSets, uncorrectable...)...)
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	x := r.Faults
	require.Positive(t, x.FailedReads)
	require.GreaterOrEqual(t, x.Uncorrectable, x.FailedReads)
	db := r.App("db-s")
	require.Equal(t, x.FailedReads, db.IOErrors, "each failed request is one failed read command")
	require.Zero(t, db.Requests, "no read succeeds")
	require.Contains(t, db.FirstIOError, "critical medium error on read of 16384 bytes at sector ")
	require.Contains(t, db.FirstIOError, "Unrecovered Read Error")
	require.Equal(t, uint64(x.Uncorrectable), r.Health.Log.MediaErrors)
	require.False(t, r.Health.ReadOnly)
	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text))
	out := text.String()
	require.Contains(t, out, fmt.Sprintf("- %d page reads could not be corrected even after every read-retry step (flash.die.faults.read.max_retries = 1); %d host read commands failed with Unrecovered Read Error.",
		x.Uncorrectable, x.FailedReads))
	require.Contains(t, out, fmt.Sprintf("- db-s: %d requests failed with an I/O error", db.IOErrors))
	require.NotContains(t, out, "sct 2")
}

// TestRunReadOnlyReported: apache-u's uploads on a device whose every program fails. The
// first die past its spare pool puts the drive in read-only mode; the run completes, the
// uploads failing from then on counted as I/O errors, and the output reports it: the
// statistics rows, the JSON health (read only, critical warning 0x0D: spare below
// threshold, reliability degraded, read-only) and the sentence saying when, which die and
// why, and how many commands were refused.
//
// The drive must program to fail: FD's background eviction runs under the share rule
// (firmware.buffer.background_set share, four programs in flight whenever anything is
// dirty), because under the default, per-eviction, FD programs nothing until its buffer
// fills, which apache-u's uploads alone do not do in 300 ms.
func TestRunReadOnlyReported(t *testing.T) {
	c, sc := setup(t, "fd", "apache-u", 300*sim.Millisecond,
		append(smallSets, "flash.die.faults.program_fail=1", "firmware.buffer.background_set=share")...)
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	h := r.Health
	require.True(t, h.ReadOnly)
	require.Equal(t, "used up its spare pool", h.ReadOnlyReason)
	require.Equal(t, uint8(0x0D), h.Log.CriticalWarning)
	require.Positive(t, r.Faults.RefusedWrites)
	require.Positive(t, r.App("apache-u").IOErrors)
	notes := r.Notes()
	require.NotEmpty(t, notes)
	require.True(t, strings.HasPrefix(notes[0], "The drive went read-only at "), notes[0])
	require.Contains(t, notes[0], fmt.Sprintf("die %d used up its spare pool (%d grown bad blocks; its spare pool is %d blocks", h.ReadOnlyDie, h.GrownBad, h.SparePool))
	require.Contains(t, notes[0], fmt.Sprintf("refused %d commands that would write", r.Faults.RefusedWrites))
	b, err := json.Marshal(r.JSON())
	require.NoError(t, err)
	var j struct {
		Health struct {
			ReadOnly        bool  `json:"read_only"`
			CriticalWarning uint8 `json:"critical_warning"`
			RefusedWrites   int64 `json:"refused_writes"`
		} `json:"health"`
		Notes []string `json:"fault_notes"`
	}
	require.NoError(t, json.Unmarshal(b, &j))
	require.True(t, j.Health.ReadOnly)
	require.Equal(t, uint8(0x0D), j.Health.CriticalWarning)
	require.Equal(t, r.Faults.RefusedWrites, j.Health.RefusedWrites)
	require.Equal(t, notes, j.Notes)
	rows := map[string]string{}
	for _, row := range r.StatsTable().Rows {
		rows[row[0]] = row[1]
	}
	require.Equal(t, "1 / "+report.Duration(h.ReadOnlyAt), rows["drive read-only / since"])
	require.Equal(t, "0 / 13", rows["SMART available spare % / critical warning"])
	vals := map[string]float64{}
	for _, v := range r.StatValues() {
		vals[v.Name] = v.Value
	}
	require.Equal(t, 1.0, vals["read_only"])
	require.Equal(t, 13.0, vals["critical_warning"])
	require.Equal(t, float64(r.Faults.RefusedWrites), vals["commands_refused_read_only"])
	require.Equal(t, float64(h.ReadOnlyAt)/1e6, vals["read_only_at_us"])
	require.Equal(t, float64(h.SparePool), vals["spare_blocks_a_die"])
}

// TestRunFaultsWithinThePoolNoNotes: a fault model that fails nothing in the run (program
// failures 1 in 10⁹) adds the health rows but no sentence: nothing happened.
func TestRunFaultsWithinThePoolNoNotes(t *testing.T) {
	c, sc := setup(t, "fd", "apache-u", 100*sim.Millisecond, append(smallSets, "flash.die.faults.program_fail=1e-9")...)
	r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	require.NotNil(t, r.Health)
	require.False(t, r.Health.ReadOnly)
	require.Empty(t, r.Notes())
	require.Equal(t, 100, r.Health.AvailableSpare)
}

// TestRunFaultSweepLong (long tier): whole-stack runs of apache-u for 10 simulated seconds
// on the tiny preset, preconditioned 90 % full so GC runs (about 90 victims in a fault-free
// run), with a spare pool of 8 blocks a die (the most its over-provisioning allows: 64
// blocks − 48 for its share of the logical space − 2 planes × (3 + 1) for GC), at program
// and erase failure rates from none to every operation. Within the pool the run completes
// with the data check on (every page apache-u wrote reads back from the device as
// written); past it the drive is read-only and the run says so. No rate panics or hangs.
func TestRunFaultSweepLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "whole-stack runs at 10 failure rates, about half a minute")
	for _, c := range []struct {
		set            string
		within, beyond bool // expected to stay writable, to go read-only
	}{{"flash.die.faults.program_fail=0", true, false}, {"flash.die.faults.program_fail=0.0005", true, false},
		{"flash.die.faults.erase_fail=0.01", true, false}, {"flash.die.faults.program_fail=0.005", false, false},
		{"flash.die.faults.program_fail=0.012", false, false}, {"flash.die.faults.program_fail=0.05", false, true},
		{"flash.die.faults.program_fail=1", false, true}, {"flash.die.faults.erase_fail=0.2", false, false},
		{"flash.die.faults.erase_fail=0.5", false, true}, {"flash.die.faults.erase_fail=1", false, true}} {
		t.Run(c.set, func(t *testing.T) {
			cfg, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "fd",
				Sets: []string{"precondition.fill=0.9", "firmware.ftl.spare_blocks=8", c.set}})
			require.NoError(t, err)
			sc, err := apps.LookupScenario("apache-u")
			require.NoError(t, err)
			sc.Duration = 10 * sim.Second
			r, err := Run(Options{Label: "fd", Config: cfg, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}, CheckData: c.within})
			require.NoError(t, err)
			readOnly := r.Health != nil && r.Health.ReadOnly // no Health without a fault model (rate 0)
			if c.within {
				require.False(t, readOnly)
				require.Positive(t, r.DataChecked)
			}
			if c.beyond {
				require.True(t, readOnly)
			}
			if readOnly {
				require.True(t, strings.HasPrefix(r.Notes()[0], "The drive went read-only"))
				require.Positive(t, r.App("apache-u").IOErrors)
			}
			t.Logf("read-only %v, GC runs %d, %+v", readOnly, r.Firmware.GCRuns, r.Faults)
		})
	}
}
