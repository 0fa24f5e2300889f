package firmware

import (
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// lbaCmd issues one command counted in the rig's logical blocks and waits for it: a read or
// write of nlb blocks from slba whose data's 4 KiB pages carry words[i] in their first
// eight bytes (a write's, or filled in by a read); a Write Zeroes of nlb blocks; or a
// Dataset Management deallocate of ranges, each {slba, nlb} (r.cmd takes whole pages and
// one range).
func (r *rig) lbaCmd(p *sim.Proc, op nvme.Opcode, slba int64, nlb int, words []uint64, ranges [][2]int64) nvme.Status {
	for len(r.free) == 0 {
		p.Wait(&r.slotSig)
	}
	cid := r.free[len(r.free)-1]
	r.free = r.free[:len(r.free)-1]
	rq := r.slots[cid]
	rq.done = false
	n := nlb * r.ctrl.Spec().LBASize
	var b [8]byte
	if op == nvme.OpWrite {
		for i, w := range words {
			binary.LittleEndian.PutUint64(b[:], w)
			r.mem.Write(rq.buf+uint64(i*4096), b[:])
		}
	}
	var e nvmectrl.SQE
	var prp1, prp2 uint64
	switch op {
	case nvme.OpRead, nvme.OpWrite:
		var err error
		prp1, prp2, _, err = nvmectrl.BuildPRP(r.mem, rq.buf, n, rq.lists)
		require.NoError(r.t, err)
	case nvme.OpDatasetManagement:
		for i, rg := range ranges {
			var d [16]byte
			binary.LittleEndian.PutUint32(d[4:], uint32(rg[1]))
			binary.LittleEndian.PutUint64(d[8:], uint64(rg[0]))
			r.mem.Write(rq.buf+uint64(16*i), d[:])
		}
		prp1, nlb = rq.buf, 1
	}
	e.SetRW(op, cid, 1, prp1, prp2, uint64(slba), max(nlb, 1))
	if op == nvme.OpDatasetManagement {
		e.SetDW(10, uint32(len(ranges)-1)) // number of ranges, 0's based
		e.SetDW(11, 1<<2)                  // attribute: deallocate
		e.SetDW(12, 0)
	}
	r.mem.WriteSQE(r.sqBase+uint64(r.tail)*nvmectrl.SQESize, &e)
	if r.tail++; r.tail == r.size {
		r.tail = 0
	}
	r.ctrl.RingSQ(p.Now(), 1, r.tail)
	for !rq.done {
		p.Wait(&rq.sig)
	}
	if op == nvme.OpRead {
		for i := range words {
			r.mem.Read(rq.buf+uint64(i*4096), b[:])
			words[i] = binary.LittleEndian.Uint64(b[:])
		}
	}
	r.free = append(r.free, cid)
	r.slotSig.Notify()
	return rq.status
}

// readWords reads pages first … first+n−1 one at a time with 512-byte LBAs and
// returns their data words.
func (r *rig) readWords(p *sim.Proc, first int64, n int) []uint64 {
	got := make([]uint64, n)
	for i := range got {
		w := []uint64{0}
		require.Equal(r.t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpRead, (first+int64(i))*8, 8, w, nil))
		got[i] = w[0]
	}
	return got
}

// TestWriteZeroesPartialPages (issue 22, hole 7): with 512-byte LBAs (8 per 4 KiB page),
// Write Zeroes of part of a page must leave its range reading zeroes (NVMe base
// specification, Write Zeroes). Pages 0–5 hold A+0 … A+5. By hand, in LBAs:
//
//	zeroes 0–3   (page 0, sectors 0–3):       page 0's word is zeroed → reads 0
//	zeroes 9–15  (page 1, sectors 1–7):       sector 0 untouched → page 1 reads A+1
//	zeroes 20–27 (page 2 sectors 4–7, page 3 sectors 0–3): page 2 reads A+2, page 3 reads 0
//	zeroes 32–47 (pages 4 and 5 whole):       trimmed → 0, 0
//	zeroes 56–60 (page 7, never written):     unmapped, stays 0, no read-modify-write
//
// Pages 0, 1, 2 and 3 are read-modify-written (4 page writes on top of the 6), pages 4–5
// trimmed. The data is first pushed to flash (flush, then 300 other pages through the
// 256-page buffer), so the read-modify-writes read the old pages from flash; the results
// are checked in the buffer and again from flash after the same push.
func TestWriteZeroesPartialPages(t *testing.T) {
	r := newRigLBA(t, smallSpec(Vanilla, "sequential"), nil, 512)
	const a = uint64(0xA000)
	push := func(p *sim.Proc, base int64) {
		r.lbaCmd(p, nvme.OpFlush, 0, 0, nil, nil)
		for i := int64(0); i < 300; i++ {
			require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpWrite, (base+i)*8, 8, []uint64{Stamp(base+i, 1)}, nil))
		}
		r.lbaCmd(p, nvme.OpFlush, 0, 0, nil, nil)
	}
	want := []uint64{0, a + 1, a + 2, 0, 0, 0, 0, 0}
	var inBuf, onFlash []uint64
	var rmw, flashReads int64
	r.eng.Spawn("host", func(p *sim.Proc) {
		words := []uint64{a, a + 1, a + 2, a + 3, a + 4, a + 5}
		require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpWrite, 0, 48, words, nil))
		push(p, 1000)
		before, reads := r.fw.Stats.WritePages, arrayReads(r)
		for _, z := range [][2]int64{{0, 4}, {9, 7}, {20, 8}, {32, 16}, {56, 5}} {
			require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpWriteZeroes, z[0], int(z[1]), nil, nil))
		}
		rmw, flashReads = r.fw.Stats.WritePages-before, arrayReads(r)-reads
		inBuf = r.readWords(p, 0, 8)
		push(p, 2000)
		onFlash = r.readWords(p, 0, 8)
	})
	r.eng.Run()
	require.Equal(t, int64(4), rmw, "pages 0–3 read-modify-written")
	require.Equal(t, int64(4), flashReads, "their old data read from flash")
	require.Equal(t, want, inBuf)
	require.Equal(t, want, onFlash)
	require.NoError(t, r.fw.FTL().Check())
}

