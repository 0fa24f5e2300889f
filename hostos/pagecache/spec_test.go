package pagecache

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestDefaultSpecValid(t *testing.T) {
	s := DefaultSpec()
	require.NoError(t, s.Validate())
	require.Equal(t, 4*GiB, s.Memory)
	require.Equal(t, RatioSet{5, 3}, s.FastDrain.Low)
	require.Equal(t, RatioSet{10, 5}, s.FastDrain.High)
}

func TestSpecValidateNamesEveryField(t *testing.T) {
	s := DefaultSpec()
	s.Memory = 1000
	s.CPU.Cores = 0
	s.CPU.Freq = 0
	s.CPU.IRQCycles = -1
	s.Dirty.Ratio = 0
	s.Dirty.BackgroundRatio = 101
	s.Dirty.ExpireCentisecs = 0
	s.Dirty.WritebackCentisecs = -1
	s.Writeback.MaxBio = 1000
	s.Writeback.MaxInflight = 0
	s.ReadAhead = 100
	s.FastDrain.Low.Ratio = 0
	s.FastDrain.High.BackgroundRatio = 0
	err := s.Validate()
	require.Error(t, err)
	for _, field := range []string{"pagecache.memory", "pagecache.cpu.cores", "pagecache.cpu.freq",
		"pagecache.cpu.irq_cycles", "pagecache.dirty.ratio", "pagecache.dirty.background_ratio",
		"pagecache.dirty.expire_centisecs", "pagecache.dirty.writeback_centisecs",
		"pagecache.writeback.max_bio", "pagecache.writeback.max_inflight", "pagecache.read_ahead",
		"pagecache.fastdrain.low.ratio", "pagecache.fastdrain.high.background_ratio"} {
		require.Contains(t, err.Error(), field+":")
	}
	s = DefaultSpec()
	s.Reserved = s.Memory
	require.ErrorContains(t, s.Validate(), "pagecache.reserved:")
}

func TestSpecYAML(t *testing.T) {
	const doc = `
memory: 8GiB
reserved: 512MiB
cpu: {cores: 8, freq: 2.5GHz, syscall_cycles: 2000, page_copy_cycles: 1200, irq_cycles: 2500, wake_idle: false}
dirty: {ratio: 10, background_ratio: 5, expire_centisecs: 1500, writeback_centisecs: 100}
writeback: {max_bio: 512KiB, max_inflight: 32}
read_ahead: 256KiB
direct_fua: false
fastdrain: {adaptive: true, low: {ratio: 4, background_ratio: 2}, high: {ratio: 12, background_ratio: 6}}
`
	s := DefaultSpec()
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&s))
	require.NoError(t, s.Validate())
	require.Equal(t, Spec{
		Memory: 8 * GiB, Reserved: 512 * MiB,
		CPU:       CPUSpec{Cores: 8, Freq: 2500 * sim.MHz, SyscallCycles: 2000, PageCopyCycles: 1200, IRQCycles: 2500},
		Dirty:     DirtySpec{Ratio: 10, BackgroundRatio: 5, ExpireCentisecs: 1500, WritebackCentisecs: 100},
		Writeback: WritebackSpec{MaxBio: 512 * KiB, MaxInflight: 32},
		ReadAhead: 256 * KiB,
		FastDrain: FastDrainSpec{Adaptive: true, Low: RatioSet{4, 2}, High: RatioSet{12, 6}},
	}, s)
	// 8 GiB − 512 MiB = 7.5 GiB = 1966080 pages are dirtyable.
	c, err := New(sim.NewEngine(), "h", s, &fakeDev{}, 1<<30)
	require.NoError(t, err)
	require.Equal(t, int64(1966080), c.DirtyableMemory())

	bad := yaml.NewDecoder(strings.NewReader("memroy: 1GiB\n"))
	bad.KnownFields(true)
	require.Error(t, bad.Decode(&s), "unknown keys are rejected")
}
