package pcie

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

const us = sim.Microsecond

// aspmSpec is noDLLP with the given ASPM states and timings.
func aspmSpec(l0s, l1 bool, l0sEntry, l0sExit, l1Entry, l1Exit sim.Time) Spec {
	s := noDLLP()
	s.ASPM = ASPM{L0s: l0s, L1: l1, L0sEntry: l0sEntry, L0sExit: l0sExit, L1Entry: l1Entry, L1Exit: l1Exit}
	return s
}

// TestASPML1ExitDelaysRead is the brief's example: a link idle for 10 µs, then one 4 KiB
// read, with L1 entered after 5 µs of idle and left in 3 µs.
func TestASPML1ExitDelaysRead(t *testing.T) {
	// The idle gap [0, 10 µs) is 5 µs in L0 then 5 µs in L1; the read's request waits the
	// 3 µs exit, and so does everything after it: the completion is 3 µs later.
	off := NewLink("off", noDLLP()).DMARead(10*us, 4096)
	on := NewLink("on", aspmSpec(false, true, 7*us, us, 5*us, 3*us))
	require.Equal(t, Residency{L1: 5 * us}, on.Residency(10*us))
	require.Equal(t, off+3*us, on.DMARead(10*us, 4096))
	// The gap is closed at 5 µs of L1; the exit (3 µs) and the read are in L0.
	require.Equal(t, Residency{L1: 5 * us}, on.Residency(14*us))

	// A 4 KiB posted write (read data to the host) in absolute terms: 10 µs + 3 µs exit +
	// 16 TLPs × 280 B × 65000/256 ps = 1 137 500 ps + 400 ns latency (TestDMAWrite4KiB).
	w := NewLink("on", aspmSpec(false, true, 7*us, us, 5*us, 3*us))
	require.Equal(t, 13*us+1_137_500+latency, w.DMAWrite(10*us, 4096))
	// The next write 2 µs after the first ended (idle < 5 µs) pays nothing:
	// it starts at 13 µs + 1 137 500 ps + 2 µs.
	end := 13*us + 1_137_500
	require.Equal(t, end+2*us+1_137_500+latency, w.DMAWrite(end+2*us, 4096))
}

// TestASPML0sPerDirection: L0s is per direction, so a direction that just carried a TLP
// pays no exit while the other, idle longer than the entry time, does.
func TestASPML0sPerDirection(t *testing.T) {
	// L0s entry 2 µs, exit 1 µs, no L1. At 0 the host writes 4 KiB down (busy until
	// 1 137 500 ps); at 3 µs the device writes 4 KiB up. Up has been idle since 0, 3 µs ≥
	// 2 µs: it was in L0s over [2 µs, 3 µs) and its write starts at 4 µs. Down has been
	// idle since 1 137 500 ps: it enters L0s at 3 137 500 ps.
	l := NewLink("l0s", aspmSpec(true, false, 2*us, us, 30*us, 4*us))
	require.Equal(t, 1_137_500+latency, l.MMIOWrite(0, 4096))
	require.Equal(t, 4*us+1_137_500+latency, l.DMAWrite(3*us, 4096))
	// At 10 µs: down in L0s for 10 − 3.1375 = 6.8625 µs; up for the closed 1 µs plus, idle
	// from 4 µs + 1 137 500 ps = 5 137 500 ps, entering at 7 137 500 ps: 2 862 500 ps more.
	require.Equal(t, Residency{L0s: [2]sim.Time{6_862_500, us + 2_862_500}}, l.Residency(10*us))
	// A down write at 3 µs would have paid nothing (idle 1.8625 µs < 2 µs); at 10 µs it
	// pays the 1 µs exit.
	require.Equal(t, 11*us+1_137_500+latency, l.MMIOWrite(10*us, 4096))
}

// TestASPML0sThenL1: with both states on, an idle link goes L0 → L0s → L1 in each
// direction, and the L1 exit wakes both, so the read's completions pay no L0s exit.
func TestASPML0sThenL1(t *testing.T) {
	// Idle from 0; L0s after 2 µs, L1 after 5 µs; at 10 µs a read: per direction 2 µs L0,
	// 3 µs L0s, 5 µs L1, and the read is the L1 exit (3 µs) later than with ASPM off.
	off := NewLink("off", noDLLP()).DMARead(10*us, 4096)
	l := NewLink("both", aspmSpec(true, true, 2*us, us, 5*us, 3*us))
	want := Residency{L0s: [2]sim.Time{3 * us, 3 * us}, L1: 5 * us}
	require.Equal(t, want, l.Residency(10*us))
	require.Equal(t, off+3*us, l.DMARead(10*us, 4096))
	require.Equal(t, want, l.Residency(off+3*us))
}

