package nvmedrv

import (
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/stretchr/testify/require"
)

// TestSQEBytes checks the 64 bytes the driver writes into the SQ ring against entries laid
// out by hand from docs/sources.md §1.1–1.2 and docs/design.md "The hint protocol": opcode byte 0, CID
// bytes 2–3, NSID 4–7, CDW2 8–11, PRP1 24–31, PRP2 32–39, SLBA 40–47, NLB 48–49 (0's
// based), FUA = CDW12 bit 30 = byte 51 bit 6, DSM byte 52, CDW13[15:8] byte 53, DSPEC 54–55.
// The namespace has 4 KiB blocks; the request is the first on the queue, so it gets
// command identifier 0 and slot 0's buffer (buf).
func TestSQEBytes(t *testing.T) {
	cases := []struct {
		name    string
		carrier nvmectrl.HintCarrier
		hintOff bool
		rq      blk.Request
		want    func(buf uint64, lists []uint64) []byte
	}{
		{"write 8KiB victim cdw13", nvmectrl.HintCDW13, false,
			blk.Request{Op: blk.OpWrite, Offset: 40 << 10, Size: 8 << 10, Hint: blk.Hint{Victim: true, Pages: 300}},
			func(buf uint64, _ []uint64) []byte {
				b := make([]byte, 64)
				b[0] = 0x01
				b[4] = 1
				binary.LittleEndian.PutUint64(b[24:], buf)
				binary.LittleEndian.PutUint64(b[32:], buf+4096) // two pages: PRP2 is data
				b[40] = 10                                      // 40 KiB / 4 KiB
				b[48] = 1                                       // 2 blocks, 0's based
				b[53] = 0x01                                    // victim flag
				b[54], b[55] = 300&0xFF, 300>>8                 // DSPEC = pages to flush
				return b
			}},
		{"write 8KiB victim cdw2", nvmectrl.HintCDW2, false,
			blk.Request{Op: blk.OpWrite, Offset: 40 << 10, Size: 8 << 10, Hint: blk.Hint{Victim: true, Pages: 300}},
			func(buf uint64, _ []uint64) []byte {
				b := make([]byte, 64)
				b[0] = 0x01
				b[4] = 1
				b[8], b[9], b[10] = 0x01, 300&0xFF, 300>>8 // flag bits 7:0, pages bits 31:8
				binary.LittleEndian.PutUint64(b[24:], buf)
				binary.LittleEndian.PutUint64(b[32:], buf+4096)
				b[40] = 10
				b[48] = 1
				return b
			}},
		{"victim pages saturate in DSPEC", nvmectrl.HintCDW13, false,
			blk.Request{Op: blk.OpWrite, Offset: 0, Size: 4096, Hint: blk.Hint{Victim: true, Pages: 70000}},
			func(buf uint64, _ []uint64) []byte {
				b := make([]byte, 64)
				b[0], b[4] = 0x01, 1
				binary.LittleEndian.PutUint64(b[24:], buf)
				b[53], b[54], b[55] = 0x01, 0xFF, 0xFF
				return b
			}},
		{"hint off in the driver", nvmectrl.HintCDW13, true,
			blk.Request{Op: blk.OpWrite, Offset: 0, Size: 4096, Hint: blk.Hint{Victim: true, Pages: 5}},
			func(buf uint64, _ []uint64) []byte {
				b := make([]byte, 64)
				b[0], b[4] = 0x01, 1
				binary.LittleEndian.PutUint64(b[24:], buf)
				return b
			}},
		{"non-victim write carries nothing", nvmectrl.HintCDW2, false,
			blk.Request{Op: blk.OpWrite, Offset: 4096, Size: 4096, Hint: blk.Hint{Pages: 9}},
			func(buf uint64, _ []uint64) []byte {
				b := make([]byte, 64)
				b[0], b[4], b[40] = 0x01, 1, 1
				binary.LittleEndian.PutUint64(b[24:], buf)
				return b
			}},
		{"read 4KiB FUA", nvmectrl.HintCDW13, false,
			blk.Request{Op: blk.OpRead, Offset: 1 << 30, Size: 4096, FUA: true},
			func(buf uint64, _ []uint64) []byte {
				b := make([]byte, 64)
				b[0], b[4] = 0x02, 1
				binary.LittleEndian.PutUint64(b[24:], buf)
				binary.LittleEndian.PutUint64(b[40:], 1<<18) // 1 GiB / 4 KiB
				b[51] = 0x40                                 // CDW12 bit 30
				return b
			}},
		{"write 16KiB uses a PRP list", nvmectrl.HintCDW13, false,
			blk.Request{Op: blk.OpWrite, Offset: 0, Size: 16 << 10},
			func(buf uint64, lists []uint64) []byte {
				b := make([]byte, 64)
				b[0], b[4] = 0x01, 1
				binary.LittleEndian.PutUint64(b[24:], buf)
				binary.LittleEndian.PutUint64(b[32:], lists[0]) // 4 pages: PRP2 points to a list
				b[48] = 3
				return b
			}},
		{"flush", nvmectrl.HintCDW13, false,
			blk.Request{Op: blk.OpFlush},
			func(uint64, []uint64) []byte {
				b := make([]byte, 64)
				b[4] = 1 // opcode 00h, CID 0, NSID 1, nothing else
				return b
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs := ctrlSpec()
			cs.HintCarrier = tc.carrier
			spec := DefaultSpec()
			spec.Hint = !tc.hintOff
			r := newRig(t, spec, cs, 1)
			rq := tc.rq
			require.True(t, r.d.QueueRequest(0, &rq))
			s := &r.d.queues[0].slots[0]
			e := r.sqeAt(1, 0)
			require.Equal(t, tc.want(s.buf, s.lists), e[:])
			if rq.Op == blk.OpWrite && rq.Size == 16<<10 {
				// The list holds the other three data pages (docs/sources.md §1.7).
				m := r.ctrl.Memory()
				for i := range 3 {
					require.Equal(t, s.buf+uint64(i+1)*4096, m.Uint64(s.lists[0]+uint64(8*i)))
				}
			}
			r.eng.Run()
			require.Len(t, r.up.dones, 1)
			require.NoError(t, r.up.dones[0].err)
		})
	}
}

