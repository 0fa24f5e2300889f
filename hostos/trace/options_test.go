package trace

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestTimeScale checks exact rational scaling: DiskSim times 0, 1000, 3333 ns relative.
func TestTimeScale(t *testing.T) {
	text := "5000 0 0 8 1\n6000 0 0 8 1\n8333 0 0 8 1\n"
	cases := []struct {
		scale string
		want  []sim.Time // by hand: rel·num/den, rounded down to the picosecond
	}{
		{"1", []sim.Time{0, 1000 * sim.Nanosecond, 3333 * sim.Nanosecond}},
		{"1/2", []sim.Time{0, 500 * sim.Nanosecond, 1666500 * sim.Picosecond}},
		{"0.25", []sim.Time{0, 250 * sim.Nanosecond, 833250 * sim.Picosecond}},
		{"10", []sim.Time{0, 10 * sim.Microsecond, 33330 * sim.Nanosecond}},
		// 3333000 ps / 7 = 476142.857… → 476142 ps; 1000000 / 7 = 142857.14… → 142857 ps.
		{"1/7", []sim.Time{0, 142857, 476142}},
	}
	for _, c := range cases {
		r, err := ParseRatio(c.scale)
		require.NoError(t, err)
		reqs, _ := readString(t, text, Options{Format: DiskSim, TimeScale: r})
		var got []sim.Time
		for _, q := range reqs {
			got = append(got, q.Time)
		}
		require.Equal(t, c.want, got, c.scale)
	}
}

// TestTimeScaleNoOverflow scales a time whose product with the numerator exceeds 64 bits:
// 100 days = 8.64e18 ps times 3/4 = 6.48e18 ps.
func TestTimeScaleNoOverflow(t *testing.T) {
	got, ok := Ratio{3, 4}.Apply(8_640_000 * sim.Second)
	require.True(t, ok)
	require.Equal(t, 6_480_000*sim.Second, got)
	_, ok = Ratio{2, 1}.Apply(8_640_000 * sim.Second)
	require.False(t, ok, "17.28e18 ps does not fit int64")
	_, _, err := ReadAll(strings.NewReader("0 0 0 1 1\n8000000 0 0 1 1\n"), "o", Options{Format: SPC, TimeScale: Ratio{2, 1}})
	require.Error(t, err)
}

// TestTimeUnitOverride reads the vSCSI columns in microseconds instead of seconds, and a
// DiskSim trace in classic DiskSim milliseconds.
func TestTimeUnitOverride(t *testing.T) {
	reqs, _ := readString(t, "1,100,28,512,0\n1,250,28,512,0\n", Options{Format: VSCSI, TimeUnit: sim.Microsecond})
	require.Equal(t, 150*sim.Microsecond, reqs[1].Time)
	reqs, _ = readString(t, "0.0 0 0 8 1\n2.125 0 0 8 1\n", Options{Format: DiskSim, TimeUnit: sim.Millisecond})
	require.Equal(t, 2125*sim.Microsecond, reqs[1].Time)
}

// TestCapacity checks reject and wrap with a 1 MiB capacity (1048576 B).
func TestCapacity(t *testing.T) {
	// Replayer bytes: a fits, b starts past the end, c crosses the end.
	text := "0 0 0 4096 1\n1 0 1052672 4096 1\n2 0 1046528 4096 0\n"
	_, _, err := ReadAll(strings.NewReader(text), "c", Options{Format: Replayer, Capacity: 1 << 20})
	require.EqualError(t, err, "c:2: range 1052672+4096: past capacity 1048576")

	_, st, err := ReadAll(strings.NewReader(text), "c", Options{Format: Replayer, Capacity: 1 << 20, Lenient: true})
	require.NoError(t, err)
	require.Equal(t, int64(1), st.Requests)
	require.Equal(t, int64(2), st.Skipped)

	reqs, st := readString(t, text, Options{Format: Replayer, Capacity: 1 << 20, PastCapacity: Wrap})
	// 1052672 mod 1048576 = 4096; 1046528 + 4096 = 1050624 > 1 MiB, so it is moved down to
	// end at the capacity: 1048576 - 4096 = 1044480.
	require.Equal(t, []int64{0, 4096, 1044480}, []int64{reqs[0].Offset, reqs[1].Offset, reqs[2].Offset})
	require.Equal(t, int64(2), st.Wrapped)

	_, _, err = ReadAll(strings.NewReader("0 0 0 2097152 1\n"), "c", Options{Format: Replayer, Capacity: 1 << 20, PastCapacity: Wrap})
	require.EqualError(t, err, "c:1: range 0+2097152: past capacity 1048576")
}

