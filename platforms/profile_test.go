package platforms

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHostProfiles: the paper presets run the paper's host, the other is one --set away,
// and a key given explicitly overrides the profile whichever source names the profile.
func TestHostProfiles(t *testing.T) {
	c, err := Load(Options{Preset: "fastdrain-tlc"})
	require.NoError(t, err)
	require.Equal(t, "paper", c.Host.Profile)
	require.Equal(t, sim.Time(0), c.Host.Block.WBTLat)
	require.Equal(t, blk.SchedKyber, c.Host.Block.Scheduler)
	require.Equal(t, blk.WriteCacheOn, c.Host.Block.WriteCache)
	require.Equal(t, 5, c.Host.PageCache.Dirty.Ratio, "the dirty ratios are the experiment's, not the profile's")

	c, err = Load(Options{Preset: "fastdrain-tlc", Variant: "fd", Sets: []string{"host.profile=linux6"}})
	require.NoError(t, err)
	require.Equal(t, 2*sim.Millisecond, c.Host.Block.WBTLat)
	require.Equal(t, blk.SchedNone, c.Host.Block.Scheduler)
	require.Equal(t, blk.WriteCacheAuto, c.Host.Block.WriteCache)
	require.True(t, c.Host.PageCache.FastDrain.Adaptive, "the variant's keys stay")

	// An explicit key wins over the profile, before or after the --set that names it.
	for _, sets := range [][]string{
		{"host.block.wbt_lat=1ms", "host.profile=paper"},
		{"host.profile=paper", "host.block.wbt_lat=1ms"},
	} {
		c, err = Load(Options{Preset: "tiny", Sets: sets})
		require.NoError(t, err, sets)
		require.Equal(t, sim.Millisecond, c.Host.Block.WBTLat, sets)
		require.Equal(t, blk.SchedKyber, c.Host.Block.Scheduler, sets)
	}

	_, err = Load(Options{Preset: "fastdrain-tlc", Sets: []string{"host.profile=ubuntu"}})
	require.EqualError(t, err, `host.profile: "ubuntu" is not one of paper, linux6`)
}

// TestAnnotatedProfile: config show marks the profile's keys, their source and overrides,
// and its text decodes back to the same configuration.
func TestAnnotatedProfile(t *testing.T) {
	c, err := Load(Options{Preset: "fastdrain-tlc", Sets: []string{"host.block.scheduler=none"}})
	require.NoError(t, err)
	out, err := c.Annotated()
	require.NoError(t, err)
	s := string(out)
	require.Contains(t, s, "profile: paper # sets the defaults of host.block.wbt_lat, host.block.scheduler, host.block.write_cache, host.nvme.irq_preempts, host.pagecache.cpu.wake_idle; keys given explicitly override them")
	require.Contains(t, s, "wbt_lat: 0s # host.profile paper: off:")
	require.Contains(t, s, "scheduler: none # overrides host.profile paper (kyber)")
	back, err := Decode(Source{"shown", out})
	require.NoError(t, err)
	require.Equal(t, c, back)
	require.False(t, strings.Contains(string(must(c.Resolved())), "#"), "Resolved stays plain")
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
