package mqsim

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/stretchr/testify/require"
)

func TestImportWorkload(t *testing.T) {
	f, err := os.Open("testdata/workload.xml")
	require.NoError(t, err)
	defer f.Close()
	// A 64 MiB device: two synthetic flows get 32 MiB each.
	scs, err := ImportWorkload(f, "workload.xml", 64<<20)
	require.NoError(t, err)
	require.Len(t, scs, 2)
	require.Equal(t, 2, scs[0].Flows)
	jobs, err := fio.Decode(bytes.NewReader(scs[0].Jobs), "scenario-1.yaml")
	require.NoError(t, err, string(scs[0].Jobs))
	require.Len(t, jobs, 2)
	// Flow 0: 0 % reads, uniform random → randwrite; 8 sectors × 512 B = 4096 B; QD 16;
	// region [0, 32 MiB), working set 50 % = 16 MiB; until Stop_Time 2,000,000 ns = 2 ms.
	a := jobs[0]
	require.Equal(t, fio.RandWrite, a.RW)
	require.Equal(t, [4]int64{4096, 16, 0, 16 << 20}, [4]int64{a.BS, a.IODepth, a.Offset, a.Size})
	require.True(t, a.TimeBased)
	require.Equal(t, "2ms", a.Runtime.String())
	require.Equal(t, uint64(798), a.RandSeed)
	require.True(t, a.Direct)
	// Flow 1: 70 % reads, streaming → rw with rwmixread 70; 16 sectors = 8192 B; QD 2; its
	// region starts at 32 MiB, working set 25 % = 8 MiB; 300 requests × 8192 B = io_size.
	b := jobs[1]
	require.Equal(t, fio.ReadWrite, b.RW)
	require.Equal(t, [5]int64{70, 8192, 2, 32 << 20, 8 << 20}, [5]int64{b.RWMixRead, b.BS, b.IODepth, b.Offset, b.Size})
	require.Equal(t, int64(300*8192), b.IOSize)
	require.False(t, b.TimeBased)
	notes := func(sc Scenario) string {
		var s []string
		for _, n := range sc.Notes {
			s = append(s, n.Element+": "+n.Why)
		}
		return strings.Join(s, "\n")
	}
	require.Contains(t, notes(scs[0]), "Initial_Occupancy_Percentage: a device setting, not a job's: run with --set precondition.fill=0.75")
	require.Contains(t, notes(scs[0]), "Channel_IDs: flows are not confined to resource subsets")
	// Scenario 2 is a trace flow: no job, a note on how to replay it.
	require.Equal(t, 0, scs[1].Flows)
	require.Contains(t, notes(scs[1]), `fastdrain replay traces/tpcc-small.trace --mode timed`)
}

func TestImportWorkloadErrors(t *testing.T) {
	good := string(mustRead(t, "testdata/workload.xml"))
	for _, tc := range []struct{ name, from, to, err string }{
		{"root", "<MQSim_IO_Scenarios>", "<Scenarios>", "root element <Scenarios>"},
		{"flow kind", "<IO_Flow_Parameter_Set_Trace_Based>", "<IO_Flow_Parameter_Set_Replay>", "want IO_Flow_Parameter_Set_Synthetic or _Trace_Based"},
		{"percent", "<Read_Percentage>70<", "<Read_Percentage>170<", `Read_Percentage "170": must be in 0 … 100`},
		{"distribution", "<Address_Distribution>STREAMING<", "<Address_Distribution>ZIPF<", "want one of UNIFORM_RANDOM"},
		{"twice", "<Seed>798</Seed>", "<Seed>798</Seed><Seed>1</Seed>", "Seed is given twice in one flow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, good, tc.from)
			_, err := ImportWorkload(strings.NewReader(strings.Replace(good, tc.from, tc.to, 1)), "w.xml", 64<<20)
			require.ErrorContains(t, err, tc.err)
		})
	}
	_, err := ImportWorkload(strings.NewReader(good), "w.xml", 1000)
	require.ErrorContains(t, err, "too small")
}
