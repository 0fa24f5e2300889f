package onfi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

const ns = sim.Nanosecond

// TestRateTable checks the MT/s table against docs/sources.md §3.1, row by row.
func TestRateTable(t *testing.T) {
	cases := []struct {
		iface Interface
		mode  int
		want  int
		ok    bool
	}{
		{SDR, 0, 10, true}, {SDR, 5, 50, true}, {SDR, 6, 0, false},
		{NVDDR, 0, 40, true}, {NVDDR, 5, 200, true}, {NVDDR, 6, 0, false},
		{NVDDR2, 6, 333, true}, {NVDDR2, 8, 533, true}, {NVDDR2, 9, 0, false},
		{NVDDR3, 9, 667, true}, {NVDDR3, 10, 800, true}, {NVDDR3, 11, 0, false},
		{NVDDR2, -1, 0, false}, {Interface(9), 0, 0, false},
	}
	for _, c := range cases {
		got, ok := RateMTps(c.iface, c.mode)
		require.Equal(t, c.ok, ok, "%v mode %d", c.iface, c.mode)
		require.Equal(t, c.want, got, "%v mode %d", c.iface, c.mode)
	}
}

// TestDefaultSpec checks the default is NV-DDR2 mode 6, 333 MT/s on 8 bits, and valid.
func TestDefaultSpec(t *testing.T) {
	s := DefaultSpec()
	require.NoError(t, s.Validate())
	require.Equal(t, NVDDR2, s.Interface)
	require.Equal(t, 6, s.Mode)
	require.Equal(t, 8, s.BusWidth)
	require.Equal(t, 333, s.MTps())
	// SimpleSSD sample.xml (docs/sources.md §3.2): tWC 25 ns, tADL 70 ns, tWB 100 ns.
	require.Equal(t, 25*ns, s.TWC)
	require.Equal(t, 70*ns, s.TADL)
	require.Equal(t, 100*ns, s.TWB)
}

// TestSpecForModes checks the derived command-cycle times against docs/sources.md §3.2.
func TestSpecForModes(t *testing.T) {
	cases := []struct {
		iface     Interface
		mode      int
		cycle     sim.Time // CmdCycle by hand
		twb, twhr sim.Time
	}{
		{SDR, 0, 100 * ns, 200 * ns, 120 * ns}, // tWC = 1/10 MT/s = 100 ns
		{SDR, 5, 20 * ns, 100 * ns, 80 * ns},   // tWC = 1/50 MT/s = 20 ns
		{NVDDR, 0, 50 * ns, 100 * ns, 80 * ns}, // tCK 50 ns > tCAD 45 ns
		{NVDDR, 5, 45 * ns, 100 * ns, 80 * ns}, // tCK 10 ns < tCAD 45 ns
		{NVDDR3, 10, 25 * ns, 100 * ns, 80 * ns},
	}
	for _, c := range cases {
		s, err := SpecFor(c.iface, c.mode)
		require.NoError(t, err)
		require.NoError(t, s.Validate())
		require.Equal(t, c.cycle, s.CmdCycle(), "%v mode %d", c.iface, c.mode)
		require.Equal(t, c.twb, s.TWB)
		require.Equal(t, c.twhr, s.TWHR)
	}
	_, err := SpecFor(SDR, 7)
	require.ErrorContains(t, err, "onfi.mode")
}

