package trace

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// readString parses an in-memory trace with the given options.
func readString(t *testing.T, text string, opt Options) ([]Request, Stats) {
	t.Helper()
	reqs, st, err := ReadAll(strings.NewReader(text), "t.trace", opt)
	require.NoError(t, err)
	return reqs, st
}

// TestFormats checks each parser on small inputs whose requests are worked out by hand in
// the comments (units from each format's field list).
func TestFormats(t *testing.T) {
	cases := []struct {
		name string
		opt  Options
		text string
		want []Request
	}{
		{
			// DiskSim: ns, 512 B sectors: lba 8 → 4096 B, 16 sectors → 8192 B.
			name: "disksim",
			opt:  Options{Format: DiskSim},
			text: "# comment\n\n1000 3 8 16 1\n2500 0 0 1 0\r\n",
			want: []Request{
				{Time: 0, Device: 3, Offset: 4096, Size: 8192, Op: Read, Line: 3},
				{Time: 1500 * sim.Nanosecond, Device: 0, Offset: 0, Size: 512, Op: Write, Line: 4},
			},
		},
		{
			// Replayer: ms with decimals, bytes: 45.304 ms - 22.810 ms = 22.494 ms.
			name: "replayer",
			opt:  Options{Format: Replayer},
			text: "22.810 0 2205343744 4096 1\n45.304 2 11403917312 512 0",
			want: []Request{
				{Time: 0, Offset: 2205343744, Size: 4096, Op: Read, Line: 1},
				{Time: 22494 * sim.Microsecond, Device: 2, Offset: 11403917312, Size: 512, Op: Write, Line: 2},
			},
		},
		{
			// vSCSI: s, bytes, 512 B sectors: lbn 100 → 51200 B; opcodes 28, 2a, 42 (UNMAP),
			// 35 (SYNCHRONIZE CACHE); 12 (INQUIRY) is ignored.
			name: "vscsi",
			opt:  Options{Format: VSCSI},
			text: "version,time,op,size,lbn\n1,10,28,4096,100\n1,10,12,0,0\n1,11,2a,512,7\n1,11,42,8192,0\n1,12,35,0,0\n",
			want: []Request{
				{Time: 0, Offset: 51200, Size: 4096, Op: Read, Line: 2},
				{Time: sim.Second, Offset: 3584, Size: 512, Op: Write, Line: 4},
				{Time: sim.Second, Offset: 0, Size: 8192, Op: Trim, Line: 5},
				{Time: 2 * sim.Second, Op: Flush, Line: 6},
			},
		},
		{
			// blkparse D events: s with 9 decimals, 512 B sectors; 8,0 is device 0 and 8,16
			// device 1 by order of appearance; RWBS flags; summary section ignored.
			name: "blkparse",
			opt:  Options{},
			text: `  8,0    3        1     0.000000000  2736  Q   W 1572864 + 8 [kworker]
  8,0    3        2     0.000001000  2736  D   W 1572864 + 8 [kworker]
  8,16   1        1     0.000002500   100  D  RA 16 + 256 [java]
  8,16   1        2     0.000003000   100  D FWFS 24 + 8 [jbd2]
  8,16   1        3     0.000004000   100  D  FN [jbd2]
  8,0    3        3     0.000005000   100  D  DS 0 + 2048 [fstrim]
  8,0    3        4     0.000006000     0  m   N cfq1211A / slice expired t=1
  8,0    3        5     0.000007000     0  C   W 1572864 + 8 [0]
CPU3 (8,0):
 Reads Queued:           0,        0KiB	 Writes Queued:           1,        4KiB
  8,0    3        9     9.000000000  2736  D   W 1 + 8 [not an event]
Total (8,0):
Throughput (R/W): 0KiB/s / 4KiB/s
Events (8,0): 5 entries
`,
			want: []Request{
				{Time: 0, Device: 0, Offset: 1572864 * 512, Size: 4096, Op: Write, Line: 2},
				{Time: 1500 * sim.Nanosecond, Device: 1, Offset: 8192, Size: 131072, Op: Read, Flags: FlagAhead, Line: 3},
				{Time: 2 * sim.Microsecond, Device: 1, Offset: 12288, Size: 4096, Op: Write, Flags: FlagPreFlush | FlagFUA | FlagSync, Line: 4},
				{Time: 3 * sim.Microsecond, Device: 1, Op: Flush, Flags: FlagPreFlush, Line: 5},
				{Time: 4 * sim.Microsecond, Device: 0, Offset: 0, Size: 1 << 20, Op: Trim, Flags: FlagSync, Line: 6},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, st := readString(t, c.text, c.opt)
			require.Equal(t, c.want, got)
			require.Equal(t, int64(len(c.want)), st.Requests)
		})
	}
}

