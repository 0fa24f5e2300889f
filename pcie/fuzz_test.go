package pcie

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// FuzzLink books random operation sequences on random link configurations and checks the
// invariants: no overlapping busy intervals (sim.Resource panics on those), every arrival
// at least the operation's own wire time and latencies after it was issued, and each
// direction's recorded busy time equal to the exact time of all its TLP bytes to within one
// picosecond per transfer (rounding never accumulates). At most fuzzMaxOps operations are
// decoded, so an execution takes well under a millisecond.
func FuzzLink(f *testing.F) {
	f.Add([]byte{3, 4, 1, 1, 0, 0, 1, 10, 2, 20, 3, 30, 4, 40})
	f.Add([]byte{1, 0, 0, 0, 2, 255, 2, 255, 0, 1, 1, 1})
	f.Add([]byte{5, 16, 5, 5, 7, 200, 9, 3, 6, 128, 8, 64, 2, 2, 1, 0})
	// L1 on (entry 1.5 µs + 3 µs, exit 1.5 µs): a 2 B doorbell at 5.592 µs wakes the link
	// (starts at 7.092 µs), the next at 6.184 µs is issued during the exit and must follow
	// it (before the exit windows it was booked at 6.184 µs and passed it).
	f.Add([]byte{34, 0x22, 0x62, 1, 0x82, 1, 0x82, 1})
	// L0s and L1 on, every kind of operation.
	f.Add([]byte{50, 0x62, 0x72, 2, 0xf8, 3, 0x11, 4, 0x22, 5, 0x83, 6, 0xf4, 7, 0x10, 8})
	f.Fuzz(checkOps)
}

// fuzzMaxOps bounds the operations one FuzzLink input books (2 bytes each). 256 still
// builds long backlogs of pending bookings (an operation advances time by at most 1.1 µs,
// a 64 KiB read on a Gen1 ×1 link takes ≈ 260 µs), so gap filling and commits are
// exercised, while an execution stays short: 2,046 operations with a require call each
// took ≈ 1.4 ms.
const fuzzMaxOps = 256

// checkOps decodes a spec and an operation sequence from data and checks FuzzLink's invariants.
func checkOps(t *testing.T, data []byte) {
	if len(data) < 4 {
		return
	}
	data = data[:min(len(data), 4+2*fuzzMaxOps)]
	s := DefaultSpec()
	s.Gen = 1 + int(data[0])%5
	s.Lanes = 1 << (data[1] % 5)
	s.MPS = 128 << (data[2] % 6)
	s.MRRS = 128 << (data[3] % 6)
	s.RCBChunks = data[2]&8 != 0
	s.DLLPOverhead = data[3]&8 == 0
	s.DLLPSymbolTimes = data[3]&16 != 0
	s.ECRC = data[0]&8 != 0
	s.Addr64 = data[1]&8 == 0
	// ASPM from bits 4 and 5 of data[0] (L0s, L1), entry and exit times from data[1] and
	// data[2]'s high bits: entries 0.5–8 µs, exits 0–3.5 µs, of the order of the ops' spacing
	// so that exits overlap later operations.
	s.ASPM.L0s, s.ASPM.L1 = data[0]&16 != 0, data[0]&32 != 0
	s.ASPM.L0sEntry = sim.Time(1+data[1]>>4) * 500 * sim.Nanosecond
	s.ASPM.L1Entry = s.ASPM.L0sEntry + sim.Time(data[2]>>4)*500*sim.Nanosecond
	s.ASPM.L0sExit = sim.Time(data[1]>>5) * 500 * sim.Nanosecond
	s.ASPM.L1Exit = sim.Time(data[2]>>5) * 500 * sim.Nanosecond
	require.NoError(t, s.Validate())
	l := NewLink("f", s)

	// Posted writes of one size in one direction issued in time order arrive in that order
	// (PCIe base spec §2.4, transaction ordering: a posted write does not pass a posted
	// write); writes of different sizes may be placed in different gaps, so only equal
	// sizes are compared.
	type posted struct{ now, got sim.Time }
	lastPosted := map[[2]int]posted{}
	inOrder := func(dir, n int, now, got sim.Time) {
		k := [2]int{dir, n}
		if p, ok := lastPosted[k]; ok && now >= p.now && got < p.got {
			t.Fatalf("posted write of %d bytes (direction %d) issued at %v arrives at %v, before the one issued at %v (arrives %v)",
				n, dir, now, got, p.now, p.got)
		}
		lastPosted[k] = posted{now, got}
	}
	var base, last sim.Time
	for ops := data[4:]; len(ops) >= 2; ops = ops[2:] {
		op, arg := ops[0], int(ops[1])
		base += sim.Time(op>>3) * 37 * sim.Nanosecond
		now := base
		if op&0x80 != 0 {
			now += 5 * sim.Microsecond // a caller booking ahead of the engine
		}
		n := 1 + arg*arg
		var got, min sim.Time
		switch op % 5 {
		case 0:
			got, min = l.MMIOWrite(now, n), s.TLPTime(s.WriteTLPBytes(n))+s.Latency
			inOrder(0, n, now, got)
		case 1:
			got, min = l.DMAWrite(now, n), s.TLPTime(s.WriteTLPBytes(n))+s.Latency
			inOrder(1, n, now, got)
		case 2:
			got, min = l.MSIX(now), s.TLPTime(s.WriteTLPBytes(4))+s.Latency
			inOrder(1, 4, now, got)
		case 3:
			got, min = l.DMARead(now, n), s.TLPTime(s.CompletionBytes(n))+2*s.Latency
		case 4:
			got, min = l.HostDMARead(now, n), s.TLPTime(s.CompletionBytes(n))+2*s.Latency
		}
		// A plain comparison, not require: this runs for every operation, and require's
		// eager formatting of sim.Time values made up most of an execution.
		if got < now+min {
			t.Fatalf("op %d of %d bytes issued at %v arrives at %v, before %v", op%5, n, now, got, now+min)
		}
		last = max(last, got)
	}
	l.Sync(sim.MaxTime)
	for _, d := range []struct {
		r  *sim.Resource
		st Stats
	}{{l.Down, l.DownStats}, {l.Up, l.UpStats}} {
		busy := d.r.TotalBusyAt(last)
		exact := s.TLPTime(int(d.st.TLPBytes()))
		require.InDelta(t, int64(exact), int64(busy), float64(d.st.Transfers), d.r.Name())
	}
}
