package replayrun

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/stretchr/testify/require"
)

// TestParseOptions: --mode timed --time-scale 0.25 --past-capacity reject --device-stride
// 8GiB --qd 4 --max 10: a quarter is the reduced ratio 1/4, 8 GiB is 8 × 2^30 =
// 8,589,934,592 bytes with the trace's devices merged into one namespace.
func TestParseOptions(t *testing.T) {
	f := DefaultFlags()
	f.Mode, f.TimeScale, f.PastCapacity, f.DeviceStride, f.QueueDepth, f.Max, f.Sort = "timed", "0.25", "reject", "8GiB", 4, 10, true
	o, err := ParseOptions(f)
	require.NoError(t, err)
	require.Equal(t, replay.Timed, o.Replay.Mode)
	require.Equal(t, trace.Ratio{Num: 1, Den: 4}, o.Trace.TimeScale)
	require.Equal(t, trace.Reject, o.Trace.PastCapacity)
	require.Equal(t, trace.Merged, o.Trace.Devices)
	require.Equal(t, int64(8_589_934_592), o.Trace.DeviceStride)
	require.Equal(t, 4, o.Replay.QueueDepth)
	require.Equal(t, int64(10), o.Replay.MaxRequests)
	require.True(t, o.Sort)
}

// TestParseOptionsErrors: every bad flag is named, with what is wrong, in one error.
func TestParseOptionsErrors(t *testing.T) {
	f := DefaultFlags()
	f.TraceFormat, f.Mode, f.TimeScale, f.PastCapacity, f.DeviceStride, f.QueueDepth, f.Max = "csv", "slow", "x", "drop", "-1", 0, -1
	_, err := ParseOptions(f)
	for _, want := range []string{"--trace-format:", "--mode:", "--time-scale:", `--past-capacity "drop": want wrap or reject`,
		`--device-stride "-1": want a size`, "--qd 0: want 1 … 65536", "--max -1: want 0 (all) or a positive count"} {
		require.ErrorContains(t, err, want)
	}
}

// FuzzParseOptions: any strings in the string flags give options or an error naming a
// flag — never a panic.
func FuzzParseOptions(f *testing.F) {
	f.Add("msr", "timed", "1/2", "wrap", "8GiB")
	f.Add("", "", "", "", "")
	f.Add("auto", "afap", "0/0", "reject", "0")
	f.Fuzz(func(t *testing.T, format, mode, scale, past, stride string) {
		fl := DefaultFlags()
		fl.TraceFormat, fl.Mode, fl.TimeScale, fl.PastCapacity, fl.DeviceStride = format, mode, scale, past, stride
		if _, err := ParseOptions(fl); err != nil && !strings.Contains(err.Error(), "--") {
			t.Fatalf("error names no flag: %v", err)
		}
	})
}
