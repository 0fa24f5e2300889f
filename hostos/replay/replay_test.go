package replay_test

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/replay"
	"github.com/fastdrain-sim/fastdrain/hostos/trace"
	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// tiny builds the tiny preset's whole machine (vanilla firmware): 48 MiB of logical space
// (64 MiB raw, 25 % over-provisioning) with 4 KiB LBAs.
func tiny(t testing.TB) (*platforms.Machine, *hostos.RawDevice) {
	t.Helper()
	m, raw, err := buildTiny()
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	return m, raw
}

func buildTiny() (*platforms.Machine, *hostos.RawDevice, error) {
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "vanilla"})
	if err != nil {
		return nil, nil, err
	}
	m, err := platforms.Build(c)
	if err != nil {
		return nil, nil, err
	}
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	raw, err := hostos.NewRawDevice(m.Host, capacity)
	return m, raw, err
}

// tinyMachine is buildTiny for examples, which have no testing.T.
func tinyMachine() (*platforms.Machine, *hostos.RawDevice) {
	m, raw, err := buildTiny()
	if err != nil {
		panic(err)
	}
	return m, raw
}

// run spawns body as a process and runs the engine to the end, failing if body is blocked.
func run(t testing.TB, m *platforms.Machine, body func(p *sim.Proc)) {
	t.Helper()
	finished := false
	m.Eng.Spawn("test", func(p *sim.Proc) {
		body(p)
		finished = true
	})
	m.Eng.Run()
	require.True(t, finished, "the test process is still blocked at %v", m.Eng.Now())
}

// TestReplaySamples replays every sample trace on the tiny machine as fast as possible at
// queue depth 16, addresses wrapped to its 48 MiB and rounded out to 4 KiB blocks: every
// request the reader delivered completes, with the reader's read/write split. The expected
// counts are the awk counts of the trace package's sample test (whole files) and, for the
// first 3,000 requests of the large files:
//
//	awk 'NR<=3000{if($5==1)r++; else w++} END{print r,w}' heimdall…trace  → 1217 1783
//	awk -F, 'NR>1&&NR<=3001{if($3=="28")r++; else w++} END{print r,w}' cloudPhysicsIO.csv → 0 3000
func TestReplaySamples(t *testing.T) {
	cases := []struct {
		file          string
		max           int64
		reads, writes int64
	}{
		{"mqsim_tpcc-small.trace", 0, 4381, 2618},
		{"apress_mbpa_blktrace.txt", 0, 78, 92},
		{"heimdall_msr.cut.per_10k.rw_40_60.1370.trace", 3000, 1217, 1783},
		{"libcachesim_cloudPhysicsIO.csv", 3000, 0, 3000},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := sampletraces.Path(t, c.file)
			m, raw := tiny(t)
			var res *replay.Result
			var st trace.Stats
			run(t, m, func(p *sim.Proc) {
				var err error
				res, st, err = replay.RunFile(p, raw, path, trace.Options{PastCapacity: trace.Wrap},
					replay.Options{Mode: replay.AsFastAsPossible, QueueDepth: 16, MaxRequests: c.max})
				require.NoError(t, err)
			})
			require.Equal(t, st.Requests, res.Requests, "completed = delivered")
			require.Equal(t, c.reads+c.writes, res.Requests)
			require.Equal(t, c.reads, st.Reads)
			require.Equal(t, c.writes, st.Writes)
			require.Equal(t, st.Reads, res.Count[trace.Read])
			require.Equal(t, st.Writes, res.Count[trace.Write])
			require.Equal(t, st.ReadBytes, res.Bytes[trace.Read])
			require.Equal(t, st.WriteBytes, res.Bytes[trace.Write])
			require.Equal(t, uint64(res.Requests), res.Total().Count())
			require.Zero(t, res.Errors)
			require.Zero(t, res.Late, "AFAP is never late")
			require.LessOrEqual(t, res.Peak, 16)
			require.Positive(t, res.Total().Min())
			t.Logf("%d requests in %v, wrapped %d, rounded %d, peak %d, mean %.1f us",
				res.Requests, res.LastCompletion-res.Start, st.Wrapped, st.Rounded, res.Peak, res.Total().Mean()/1e6)
		})
	}
}
