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
