package hostos

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestDefaultIsLinux6Profile: the layers' defaults are a Linux 6.x host's, so applying the
// linux6 profile to them changes nothing (platforms.Decode relies on it to skip a pass).
func TestDefaultIsLinux6Profile(t *testing.T) {
	d := DefaultSpec()
	p, err := d.WithProfile(ProfileLinux6)
	require.NoError(t, err)
	require.Equal(t, d, p)
}

// TestProfileValues: each profile's values as its documentation states them.
func TestProfileValues(t *testing.T) {
	p, err := DefaultSpec().WithProfile(ProfilePaper)
	require.NoError(t, err)
	require.Equal(t, ProfilePaper, p.Profile)
	require.Equal(t, sim.Time(0), p.Block.WBTLat, "no blk-wbt")
	require.Equal(t, blk.SchedKyber, p.Block.Scheduler)
	require.Equal(t, blk.WriteCacheOn, p.Block.WriteCache)
	require.True(t, p.Driver.IRQPreempts)
	require.True(t, p.PageCache.CPU.WakeIdle)
	l, err := p.WithProfile(ProfileLinux6)
	require.NoError(t, err)
	require.Equal(t, 2*sim.Millisecond, l.Block.WBTLat)
	require.Equal(t, blk.SchedNone, l.Block.Scheduler)
	require.Equal(t, blk.WriteCacheAuto, l.Block.WriteCache)
	for _, name := range Profiles() {
		require.NotEmpty(t, ProfileSettings(name), name)
	}
	_, err = DefaultSpec().WithProfile("gem5")
	require.EqualError(t, err, `host.profile: "gem5" is not one of paper, linux6`)
	s := DefaultSpec()
	s.Profile = "gem5"
	require.ErrorContains(t, s.Validate(), `host.profile: "gem5" is not one of paper, linux6`)
}