// TestASPMOffChangesNothing: the default spec has ASPM off and the link never leaves L0.
func TestASPMOffChangesNothing(t *testing.T) {
	require.False(t, DefaultSpec().ASPM.On())
	l := NewLink("off", noDLLP())
	require.Equal(t, 10*us+1_137_500+latency, l.DMAWrite(10*us, 4096))
	require.Equal(t, Residency{}, l.Residency(sim.Second))
}

// TestASPMValidate names each bad field.
func TestASPMValidate(t *testing.T) {
	require.NoError(t, DefaultASPM().Validate())
	s := DefaultSpec()
	s.ASPM = ASPM{L1: true, L0sEntry: 0, L0sExit: -1, L1Entry: -5, L1Exit: -2}
	err := s.Validate()
	require.Error(t, err)
	for _, f := range []string{"pcie.aspm.l0s_entry: 0s must be positive", "pcie.aspm.l0s_exit", "pcie.aspm.l1_entry", "pcie.aspm.l1_exit"} {
		require.ErrorContains(t, err, f)
	}
}

// TestASPMExitKeepsPostedOrder is the regression test of the whole-stack panic with L1 on
// (nvmedrv "completion for command identifier 0, which is not in flight"): two SQ tail
// doorbells rung 2.5 µs apart, the first waking the link from L1, arrived in the reverse
// order, because the second was booked into the exit's idle-looking gap. Posted writes must
// not pass posted writes (PCIe base spec §2.4, transaction ordering), and an exit delays
// the link, it does not free it: nothing may use the wire before the exit ends.
func TestASPMExitKeepsPostedOrder(t *testing.T) {
	// Gen3 ×4, no DLLP share: a byte takes 8 b × 130/128 / 8 GT/s / 4 lanes = 65000/256 ps
	// = 253.90625 ps; a 4 B memory write is 4 + 16 header + 8 framing = 28 B = 7109.375 ps.
	// L1 entry 5 µs, exit 3 µs; the link idle from 0.
	l := NewLink("l1", aspmSpec(false, true, 7*us, us, 5*us, 3*us))
	// Doorbell A at 10 µs: the link is in L1 (since 5 µs); A starts at 13 µs and leaves the
	// wire at 13 µs + 7109.375 ps, arriving 400 ns later (rounded up to 7110 ps).
	require.Equal(t, 13*us+7110+latency, l.MMIOWrite(10*us, 4))
	// Doorbell B at 11 µs, during the exit: it follows A on the wire, from 13 µs + 7109.375
	// ps to 13 µs + 14 218.75 ps (14 219 ps rounded up). Before the fix it was placed at
	// 11 µs and arrived at 11 µs + 7110 ps + 400 ns, 2 µs before A.
	require.Equal(t, 13*us+14_219+latency, l.MMIOWrite(11*us, 4))
	// L1 retrains the whole link: an MSI-X (4 B posted write up) at 12 µs, still in the
	// exit, waits for its end too and starts at 13 µs on the idle up direction.
	require.Equal(t, 13*us+7110+latency, l.MSIX(12*us))
	// The exit is idle wire, not a booking: each direction records only its TLPs, 2 × 28 B
	// down (14 218.75 ps, recorded as 7110 + 7109 ps at whole-picosecond ends) and 28 B up.
	l.Sync(sim.MaxTime)
	require.Equal(t, sim.Time(14_219), l.Down.TotalBusyAt(sim.Second))
	require.Equal(t, sim.Time(7110), l.Up.TotalBusyAt(sim.Second))
	require.Equal(t, int64(2), l.DownStats.Transfers)
	require.Equal(t, int64(1), l.UpStats.Transfers)

	// L0s is per direction: with L0s entry 2 µs and exit 1 µs (no L1), a doorbell at 3 µs
	// starts at 4 µs; one at 3.5 µs follows it (from 4 µs + 7109.375 ps) instead of using
	// [3.5 µs, 4 µs). Down's exit does not hold up: an MSI-X at 1 µs (up idle 1 µs < 2 µs)
	// starts at once; one at 3.2 µs pays only up's own L0s exit (up idle since 1 µs +
	// 7109.375 ps, entered L0s 2 µs later, before 3.2 µs): it starts at 4.2 µs.
	s := NewLink("l0s", aspmSpec(true, false, 2*us, us, 30*us, 4*us))
	require.Equal(t, us+7110+latency, s.MSIX(us))
	require.Equal(t, 4*us+7110+latency, s.MMIOWrite(3*us, 4))
	require.Equal(t, 4*us+14_219+latency, s.MMIOWrite(3500*sim.Nanosecond, 4))
	require.Equal(t, 4200*sim.Nanosecond+7110+latency, s.MSIX(3200*sim.Nanosecond))
}