// TestTransfer checks data transfer times by hand: n bytes at r MT/s on w bits take
// ⌈n·8/w⌉ transfers of 10⁶/r ps, rounded up once.
func TestTransfer(t *testing.T) {
	s := DefaultSpec()
	// 16 KiB at 333 MT/s, 8 bits: 16384/333e6 s = 49,201,201.2 ps → 49,201,202 ps.
	require.Equal(t, sim.Time(49_201_202), s.Transfer(16384))
	// 4 KiB: 4096e6/333 = 12,300,300.3 → 12,300,301 ps.
	require.Equal(t, sim.Time(12_300_301), s.Transfer(4096))
	require.Equal(t, sim.Time(0), s.Transfer(0))
	// One byte: 10⁶/333 = 3003.003 → 3004 ps.
	require.Equal(t, sim.Time(3004), s.Transfer(1))

	s3, err := SpecFor(NVDDR3, 10) // 800 MT/s: 1.25 ns per transfer
	require.NoError(t, err)
	require.Equal(t, sim.Time(16384*1250), s3.Transfer(16384))
	s3.BusWidth = 16 // half the transfers
	require.Equal(t, sim.Time(8192*1250), s3.Transfer(16384))
	require.Equal(t, sim.Time(1250), s3.Transfer(1)) // one 16-bit transfer
}

// TestPhaseTimes checks every phase of the default spec by hand: one cmd/addr cycle is
// 25 ns, an address is 2 column + 3 row cycles.
func TestPhaseTimes(t *testing.T) {
	s := DefaultSpec()
	// Read: 00h + 5 addr + 30h = 7 cycles = 175 ns, + tWB 100 = 275 ns.
	require.Equal(t, 275*ns, s.ReadIssue(0, 1))
	require.Equal(t, 275*ns, s.ReadCommand(1))
	// Two-plane read: plane 0 adds tDBSY 500 ns: 775 + 275 = 1050 ns.
	require.Equal(t, 775*ns, s.ReadIssue(0, 2))
	require.Equal(t, 1050*ns, s.ReadCommand(2))
	// Data out, one plane: tRR 20 ns + transfer.
	require.Equal(t, 20*ns, s.ReadOutSetup(0, 1))
	require.Equal(t, 20*ns+49_201_202, s.ReadDataOut(1, 16384))
	// Two planes: each 06h + 5 addr + E0h = 175 ns + tCCS 500 ns; plane 0 also tRR.
	require.Equal(t, 695*ns, s.ReadOutSetup(0, 2))
	require.Equal(t, 675*ns, s.ReadOutSetup(1, 2))
	require.Equal(t, 1370*ns+2*49_201_202, s.ReadDataOut(2, 16384))
	// Program: 80h + 5 addr = 150 ns + tADL 70 = 220 ns; 10h 25 ns + tWB 100 = 125 ns.
	require.Equal(t, 220*ns, s.ProgramSetup(0, 1))
	require.Equal(t, 125*ns, s.ProgramConfirm(0, 1))
	require.Equal(t, 625*ns, s.ProgramConfirm(0, 2)) // + tDBSY
	cmd, data := s.ProgramBus(2, 16384)
	require.Equal(t, (220+625+220+125)*ns, cmd)
	require.Equal(t, 2*sim.Time(49_201_202), data)
	// Erase: 60h + 3 row + D0h = 125 ns + tWB 100 = 225 ns; D1h plane adds tDBSY.
	require.Equal(t, 225*ns, s.EraseIssue(0, 1))
	require.Equal(t, (725+225)*ns, s.EraseCommand(2))
	// Status: 70h 25 ns + tWHR 80 ns + one byte 3004 ps; 78h adds 3 row cycles (75 ns).
	require.Equal(t, 105*ns+3004, s.StatusRead(false))
	require.Equal(t, 180*ns+3004, s.StatusRead(true))
}