// TestMSRSample reads the hand-made MSR Cambridge file. Times are Windows ticks of 100 ns
// relative to the first, 128166372003061629: 128166372016382155 - it = 13320526 ticks =
// 1332052600 ns; …26382245 → 23320616 ticks; …27000000 → 23938371 ticks. The last
// request, bytes [1000, 2100), rounds out to [512, 2560).
func TestMSRSample(t *testing.T) {
	reqs, st, err := ReadFile("testdata/msr_sample.csv", Options{})
	require.NoError(t, err)
	require.Equal(t, []Request{
		{Time: 0, Device: 0, Offset: 7014609920, Size: 24576, Op: Read, Line: 2},
		{Time: 1332052600 * sim.Nanosecond, Device: 0, Offset: 1317441536, Size: 8192, Op: Write, Line: 3},
		{Time: 1332052600 * sim.Nanosecond, Device: 1, Offset: 2436440064, Size: 4096, Op: Write, Line: 4},
		{Time: 2332061600 * sim.Nanosecond, Device: 0, Offset: 3154132992, Size: 512, Op: Read, Line: 5},
		{Time: 2393837100 * sim.Nanosecond, Device: 1, Offset: 512, Size: 2048, Op: Write, Line: 6},
	}, reqs)
	require.Equal(t, int64(1), st.Rounded)
	require.Equal(t, int64(1), st.Ignored, "the header")
}

// TestSPCSample reads the hand-made UMass/SPC file. Times are seconds relative to
// 0.551706: 0.554041 → 2335 us, 1.011732 → 460026 us, 1.012000 → 460294 us. Offsets are
// LBA·512: 20941264·512 = 10721927168, 20939840·512 = 10721198080, 3436288·512 =
// 1759379456, 20000·512 = 10240000; the 700 B read rounds out to 1024 B.
func TestSPCSample(t *testing.T) {
	reqs, _, err := ReadFile("testdata/spc_sample.spc", Options{})
	require.NoError(t, err)
	require.Equal(t, []Request{
		{Time: 0, Device: 0, Offset: 10721927168, Size: 8192, Op: Write, Line: 1},
		{Time: 2335 * sim.Microsecond, Device: 0, Offset: 10721198080, Size: 8192, Op: Write, Line: 2},
		{Time: 460026 * sim.Microsecond, Device: 1, Offset: 1759379456, Size: 15872, Op: Read, Line: 3},
		{Time: 460294 * sim.Microsecond, Device: 2, Offset: 10240000, Size: 1024, Op: Read, Line: 4},
	}, reqs)
}

// TestBlkparseDevices checks that device names come back in order of first appearance.
func TestBlkparseDevices(t *testing.T) {
	text := "  8,32 0 1 0.1 1 D W 0 + 8 [a]\n  259,0 0 2 0.2 1 D R 8 + 8 [a]\n  8,32 0 3 0.3 1 D R 8 + 8 [a]\n"
	rd, err := NewReader(strings.NewReader(text), "b", Options{})
	require.NoError(t, err)
	var devs []int
	for {
		req, err := rd.Next()
		if err != nil {
			break
		}
		devs = append(devs, req.Device)
	}
	require.Equal(t, []int{0, 1, 0}, devs)
	require.Equal(t, []string{"8,32", "259,0"}, rd.Devices())
}
