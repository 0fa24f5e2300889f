package nvmedrv

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/pcie"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestDefaultSpecValid(t *testing.T) {
	require.NoError(t, DefaultSpec().Validate())
	require.Equal(t, 1024, DefaultSpec().QueueDepth, "io_queue_depth default (docs/sources.md §1.4)")
}

// TestValidate checks that every bad field is reported, each by name.
func TestValidate(t *testing.T) {
	cases := []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Queues = -1 }, "nvmedrv.queues: -1"},
		{func(s *Spec) { s.QueueDepth = 1 }, "nvmedrv.queue_depth: 1"},
		{func(s *Spec) { s.QueueDepth = 4096 }, "nvmedrv.queue_depth: 4096"},
		{func(s *Spec) { s.QueueMap = 7 }, "nvmedrv.queue_map"},
		{func(s *Spec) { s.MaxTransfer = 6000 }, "nvmedrv.max_transfer: 6000"},
		{func(s *Spec) { s.MaxTransfer = 64 * sim.MiB }, "nvmedrv.max_transfer"},
		{func(s *Spec) { s.SubmitCycles = -1 }, "nvmedrv.submit_cycles: -1"},
		{func(s *Spec) { s.IRQCycles = -2 }, "nvmedrv.irq_cycles: -2"},
		{func(s *Spec) { s.CQECycles = -3 }, "nvmedrv.cqe_cycles: -3"},
	}
	all := DefaultSpec()
	for _, tc := range cases {
		s := DefaultSpec()
		tc.edit(&s)
		err := s.Validate()
		require.ErrorContains(t, err, tc.want)
		tc.edit(&all)
	}
	// All at once: every problem is reported (the two max_transfer and queue_depth edits
	// overwrite each other, leaving 7 fields wrong).
	err := all.Validate()
	require.Error(t, err)
	require.Len(t, strings.Split(err.Error(), "\n"), 7)
}

// TestSpecYAML decodes a spec with unit strings and names.
func TestSpecYAML(t *testing.T) {
	s := DefaultSpec()
	in := "queues: 2\nqueue_depth: 64\nqueue_map: tag\nmax_transfer: 128KiB\nsubmit_cycles: 0\nirq_cycles: 1500\ncqe_cycles: 500\nirq_preempts: false\nhint: false\n"
	dec := yaml.NewDecoder(strings.NewReader(in))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&s))
	require.Equal(t, Spec{Queues: 2, QueueDepth: 64, QueueMap: MapTag, MaxTransfer: 128 * sim.KiB,
		IRQCycles: 1500, CQECycles: 500}, s)
	out, err := yaml.Marshal(s)
	require.NoError(t, err)
	require.Contains(t, string(out), "queue_map: tag")
	require.Error(t, yaml.Unmarshal([]byte("queue_map: numa\n"), &s))
}

// TestNewErrors checks the configurations New refuses.
func TestNewErrors(t *testing.T) {
	eng := sim.NewEngine()
	mk := func(cs nvmectrl.Spec) *nvmectrl.Controller {
		return nvmectrl.New("nvme", cs, eng, pcie.NewLink("pcie", pcie.DefaultSpec()), nvmectrl.NewHostMemory())
	}
	core := []*sim.Core{sim.NewCore("cpu0", sim.NewClock(hostFreq))}
	bad := DefaultSpec()
	bad.QueueDepth = 0
	_, err := New("d", bad, eng, mk(ctrlSpec()), core)
	require.ErrorContains(t, err, "queue_depth")
	_, err = New("d", DefaultSpec(), eng, mk(ctrlSpec()), nil)
	require.ErrorContains(t, err, "no host cores")
	cs := ctrlSpec()
	cs.Vectors = 4
	many := DefaultSpec()
	many.Queues = 4
	_, err = New("d", many, eng, mk(cs), core)
	require.ErrorContains(t, err, "4 queue pairs")
}

// TestMaxTransfer checks that the per-command limit is the smaller of the driver's and
// the controller's MDTS, and that NLB's 16 bits cap it for small blocks.
func TestMaxTransfer(t *testing.T) {
	r := newRig(t, DefaultSpec(), ctrlSpec(), 1)
	require.Equal(t, 128<<10, r.d.MaxTransfer(), "controller MDTS 128 KiB < driver 4 MiB")
	require.Equal(t, 4096, r.d.LogicalBlockSize())
	cs := ctrlSpec()
	cs.MaxTransfer = 32 << 20
	cs.LBASize = 512
	spec := DefaultSpec()
	spec.MaxTransfer = 32 * sim.MiB
	r = newRig(t, spec, cs, 1)
	require.Equal(t, 512<<16, r.d.MaxTransfer(), "65536 blocks of 512 B")
}

func TestParseQueueMap(t *testing.T) {
	for _, m := range []QueueMap{MapRoundRobin, MapTag} {
		got, err := ParseQueueMap(m.String())
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
	_, err := ParseQueueMap("numa")
	require.ErrorContains(t, err, `"numa"`)
	require.Equal(t, "QueueMap(9)", QueueMap(9).String())
}

// FuzzParseQueueMap checks that ParseQueueMap accepts exactly the names String returns.
func FuzzParseQueueMap(f *testing.F) {
	for _, s := range []string{"tag", "round_robin", "", "TAG", "round-robin", "tag ", "cpu"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseQueueMap(s)
		if err != nil {
			return
		}
		if m.String() != s {
			t.Fatalf("ParseQueueMap(%q) = %v", s, m)
		}
	})
}
