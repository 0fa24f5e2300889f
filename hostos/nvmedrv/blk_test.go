package nvmedrv

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// bioDone counts completed bios.
type bioDone struct {
	n    int
	errs int
}

func (d *bioDone) HandleEvent(ev *sim.Event) {
	d.n++
	if ev.Data.(*blk.Bio).Err != nil {
		d.errs++
	}
}

// TestWithBlockLayer runs stamped writes and reads through a real blk.Queue with more
// tags (8) than the driver's queue pair holds (q_depth 4: 3 in flight), so the driver
// refuses requests and restarts the queue, and bios of 64 KiB exceed a 32 KiB request size
// and are split: every page read back carries the stamp last written to it.
func TestWithBlockLayer(t *testing.T) {
	spec := DefaultSpec()
	spec.QueueDepth = 4
	r := newRig(t, spec, ctrlSpec(), 1)
	bs := blk.DefaultSpec()
	bs.QueueDepth = 8
	bs.MaxRequestBytes = 32 * sim.KiB
	q, err := blk.New("blk", r.eng, bs, r.d)
	require.NoError(t, err)
	r.d.SetUpper(q)
	done := &bioDone{}
	rng := sim.NewRNG(7, "blk-test")
	want := map[int64]uint64{} // page → last stamp; a test oracle, looked up only
	var bios []*blk.Bio
	for i := range 40 {
		pages := int64(1 + rng.IntN(16))
		first := int64(rng.IntN(64))
		st := make([]uint64, pages)
		for j := range st {
			st[j] = uint64(i+1)<<32 | uint64(first+int64(j))
		}
		bios = append(bios, &blk.Bio{Op: blk.OpWrite, Offset: first * 4096, Size: pages * 4096,
			Done: done, Private: &Data{Stamps: st}})
	}
	// Submit one at a time, each after the previous completed, so the last write wins.
	for _, b := range bios {
		q.Submit(b)
		r.eng.Run()
		for j, s := range b.Private.(*Data).Stamps {
			want[b.Offset/4096+int64(j)] = s
		}
	}
	require.Equal(t, len(bios), done.n)
	rd := &Data{Stamps: make([]uint64, 80)}
	q.Submit(&blk.Bio{Op: blk.OpRead, Offset: 0, Size: 80 * 4096, Done: done, Private: rd})
	r.eng.Run()
	require.Equal(t, len(bios)+1, done.n)
	require.Zero(t, done.errs)
	for pg, s := range rd.Stamps {
		require.Equal(t, want[int64(pg)], s, "page %d", pg)
	}
	require.Positive(t, r.d.Stats.Refused, "8 tags over 3 slots")
	require.Positive(t, r.d.Stats.Restarts)
	require.Zero(t, r.d.Inflight())
	require.Zero(t, q.InDriver())
}
