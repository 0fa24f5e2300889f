package runner

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/internal/lostcmd"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestRunEndsWithTheStall: the firmware stops taking commands at the 50th write of a 2 s
// scenario on fastdrain-tlc (limits.stall_timeout 100ms): every I/O command from then on
// is lost, so completions stop once those already with the firmware are done. The run
// ends with the stall as its error, exactly 100 ms after the wait began (the last
// completion, or the oldest outstanding command's submission if later), long before the
// scenario's end; the oldest outstanding command is the first lost one or one submitted
// before it, never a later one.
func TestRunEndsWithTheStall(t *testing.T) {
	c, sc := setup(t, "fd", "apache-u+ungzip", 2*sim.Second, "limits.stall_timeout=100ms")
	o := Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}}
	om, err := Open(c)
	require.NoError(t, err)
	defer om.Close()
	lost := lostcmd.Install(om.SSD.Ctrl, nvme.OpWrite, 50)
	lost.Hang = true
	_, err = runOn(om, o)
	var se *platforms.StallError
	require.True(t, errors.As(err, &se), "%v", err)
	require.NotNil(t, lost.Lost)
	require.Equal(t, se.Since+100*sim.Millisecond, se.At)
	require.Equal(t, se.At, om.Eng.Now())
	require.Less(t, se.At, 2*sim.Second)
	require.GreaterOrEqual(t, se.Since, lost.LostAt-100*sim.Millisecond)
	require.LessOrEqual(t, se.Oldest.Submitted, lost.LostAt)
	require.Equal(t, max(om.Host.Driver.LastCompletion(), se.Oldest.Submitted), se.Since)
	require.GreaterOrEqual(t, se.Outstanding, 1)
	require.LessOrEqual(t, se.Outstanding, lost.Dropped+1)
	require.Contains(t, err.Error(), "none completed for 100.0ms of simulated time (limits.stall_timeout)")
}
