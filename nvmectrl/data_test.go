package nvmectrl

import (
	"fmt"
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// oneCommand runs one SQE, built by mk in the rig's host memory, on SQ1 at time 0 with
// firmware fw. It also returns a reference link on which the doorbell and the SQE fetch
// have been replayed, and the fetch's arrival time.
func oneCommand(t *testing.T, s Spec, mk func(r *rig) SQE, fw func(r *rig, now sim.Time, cmd *Command)) (*rig, *pcie.Link, sim.Time) {
	r := newRig(t, s, ArbRoundRobin)
	r.addPair(t, 1, 16, 16, PrioMedium, 1)
	r.fw.onSubmit = func(now sim.Time, cmd *Command) { fw(r, now, cmd) }
	e := mk(r)
	r.at(0, func() {
		r.host.push(1, &e)
		r.host.ring(0, 1)
	})
	r.eng.Run()
	ref := refLink()
	return r, ref, ref.DMARead(edge(ref.MMIOWrite(0, 4)), SQESize)
}

// TestReadHostDataWithPRPList: a 128 KiB Write has PRP1 plus a 31-entry list (docs/sources.md
// §1.7). Moving it all at once costs a 248 B list read, then one 128 KiB DMA read (the
// buffer is contiguous).
func TestReadHostDataWithPRPList(t *testing.T) {
	var got sim.Time
	var dataLen int
	r, ref, fetched := oneCommand(t, testSpec(),
		func(r *rig) SQE { return r.rw(t, OpWrite, 9, 256) }, // 256 × 512 B = 128 KiB
		func(r *rig, now sim.Time, cmd *Command) {
			dataLen = cmd.DataLen
			got = r.c.ReadHostData(now, cmd, 0, cmd.DataLen)
			r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None)
		})
	require.Equal(t, 128<<10, dataLen)
	list := ref.DMARead(fetched, 31*8)
	require.Equal(t, ref.DMARead(list, 128<<10), got)
	require.Equal(t, int64(248), r.c.Stats.ListBytes)
	require.Equal(t, int64(128<<10), r.c.Stats.DataRead)
}

// TestReadHostDataChunked moves the same Write 4 KiB at a time, all booked at the fetch
// time: chunk 0 needs only PRP1; chunk 1 needs the list, read once; the rest reuse it.
func TestReadHostDataChunked(t *testing.T) {
	var got []sim.Time
	r, ref, fetched := oneCommand(t, testSpec(),
		func(r *rig) SQE { return r.rw(t, OpWrite, 9, 256) },
		func(r *rig, now sim.Time, cmd *Command) {
			for off := 0; off < cmd.DataLen; off += PageSize {
				got = append(got, r.c.ReadHostData(now, cmd, off, PageSize))
			}
			r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None)
		})
	var want []sim.Time
	want = append(want, ref.DMARead(fetched, PageSize))
	list := ref.DMARead(fetched, 248)
	want = append(want, ref.DMARead(list, PageSize))
	for range 30 {
		want = append(want, ref.DMARead(fetched, PageSize))
	}
	require.Equal(t, want, got)
	require.Equal(t, int64(248), r.c.Stats.ListBytes)
}

// TestWriteHostDataBeforeCQE: a 128 KiB Read's data is written to the host, and the
// firmware completes at once; the CQE and interrupt arrive after the data (posted writes
// stay in order).
func TestWriteHostDataBeforeCQE(t *testing.T) {
	var dataAt sim.Time
	r, ref, fetched := oneCommand(t, testSpec(),
		func(r *rig) SQE { return r.rw(t, OpRead, 3, 256) },
		func(r *rig, now sim.Time, cmd *Command) {
			dataAt = r.c.WriteHostData(now, cmd, 0, cmd.DataLen)
			r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.Mid)
		})
	list := ref.DMARead(fetched, 248)
	require.Equal(t, ref.DMAWrite(list, 128<<10), dataAt)
	// The data write was issued at the list's arrival, so the CQE and MSI-X are issued then
	// too, behind it.
	w := ref.DMAWrite(list, CQESize)
	m := ref.MSIX(list)
	require.Equal(t, []sim.Time{max(w, m)}, r.host.irqs)
	require.Greater(t, r.host.irqs[0], dataAt)
	require.Equal(t, int64(128<<10), r.c.Stats.DataWritten)
}

