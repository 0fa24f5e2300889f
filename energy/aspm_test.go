package energy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// aspmRig is newRig with a real Gen3 x4 link whose L1 is entered after 5 µs of idle and
// left in 3 µs (the brief's example), its directions and residency read by the meter.
func aspmRig(t *testing.T) (*Meter, *pcie.Link) {
	r := newRig()
	spec := pcie.DefaultSpec()
	spec.ASPM.L1, spec.ASPM.L1Entry, spec.ASPM.L1Exit = true, 5*us, 3*us
	link := pcie.NewLink("pcie", spec)
	r.parts.PCIe = spec
	r.parts.Link = [2]*sim.Resource{link.Down, link.Up}
	r.parts.Sync, r.parts.Residency = link.Sync, link.Residency
	m, err := New(DefaultSpec(), r.parts)
	require.NoError(t, err)
	return m, link
}

// TestASPMIdleEnergy: a link idle for 10 µs, then one 4 KiB read. By hand, per lane and
// direction (4 lanes × 2 directions = 8), with the defaults 30 mW in L0 and 3 mW in L1:
// the gap [0, 10 µs) is 5 µs in L0 then 5 µs in L1:
//
//	L0 standby 8 × 30 mW × 5 µs = 1.2 µJ, L1 standby 8 × 3 mW × 5 µs = 0.12 µJ,
//
// against 8 × 30 mW × 10 µs = 2.4 µJ with ASPM off. Readings split the gap (as the
// meter's buckets do): at 3 µs nothing is in L1 yet; at 8 µs, 3 µs is (72 nJ).
func TestASPMIdleEnergy(t *testing.T) {
	m, link := aspmRig(t)
	l0, l0s, l1 := rowIndex(PCIeLink, "L0 standby"), rowIndex(PCIeLink, "L0s standby"), rowIndex(PCIeLink, "L1 standby")

	at3 := m.Read(3 * us)
	require.InEpsilon(t, 8*0.030*3e-6, at3.J[l0], 1e-9)
	require.Zero(t, at3.J[l1])
	at8 := m.Read(8 * us)
	require.InEpsilon(t, 8*0.030*5e-6, at8.J[l0], 1e-9)
	require.InEpsilon(t, 8*0.003*3e-6, at8.J[l1], 1e-9)
	at10 := m.Read(10 * us)
	require.InEpsilon(t, 1.2e-6, at10.J[l0], 1e-9)
	require.InEpsilon(t, 0.12e-6, at10.J[l1], 1e-9)
	require.Zero(t, at10.J[l0s])

	// The read at 10 µs closes the gap: the exit and the read are in L0. Reading at its
	// arrival c, the link has been in L0 for c − 5 µs and in L1 for 5 µs.
	c := link.DMARead(10*us, 4096)
	atC := m.Read(c)
	require.InEpsilon(t, 0.12e-6, atC.J[l1], 1e-9)
	require.InEpsilon(t, 8*0.030*(c-5*us).Seconds(), atC.J[l0], 1e-9)
}

// TestASPMRowsShownOnlyWithASPM: without pcie.aspm the table has no L0s or L1 rows, so
// results are as before; with it, both appear.
func TestASPMRowsShownOnlyWithASPM(t *testing.T) {
	eng := sim.NewEngine()
	off, err := New(DefaultSpec(), newRig().parts)
	require.NoError(t, err)
	off.Start(eng)
	a := off.Stop(us)
	require.NotContains(t, text(t, a), "L1 standby")

	on, _ := aspmRig(t)
	on.Start(eng)
	b := on.Stop(us)
	s := text(t, b)
	require.True(t, strings.Contains(s, "L0s standby") && strings.Contains(s, "L1 standby"), s)
}

// text is an account's table as text.
func text(t *testing.T, a *Account) string {
	var sb strings.Builder
	require.NoError(t, a.Table("t").WriteText(&sb))
	return sb.String()
}

// TestValidatePCIeStatePowers: L0s draws no more than L0, L1 no more than L0s.
func TestValidatePCIeStatePowers(t *testing.T) {
	s := DefaultSpec()
	s.PCIe.L0sPowerPerLane = 40_000_000 // 40 mW > L0's 30 mW
	require.ErrorContains(t, s.Validate(), "energy.pcie.l0s_power_per_lane: ")
	s = DefaultSpec()
	s.PCIe.L1PowerPerLane = 20_000_000 // 20 mW > L0s's 15 mW
	require.ErrorContains(t, s.Validate(), "energy.pcie.l1_power_per_lane: ")
}