// TestSequence checks the opcodes of each sequence against docs/sources.md §3.3.
func TestSequence(t *testing.T) {
	hex := func(b []byte) string {
		var parts []string
		for _, x := range b {
			parts = append(parts, fmt.Sprintf("%02Xh", x))
		}
		return strings.Join(parts, "-")
	}
	cases := []struct {
		kind          Kind
		plane, planes int
		want          string
	}{
		{KindRead, 0, 1, "00h-30h"},
		{KindRead, 0, 2, "00h-32h"},
		{KindRead, 1, 2, "00h-30h"},
		{KindProgram, 0, 1, "80h-10h"},
		{KindProgram, 0, 2, "80h-11h"},
		{KindProgram, 1, 2, "81h-10h"},
		{KindCacheProgram, 0, 1, "80h-15h"},
		{KindCacheProgram, 1, 2, "81h-15h"},
		{KindErase, 0, 1, "60h-D0h"},
		{KindErase, 0, 2, "60h-D1h"},
		{KindErase, 1, 2, "60h-D0h"},
		{KindStatus, 0, 1, "70h"},
		{KindStatusEnh, 0, 1, "78h"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, hex(Sequence(c.kind, c.plane, c.planes)), "%v %d/%d", c.kind, c.plane, c.planes)
	}
	require.Nil(t, Sequence(Kind(99), 0, 1))
}

// TestValidateReportsEveryField checks that all problems come back at once, each named.
func TestValidateReportsEveryField(t *testing.T) {
	s := DefaultSpec()
	s.Mode = 12
	s.BusWidth = 4
	s.ColumnCycles = 0
	s.RowCycles = 9
	s.TWC = 0
	s.TADL = -1
	err := s.Validate()
	require.Error(t, err)
	for _, f := range []string{"onfi.mode", "onfi.bus_width", "onfi.column_cycles",
		"onfi.row_cycles", "onfi.t_wc", "onfi.t_adl"} {
		require.ErrorContains(t, err, f)
	}
	s = DefaultSpec()
	s.Interface = Interface(7)
	require.ErrorContains(t, s.Validate(), "onfi.interface")
}

// TestYAML checks the spec decodes from YAML with unit strings and interface names.
func TestYAML(t *testing.T) {
	src := "interface: nv-ddr3\nmode: 10\nbus_width: 8\ncolumn_cycles: 2\nrow_cycles: 3\n" +
		"t_wc: 25ns\nt_cad: 25ns\nt_adl: 70ns\nt_wb: 100ns\nt_whr: 80ns\nt_ccs: 500ns\n" +
		"t_rr: 20ns\nt_dbsy: 500ns\n"
	var s Spec
	require.NoError(t, yaml.Unmarshal([]byte(src), &s))
	require.NoError(t, s.Validate())
	require.Equal(t, 800, s.MTps())
	out, err := yaml.Marshal(s)
	require.NoError(t, err)
	require.Contains(t, string(out), "interface: nv-ddr3")
	require.Contains(t, string(out), "t_adl: 70ns")
	require.Error(t, yaml.Unmarshal([]byte("interface: ddr5\n"), &s))
}

// FuzzInterfaceText checks the interface name parser: whatever it accepts prints back as
// the same text.
func FuzzInterfaceText(f *testing.F) {
	for _, n := range []string{"sdr", "nv-ddr", "nv-ddr2", "nv-ddr3", "", "NV-DDR2", "ddr"} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var i Interface
		if err := i.UnmarshalText([]byte(s)); err != nil {
			return
		}
		require.Equal(t, s, i.String())
	})
}

// ExampleSpec_Transfer shows the bus time of a 16 KiB page on the default bus.
func ExampleSpec_Transfer() {
	s := DefaultSpec()
	fmt.Println(s.Interface, s.Mode, s.MTps(), "MT/s")
	fmt.Println("read cmd:", s.ReadCommand(1))
	fmt.Println("16 KiB out:", s.Transfer(16384))
	// Output:
	// nv-ddr2 6 333 MT/s
	// read cmd: 275ns
	// 16 KiB out: 49201.202ns
}

// BenchmarkTransfer measures the per-call cost of the transfer-time arithmetic.
func BenchmarkTransfer(b *testing.B) {
	s := DefaultSpec()
	b.ReportAllocs()
	var sum sim.Time
	for i := 0; b.Loop(); i++ {
		sum += s.Transfer(4096 + i&1023)
	}
	_ = sum
}