func TestCopyHostData(t *testing.T) {
	pattern := make([]byte, 3*PageSize)
	for i := range pattern {
		pattern[i] = byte(i * 7)
	}
	var buf uint64
	out := make([]byte, len(pattern)-100)
	oneCommand(t, testSpec(),
		func(r *rig) SQE {
			e := r.rw(t, OpWrite, 1, 24) // 12 KiB
			buf = e.PRP1()
			r.mem.Write(buf, pattern)
			return e
		},
		func(r *rig, now sim.Time, cmd *Command) {
			r.c.CopyFromHost(cmd, 100, out)
			// Uint64FromHost is the little-endian value of the same 8 bytes, inside a
			// page and across a page boundary (PageSize−4).
			for _, off := range []int{0, 100, PageSize - 8, PageSize - 4, 2*PageSize + 8, 3*PageSize - 8} {
				var want uint64
				for i := 7; i >= 0; i-- {
					want = want<<8 | uint64(pattern[off+i])
				}
				require.Equal(t, want, r.c.Uint64FromHost(cmd, off), "offset %d", off)
			}
			require.Panics(t, func() { r.c.Uint64FromHost(cmd, 3*PageSize-7) })
			r.c.CopyToHost(cmd, 0, []byte{0xAA, 0xBB})
			require.Panics(t, func() { r.c.CopyFromHost(cmd, 12*1024-1, make([]byte, 2)) })
			r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None)
			require.Panics(t, func() { r.c.ReadHostData(now, cmd, 0, 1) }, "completed command")
		})
	require.Equal(t, pattern[100:], out)
}

// TestCarriers checks both ends of the hint protocol through the controller: the Write's
// hint decoded into Command.Hint, the level encoded into the CQE.
func TestCarriers(t *testing.T) {
	cases := []struct {
		hint   HintCarrier
		status StatusCarrier
		sqhd   uint16
		dw1    uint32
	}{
		{HintCDW13, StatusSQHD, 2, 0},         // SQHD replaced by bufferlevel.High
		{HintCDW2, StatusDW1, 1, 0x8000_0002}, // real SQHD (1 entry consumed), level in DW1
		{HintNone, StatusNone, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.hint.String()+"/"+c.status.String(), func(t *testing.T) {
			s := testSpec()
			s.HintCarrier, s.StatusCarrier = c.hint, c.status
			var hint Hint
			r, _, _ := oneCommand(t, s,
				func(r *rig) SQE {
					e := r.rw(t, OpWrite, 5, 8)
					c.hint.Encode(&e, Hint{Victim: true, Pages: 1234})
					return e
				},
				func(r *rig, now sim.Time, cmd *Command) {
					hint = cmd.Hint
					r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.High)
				})
			if c.hint == HintNone {
				require.Equal(t, Hint{}, hint)
			} else {
				require.Equal(t, Hint{Victim: true, Pages: 1234}, hint)
			}
			e := r.host.seen[0].cqe
			require.Equal(t, c.sqhd, e.SQHD())
			require.Equal(t, c.dw1, e.DW1())
			if c.status != StatusNone {
				l, ok := c.status.Decode(&e)
				require.True(t, ok)
				require.Equal(t, bufferlevel.High, l)
			}
		})
	}
}

// TestRejectedCommands: the controller fails malformed I/O commands itself.
func TestRejectedCommands(t *testing.T) {
	cases := []struct {
		name string
		mk   func(r *rig) SQE
		want Status
	}{
		{"sgl", func(r *rig) SQE { e := r.rw(t, OpRead, 1, 8); e.SetPSDT(1); return e }, StatusInvalidField},
		{"fused", func(r *rig) SQE { e := r.rw(t, OpRead, 1, 8); e.SetFuse(1); return e }, StatusInvalidField},
		// 257 × 512 B = 128.5 KiB > MDTS 128 KiB.
		{"mdts", func(r *rig) SQE { e := r.rw(t, OpRead, 1, 8); e.SetBlocks(257); return e }, StatusInvalidField},
		{"prp1 zero", func(r *rig) SQE { e := r.rw(t, OpRead, 1, 8); e.SetPRP1(0); return e }, StatusInvalidField.WithDNR()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _, _ := oneCommand(t, testSpec(), c.mk, func(*rig, sim.Time, *Command) {
				t.Fatal("a rejected command reached the firmware")
			})
			require.Len(t, r.host.seen, 1)
			require.Equal(t, c.want, r.host.seen[0].cqe.Status())
		})
	}
}

func TestProtocolViolationsPanic(t *testing.T) {
	r, _, _ := oneCommand(t, testSpec(),
		func(r *rig) SQE { return r.rw(t, OpRead, 1, 8) },
		func(r *rig, now sim.Time, cmd *Command) {
			r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None)
			require.PanicsWithValue(t, fmt.Sprintf("nvmectrl nvme at %v: Complete of slot 0 (SQ 1 CID 1): not held or already completed", now),
				func() { r.c.Complete(now, cmd, StatusSuccess, 0, bufferlevel.None) })
		})
	_ = r
	r2 := newRig(t, testSpec(), ArbRoundRobin)
	r2.addPair(t, 1, 4, 4, PrioMedium, 1)
	// Head doorbell past the tail: nothing was posted.
	r2.at(0, func() { r2.c.RingCQ(0, 1, 2) })
	require.Panics(t, func() { r2.eng.Run() })
}