// TestDevices checks separate and merged device mapping (DiskSim: lba 8 = 4096 B).
func TestDevices(t *testing.T) {
	text := "0 0 8 8 1\n1 1 8 8 1\n2 5 8 8 1\n"
	reqs, _ := readString(t, text, Options{Format: DiskSim})
	require.Equal(t, []int{0, 1, 5}, []int{reqs[0].Device, reqs[1].Device, reqs[2].Device})

	// Device 1 is placed by the map at 1 GiB; device 5 by the stride at 5·1 MiB.
	opt := Options{Format: DiskSim, Devices: Merged, DeviceOffsets: map[int]int64{1: 1 << 30}, DeviceStride: 1 << 20}
	reqs, _ = readString(t, text, opt)
	require.Equal(t, []Request{
		{Time: 0, Offset: 4096, Size: 4096, Op: Read, Line: 1},
		{Time: sim.Nanosecond, Offset: 1<<30 + 4096, Size: 4096, Op: Read, Line: 2},
		{Time: 2 * sim.Nanosecond, Offset: 5<<20 + 4096, Size: 4096, Op: Read, Line: 3},
	}, reqs)

	// Capacity applies after merging: device 1 at 1 GiB is past a 16 MiB capacity.
	opt.Capacity = 16 << 20
	_, _, err := ReadAll(strings.NewReader(text), "d", opt)
	require.EqualError(t, err, "d:2: range 1073745920+4096: past capacity 16777216")
}

// TestUnaligned checks the three policies for the byte range [1000, 2100) with 512 B and
// 4096 B sectors.
func TestUnaligned(t *testing.T) {
	text := "0 0 1000 1100 0\n"
	reqs, st := readString(t, text, Options{Format: Replayer})
	require.Equal(t, [2]int64{512, 2048}, [2]int64{reqs[0].Offset, reqs[0].Size}) // [512, 2560)
	require.Equal(t, int64(1), st.Rounded)
	// The trace asked for 1100 bytes; the device moves the 2048 rounded out to sectors.
	require.Equal(t, int64(1100), st.ReadBytesAsked+st.WriteBytesAsked)
	require.Equal(t, int64(2048), st.ReadBytes+st.WriteBytes)

	reqs, _ = readString(t, text, Options{Format: Replayer, SectorSize: 4096})
	require.Equal(t, [2]int64{0, 4096}, [2]int64{reqs[0].Offset, reqs[0].Size}) // [0, 4096)

	reqs, st = readString(t, text, Options{Format: Replayer, Unaligned: Keep})
	require.Equal(t, [2]int64{1000, 1100}, [2]int64{reqs[0].Offset, reqs[0].Size})
	require.Zero(t, st.Rounded)

	_, _, err := ReadAll(strings.NewReader(text), "u", Options{Format: Replayer, Unaligned: RejectUnaligned})
	require.EqualError(t, err, "u:1: range 1000+1100: not aligned to 512 B sectors")
}

// TestValidate checks that every problem is reported with its field.
func TestValidate(t *testing.T) {
	require.NoError(t, DefaultOptions().Validate())
	require.NoError(t, Options{}.Validate())
	bad := Options{
		Format: 42, MaxWarnings: -1, TimeUnit: -sim.Nanosecond, TimeScale: Ratio{-1, 2},
		Devices: 7, SectorSize: 520, DeviceStride: -512, DeviceOffsets: map[int]int64{3: 7, -1: 0},
		Capacity: -4096, PastCapacity: 9, Unaligned: 9, BlkparseEvent: 9,
	}
	err := bad.Validate()
	require.Error(t, err)
	for _, field := range []string{"format", "max_warnings", "time_unit", "time_scale", "devices", "sector_size",
		"device_stride", "device_offsets", "capacity", "past_capacity", "unaligned", "blkparse_event"} {
		require.Contains(t, err.Error(), "trace."+field+":")
	}
	require.Contains(t, err.Error(), "trace.sector_size: 520 is not a positive power of two")
	require.Contains(t, err.Error(), "trace.device_offsets: device -1 at 0")
	_, err = NewReader(strings.NewReader(""), "v", bad)
	require.Error(t, err)
}

// TestOptionsYAML decodes options from YAML with unit strings and names.
func TestOptionsYAML(t *testing.T) {
	src := `
format: mqsim
lenient: true
time_unit: 1ms
time_scale: 1/4
devices: merged
device_offsets: {0: 0, 1: 1073741824}
capacity: 4294967296
past_capacity: wrap
sector_size: 4096
unaligned: reject
blkparse_event: Q
`
	o := DefaultOptions()
	require.NoError(t, yaml.Unmarshal([]byte(src), &o))
	require.Equal(t, Options{
		Format: DiskSim, Lenient: true, MaxWarnings: 20, TimeUnit: sim.Millisecond, TimeScale: Ratio{1, 4},
		Devices: Merged, DeviceOffsets: map[int]int64{0: 0, 1: 1 << 30}, Capacity: 4 << 30,
		PastCapacity: Wrap, SectorSize: 4096, Unaligned: RejectUnaligned, BlkparseEvent: BlkQueue,
	}, o)
	require.NoError(t, o.Validate())
	out, err := yaml.Marshal(o)
	require.NoError(t, err)
	require.Contains(t, string(out), "time_scale: 1/4")
	require.Contains(t, string(out), "unaligned: reject")
	require.Error(t, yaml.Unmarshal([]byte("devices: sideways"), &o))
}

// TestParseRatio is the contract of ParseRatio.
func TestParseRatio(t *testing.T) {
	for in, want := range map[string]Ratio{"1": {1, 1}, "3/4": {3, 4}, "6/8": {3, 4}, "0.25": {1, 4}, "2.5": {5, 2}, " 10 ": {10, 1}} {
		got, err := ParseRatio(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "0", "0/1", "1/0", "-1", "a/b", "1e3", "1/2/3"} {
		_, err := ParseRatio(in)
		require.Error(t, err, in)
	}
}