// arrayReads returns the pages the rig's dies have read.
func arrayReads(r *rig) int64 {
	var n int64
	for _, ch := range r.chans {
		for d := 0; d < ch.Spec().Dies; d++ {
			for _, k := range ch.Die(d).Stats().Reads {
				n += k
			}
		}
	}
	return n
}

// TestDeallocateMultiRange: one Dataset Management command with several ranges trims every
// page wholly inside any of them and leaves the rest (a deallocate of part of a page is
// advisory: NVMe lets the controller keep such data, and this firmware does). With
// 512-byte LBAs, pages 0–7 holding B+0 … B+7, by hand:
//
//	range {0, 16}:  LBAs 0–15 = pages 0, 1 whole → trimmed
//	range {20, 24}: LBAs 20–43 = bytes 10,240 … 22,527: pages 3, 4 whole (12,288 … 20,479)
//	                → trimmed; page 2 (sectors 4–7) and page 5 (sectors 0–3) kept
//	range {57, 1}:  one sector of page 7 → kept
//
// so the pages read 0, 0, B+2, 0, 0, B+5, B+6, B+7. With 4 KiB LBAs the same command shape
// with ranges {1, 2}, {6, 1} and {4, 0} (length 0 trims nothing) leaves
// B+0, 0, 0, B+3, B+4, B+5, 0, B+7.
func TestDeallocateMultiRange(t *testing.T) {
	const b = uint64(0xB000)
	words := func() []uint64 {
		w := make([]uint64, 8)
		for i := range w {
			w[i] = b + uint64(i)
		}
		return w
	}
	cases := []struct {
		lba    int
		ranges [][2]int64
		want   []uint64
	}{
		{512, [][2]int64{{0, 16}, {20, 24}, {57, 1}}, []uint64{0, 0, b + 2, 0, 0, b + 5, b + 6, b + 7}},
		{4096, [][2]int64{{1, 2}, {6, 1}, {4, 0}}, []uint64{b, 0, 0, b + 3, b + 4, b + 5, 0, b + 7}},
	}
	for _, c := range cases {
		r := newRigLBA(t, smallSpec(Vanilla, "sequential"), nil, c.lba)
		per := int64(4096 / c.lba)
		got := make([]uint64, 8)
		var trims int64
		r.eng.Spawn("host", func(p *sim.Proc) {
			require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpWrite, 0, int(8*per), words(), nil))
			r.lbaCmd(p, nvme.OpFlush, 0, 0, nil, nil)
			require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpDatasetManagement, 0, 0, nil, c.ranges))
			trims = r.fw.Stats.Trims
			require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpRead, 0, int(8*per), got, nil))
		})
		r.eng.Run()
		require.Equal(t, c.want, got, "%d-byte LBAs", c.lba)
		require.Equal(t, int64(1), trims, "one command")
		require.NoError(t, r.fw.FTL().Check())
	}
}

// TestDeallocateRangeOutOfRange: a range past the namespace fails the command with LBA Out
// of Range, naming no page trimmed after it (ranges are served in order).
func TestDeallocateRangeOutOfRange(t *testing.T) {
	r := newRig(t, smallSpec(Vanilla, "sequential"), nil)
	var st nvme.Status
	got := make([]uint64, 2)
	r.eng.Spawn("host", func(p *sim.Proc) {
		require.Equal(t, nvme.StatusSuccess, r.lbaCmd(p, nvme.OpWrite, 0, 2, []uint64{1, 2}, nil))
		st = r.lbaCmd(p, nvme.OpDatasetManagement, 0, 0, nil, [][2]int64{{r.fw.LogicalPages() - 1, 2}, {0, 2}})
		r.lbaCmd(p, nvme.OpRead, 0, 2, got, nil)
	})
	r.eng.Run()
	require.Equal(t, nvme.StatusLBAOutOfRange, st)
	require.Equal(t, []uint64{1, 2}, got, "the range after the bad one is not served")
}
