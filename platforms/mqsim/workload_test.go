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
		{"distribution", "<Address_Distribution>STREAMING<", "<Address_Distribution>ZIPF<", "want one of RANDOM_UNIFORM, UNIFORM_RANDOM"},
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

// TestImportShippedMQSimFiles: MQSim's own shipped ssdconfig.xml and workload.xml (their
// 2023 revisions, testdata/README.md) import: every element is mapped or listed with a
// reason (none "not an element ... this importer knows"), the spelling MQSim's source reads,
// RANDOM_UNIFORM, is uniform random, and the DRAM rate carries a warning. Scenario 1, flow 0:
// 0 % reads → randwrite; Address_Alignment_Unit 16 sectors × 512 B = 8192 B > bs 4096, so
// blockalign 8192; QD 16.
func TestImportShippedMQSimFiles(t *testing.T) {
	f, err := os.Open("testdata/mqsim-workload-2023.xml")
	require.NoError(t, err)
	defer f.Close()
	scs, err := ImportWorkload(f, "workload.xml", 1<<30)
	require.NoError(t, err)
	require.Len(t, scs, 3)
	for i, sc := range scs[:2] {
		jobs, err := fio.Decode(bytes.NewReader(sc.Jobs), "scenario.yaml")
		require.NoError(t, err, "scenario %d:\n%s", i+1, sc.Jobs)
		require.Len(t, jobs, 2)
		for _, n := range sc.Notes {
			require.NotContains(t, n.Why, "not an element", n.Element)
		}
	}
	jobs, _ := fio.Decode(bytes.NewReader(scs[0].Jobs), "scenario-1.yaml")
	require.Equal(t, fio.RandWrite, jobs[0].RW)
	require.Equal(t, [3]int64{4096, 8192, 16}, [3]int64{jobs[0].BS, jobs[0].BlockAlign, jobs[0].IODepth})

	cfg, err := os.Open("testdata/mqsim-ssdconfig-2023.xml")
	require.NoError(t, err)
	defer cfg.Close()
	r, err := Import(cfg, "ssdconfig.xml")
	require.NoError(t, err)
	var warned bool
	for _, n := range r.Notes {
		require.NotContains(t, n.Why, "not an element", n.Element)
		if n.Warning {
			warned = true
			// 100 MT/s × 4 B = 400 MB/s for all host traffic through controller DRAM.
			require.Equal(t, "Data_Cache_DRAM_Data_Rate", n.Element)
			require.Contains(t, n.Why, "= 400 MB/s")
		}
	}
	require.True(t, warned)
}

// TestImportHotColdAndBandwidth: RANDOM_HOTCOLD with Percentage_of_Hot_Region 20 sends
// (100−20) = 80 % of requests to the hot 20 % (MQSim's definition): fio's zoned:80/20:20/80;
// a BANDWIDTH flow of 1,048,576 B/s becomes rate=1048576.
func TestImportHotColdAndBandwidth(t *testing.T) {
	doc := strings.NewReplacer("<Address_Distribution>UNIFORM_RANDOM<", "<Address_Distribution>RANDOM_HOTCOLD<",
		"<Percentage_of_Hot_Region>0<", "<Percentage_of_Hot_Region>20<").Replace(string(mustRead(t, "testdata/workload.xml")))
	scs, err := ImportWorkload(strings.NewReader(doc), "w.xml", 64<<20)
	require.NoError(t, err)
	jobs, err := fio.Decode(bytes.NewReader(scs[0].Jobs), "s.yaml")
	require.NoError(t, err, string(scs[0].Jobs))
	require.Equal(t, "zoned:80/20:20/80", jobs[0].Distribution.String())
	doc = strings.Replace(string(mustRead(t, "testdata/workload.xml")), "<Synthetic_Generator_Type>QUEUE_DEPTH<",
		"<Bandwidth>1048576</Bandwidth><Synthetic_Generator_Type>BANDWIDTH<", 1)
	scs, err = ImportWorkload(strings.NewReader(doc), "w.xml", 64<<20)
	require.NoError(t, err)
	jobs, err = fio.Decode(bytes.NewReader(scs[0].Jobs), "s.yaml")
	require.NoError(t, err, string(scs[0].Jobs))
	require.Equal(t, int64(1048576), jobs[0].Rate[1])
}