// TestHintPagesEqualDirtyPages checks that the hint in the SQE bytes is the number of dirty
// pages the victimization still has to flush, as the page cache put it in the request, and
// that the controller decodes the same number for the firmware.
func TestHintPagesEqualDirtyPages(t *testing.T) {
	for _, carrier := range []nvmectrl.HintCarrier{nvmectrl.HintCDW13, nvmectrl.HintCDW2} {
		cs := ctrlSpec()
		cs.HintCarrier = carrier
		r := newRig(t, DefaultSpec(), cs, 1)
		remaining := []int{1024, 992, 960, 1} // a pass flushing 32 pages per request, then the last page
		for i, n := range remaining {
			rq := &blk.Request{Op: blk.OpWrite, Offset: int64(i) * 4096, Size: 4096, Hint: blk.Hint{Victim: true, Pages: n}}
			require.True(t, r.d.QueueRequest(0, rq))
			e := r.sqeAt(1, i)
			var pages uint32
			if carrier == nvmectrl.HintCDW13 {
				require.Equal(t, byte(1), e[53], "flag in CDW13 bits 15:8")
				pages = uint32(binary.LittleEndian.Uint16(e[54:]))
			} else {
				require.Equal(t, byte(1), e[8], "flag in CDW2 bits 7:0")
				pages = binary.LittleEndian.Uint32(e[8:]) >> 8
			}
			require.Equal(t, uint32(n), pages)
		}
		r.eng.Run()
		require.Len(t, r.dev.hints, len(remaining))
		for i, n := range remaining {
			require.Equal(t, nvmectrl.Hint{Victim: true, Pages: uint32(n)}, r.dev.hints[i])
		}
		require.Equal(t, int64(len(remaining)), r.d.Stats.Hinted)
	}
}

// TestDiscard checks the Dataset Management command of a two-bio discard: NR = 1 (two
// ranges, 0's based) in CDW10, AD (bit 2) in CDW11, PRP1 at the range list, and one
// 16-byte range per bio with the length in 4 KiB blocks.
func TestDiscard(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	rq := &blk.Request{Op: blk.OpDiscard, Offset: 1 << 20, Size: 3 << 20, Bios: []*blk.Bio{
		{Op: blk.OpDiscard, Offset: 1 << 20, Size: 1 << 20},
		{Op: blk.OpDiscard, Offset: 2 << 20, Size: 2 << 20},
	}}
	require.True(t, r.d.QueueRequest(0, rq))
	e := r.sqeAt(1, 0)
	require.Equal(t, nvmectrl.OpDatasetManagement, e.Opcode())
	require.Equal(t, uint32(1), e.DW(10))
	require.Equal(t, uint32(4), e.DW(11))
	require.Equal(t, r.d.queues[0].slots[0].buf, e.PRP1())
	require.Zero(t, e.DW(13))
	r.eng.Run()
	require.Equal(t, []Range{{Blocks: 256, SLBA: 256}, {Blocks: 512, SLBA: 512}}, r.dev.ranges)
	require.Len(t, r.up.dones, 1)
}
