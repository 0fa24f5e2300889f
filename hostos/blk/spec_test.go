package blk

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestDefaultSpec pins the Linux defaults of docs/sources.md §1.4 and §6.
func TestDefaultSpec(t *testing.T) {
	s := DefaultSpec()
	require.NoError(t, s.Validate())
	require.Equal(t, 1024-1, s.QueueDepth, "io_queue_depth 1024, tag depth q_depth − 1")
	require.Equal(t, 512*sim.KiB, s.MaxRequestBytes, "BLK_DEF_MAX_SECTORS 1024 × 512 B")
	require.Equal(t, 500*sim.Millisecond, s.Deadline.ReadExpire)
	require.Equal(t, 5*sim.Second, s.Deadline.WriteExpire)
	require.Equal(t, 2, s.Deadline.WritesStarved)
	require.Equal(t, 16, s.Deadline.FifoBatch)
	require.Equal(t, 2*sim.Millisecond, s.Kyber.ReadTarget)
	require.Equal(t, 10*sim.Millisecond, s.Kyber.WriteTarget)
	require.Equal(t, []int{256, 128, 64, 16}, []int{s.Kyber.ReadDepth, s.Kyber.WriteDepth, s.Kyber.DiscardDepth, s.Kyber.OtherDepth})
	require.Equal(t, 75, s.Kyber.AsyncPercent)
	require.Equal(t, 2*sim.Millisecond, s.WBTLat, "wbt_default_latency_nsec, non-rotational")
	require.Equal(t, WriteCacheAuto, s.WriteCache, "what the driver reports")
	require.Equal(t, 1023, s.nrRequests(), "none: nr_requests = queue depth")
	s.Scheduler = SchedKyber
	require.Equal(t, 256, s.nrRequests(), "2·min(1023, 128)")
}

func TestValidate(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*Spec)
	}{
		{"blk.scheduler", func(s *Spec) { s.Scheduler = "cfq" }},
		{"blk.queue_depth", func(s *Spec) { s.QueueDepth = 0 }},
		{"blk.queue_depth", func(s *Spec) { s.QueueDepth = 10241 }},
		{"blk.nr_requests", func(s *Spec) { s.NrRequests = -1 }},
		{"blk.nr_requests", func(s *Spec) { s.NrRequests = 2000 }}, // > queue_depth with none
		{"blk.max_request_bytes", func(s *Spec) { s.MaxRequestBytes = 1000 }},
		{"blk.max_request_bytes", func(s *Spec) { s.MaxRequestBytes = 4096 + 100 }},
		{"blk.mq_deadline.read_expire", func(s *Spec) { s.Deadline.ReadExpire = 0 }},
		{"blk.mq_deadline.write_expire", func(s *Spec) { s.Deadline.WriteExpire = -1 }},
		{"blk.mq_deadline.writes_starved", func(s *Spec) { s.Deadline.WritesStarved = -1 }},
		{"blk.mq_deadline.fifo_batch", func(s *Spec) { s.Deadline.FifoBatch = 0 }},
		{"blk.mq_deadline.async_depth", func(s *Spec) { s.Deadline.AsyncDepth = -1 }},
		{"blk.kyber.read_lat", func(s *Spec) { s.Kyber.ReadTarget = 0 }},
		{"blk.kyber.write_lat", func(s *Spec) { s.Kyber.WriteTarget = 0 }},
		{"blk.kyber.discard_lat", func(s *Spec) { s.Kyber.DiscardTarget = 0 }},
		{"blk.kyber.read_depth", func(s *Spec) { s.Kyber.ReadDepth = 0 }},
		{"blk.kyber.write_depth", func(s *Spec) { s.Kyber.WriteDepth = 0 }},
		{"blk.kyber.discard_depth", func(s *Spec) { s.Kyber.DiscardDepth = 0 }},
		{"blk.kyber.other_depth", func(s *Spec) { s.Kyber.OtherDepth = 0 }},
		{"blk.kyber.async_percent", func(s *Spec) { s.Kyber.AsyncPercent = 101 }},
		{"blk.wbt_lat", func(s *Spec) { s.WBTLat = -sim.Millisecond }},
	}
	all := DefaultSpec()
	for _, c := range cases {
		s := DefaultSpec()
		c.edit(&s)
		err := s.Validate()
		require.Error(t, err, c.field)
		require.Contains(t, err.Error(), c.field+":")
		if c.field == "blk.nr_requests" && s.NrRequests > 0 {
			continue // depends on scheduler and queue_depth being valid
		}
		c.edit(&all)
	}
	// Every problem is reported at once.
	msg := all.Validate().Error()
	for _, c := range cases {
		require.Contains(t, msg, c.field+":")
	}
	_, err := New("q", sim.NewEngine(), all, nil)
	require.ErrorContains(t, err, "needs a driver")
}

func TestSpecYAML(t *testing.T) {
	in := `
scheduler: kyber
queue_depth: 127
max_request_bytes: 1MiB
merges: false
mq_deadline: {read_expire: 250ms, fifo_batch: 8}
kyber: {read_lat: 1ms, write_depth: 64}
wbt_lat: 75ms
write_cache: false
`
	s := DefaultSpec()
	dec := yaml.NewDecoder(strings.NewReader(in))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&s))
	require.NoError(t, s.Validate())
	require.Equal(t, SchedKyber, s.Scheduler)
	require.Equal(t, 127, s.QueueDepth)
	require.Equal(t, sim.MiB, s.MaxRequestBytes)
	require.False(t, s.Merges)
	require.Equal(t, 250*sim.Millisecond, s.Deadline.ReadExpire)
	require.Equal(t, 5*sim.Second, s.Deadline.WriteExpire, "untouched keys keep defaults")
	require.Equal(t, 8, s.Deadline.FifoBatch)
	require.Equal(t, sim.Millisecond, s.Kyber.ReadTarget)
	require.Equal(t, 64, s.Kyber.WriteDepth)
	require.Equal(t, 75*sim.Millisecond, s.WBTLat)
	require.Equal(t, WriteCacheOff, s.WriteCache)
	out, err := yaml.Marshal(s)
	require.NoError(t, err)
	var back Spec
	require.NoError(t, yaml.Unmarshal(out, &back))
	require.Equal(t, s, back)
}
