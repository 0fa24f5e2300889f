package replay_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// BenchmarkReplayAFAP replays b.N 4 KiB reads as fast as possible at queue depth 16 through
// the whole tiny machine; the replayer's own per-request work (slot, bio, histogram) does
// not allocate once its pool is warm.
func BenchmarkReplayAFAP(b *testing.B) {
	m, raw := tiny(b)
	n := raw.Capacity() / 4096
	reqs := make([]trace.Request, b.N)
	for i := range reqs {
		reqs[i] = trace.Request{Op: trace.Read, Offset: (int64(i) * 7919 % n) * 4096, Size: 4096, Line: i + 1}
	}
	m.Eng.Spawn("bench", func(p *sim.Proc) {
		if _, err := replay.Run(p, raw, replay.FromSlice(reqs), replay.Options{Mode: replay.AsFastAsPossible, QueueDepth: 16}); err != nil {
			b.Error(err)
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	m.Eng.Run()
}
