package pcie

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// noDLLP is the default spec without the link-layer share, for exact hand arithmetic.
func noDLLP() Spec {
	s := DefaultSpec()
	s.DLLPOverhead = false
	return s
}

func TestDefaultSpecIsValid(t *testing.T) {
	require.NoError(t, DefaultSpec().Validate())
}

// TestValidateNamesEveryField breaks each field on its own and then all at once.
func TestValidateNamesEveryField(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Spec)
		field string
	}{
		{"gen 0", func(s *Spec) { s.Gen = 0 }, "pcie.gen: 0 is not one of 1, 2, 3, 4, 5"},
		{"gen 6", func(s *Spec) { s.Gen = 6 }, "pcie.gen: 6"},
		{"lanes 3", func(s *Spec) { s.Lanes = 3 }, "pcie.lanes: 3 is not one of 1, 2, 4, 8, 16"},
		{"lanes 32", func(s *Spec) { s.Lanes = 32 }, "pcie.lanes: 32"},
		{"mps 64", func(s *Spec) { s.MPS = 64 }, "pcie.mps: 64"},
		{"mps 300", func(s *Spec) { s.MPS = 300 }, "pcie.mps: 300"},
		{"mrrs 8192", func(s *Spec) { s.MRRS = 8192 }, "pcie.mrrs: 8192"},
		{"rcb 32", func(s *Spec) { s.RCB = 32 }, "pcie.rcb: 32 is not one of 64, 128, 256, 512"},
		{"latency", func(s *Spec) { s.Latency = -1 }, "pcie.latency: -1ps is negative"},
	}
	all := DefaultSpec()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := DefaultSpec()
			c.edit(&s)
			err := s.Validate()
			require.Error(t, err)
			require.Contains(t, err.Error(), c.field)
		})
		c.edit(&all)
	}
	err := all.Validate()
	require.Error(t, err)
	for _, f := range []string{"pcie.gen", "pcie.lanes", "pcie.mps", "pcie.mrrs", "pcie.rcb", "pcie.latency"} {
		require.Contains(t, err.Error(), f)
	}
}

// TestSpecYAML decodes snake_case keys over the defaults, with a unit string for latency.
func TestSpecYAML(t *testing.T) {
	s := DefaultSpec()
	in := "gen: 4\nlanes: 8\nmps: 512\nmrrs: 1024\nrcb: 128\nrcb_chunks: true\n" +
		"latency: 350ns\naddr64: false\necrc: true\ndllp_overhead: false\ndllp_symbol_times: true\n" +
		"aspm: {l1: true, l1_entry: 20us, l0s_exit: 500ns}\n"
	require.NoError(t, yaml.Unmarshal([]byte(in), &s))
	require.Equal(t, Spec{Gen: 4, Lanes: 8, MPS: 512, MRRS: 1024, RCB: 128, RCBChunks: true,
		Latency: 350 * sim.Nanosecond, ECRC: true, DLLPSymbolTimes: true,
		ASPM: ASPM{L1: true, L0sEntry: 7 * sim.Microsecond, L0sExit: 500 * sim.Nanosecond,
			L1Entry: 20 * sim.Microsecond, L1Exit: 4 * sim.Microsecond}}, s)
	require.NoError(t, s.Validate())
}

// TestBytesPerSecond checks the encoded rate of one direction, docs/sources.md §2.
func TestBytesPerSecond(t *testing.T) {
	cases := []struct {
		gen, lanes int
		want       int64
	}{
		{1, 1, 250_000_000},     // 2.5 GT/s · 8/10 / 8 bits
		{1, 4, 1_000_000_000},   // ×4
		{2, 8, 4_000_000_000},   // 5 GT/s · 8/10 / 8 · 8
		{3, 1, 984_615_384},     // 8 GT/s · 128/130 / 8 = 984 615 384.6 (FACTS: 7.877 Gb/s)
		{3, 4, 3_938_461_538},   // FACTS: x4 = 3.94 GB/s
		{4, 4, 7_876_923_076},   // FACTS: Gen4 x4 = 7.88 GB/s
		{5, 16, 63_015_384_615}, // 32 GT/s · 128/130 / 8 · 16 = 63 015 384 615.4
	}
	for _, c := range cases {
		s := DefaultSpec()
		s.Gen, s.Lanes = c.gen, c.lanes
		require.Equal(t, c.want, s.BytesPerSecond(), "gen%d x%d", c.gen, c.lanes)
	}
}

// TestWireTime checks the per-byte time: Gen1 x1 is 10 bits at 2.5 GT/s = 4 ns per byte;
// Gen3 x4 is 8.125 bits at 8 GT/s on 4 lanes = 253.90625 ps per byte.
func TestWireTime(t *testing.T) {
	s := DefaultSpec()
	require.Equal(t, sim.Time(1_137_500), s.WireTime(4480)) // 4480 · 253.90625 exactly
	require.Equal(t, sim.Time(7110), s.WireTime(28))        // 28 · 253.90625 = 7109.375, rounded up
	require.Equal(t, sim.Time(254), s.WireTime(1))
	s.Gen, s.Lanes = 1, 1
	require.Equal(t, 28*4*sim.Nanosecond, s.WireTime(28))
	s.Gen, s.Lanes = 2, 16 // 10 bits / 5 GT/s / 16 lanes = 125 ps per byte
	require.Equal(t, sim.Time(125*4096), s.WireTime(4096))
	s.Gen = 5 // 8.125 bits / 32 GT/s / 16 lanes = 15.869140625 ps per byte
	require.Equal(t, sim.Time(65_000), s.WireTime(4096))
}

// TestOverheads checks per-TLP bytes, docs/sources.md §2: MWr/MRd 24 B with 64-bit addresses,
// 20 B with 32-bit, CplD 20 B, +4 B with ECRC.
func TestOverheads(t *testing.T) {
	s := DefaultSpec()
	require.Equal(t, 24, s.RequestOverhead())
	require.Equal(t, 20, s.CompletionOverhead())
	s.Addr64 = false
	require.Equal(t, 20, s.RequestOverhead())
	s.ECRC = true
	require.Equal(t, 24, s.RequestOverhead())
	require.Equal(t, 24, s.CompletionOverhead())
	s.Addr64 = true
	require.Equal(t, 28, s.RequestOverhead())
}

// TestSplitting checks TLP counts for MPS, MRRS and RCB splits (docs/sources.md §2).
func TestSplitting(t *testing.T) {
	cases := []struct {
		name                    string
		mps, mrrs, rcb          int
		rcbChunks               bool
		bytes                   int
		writes, requests, cplds int
	}{
		{"4K default", 256, 512, 64, false, 4096, 16, 8, 16},
		{"4K mps128", 128, 512, 64, false, 4096, 32, 8, 32},
		{"4K mrrs128 < mps", 256, 128, 64, false, 4096, 16, 32, 32},
		{"4K rcb chunks", 256, 512, 64, true, 4096, 16, 8, 64},
		{"4K rcb 512 > mps", 256, 512, 512, true, 4096, 16, 8, 16},
		{"64 B SQE", 256, 512, 64, false, 64, 1, 1, 1},
		{"4097 B", 256, 512, 64, false, 4097, 17, 9, 17},
		{"128K mps4096", 4096, 4096, 64, false, 128 << 10, 32, 32, 32},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := DefaultSpec()
			s.MPS, s.MRRS, s.RCB, s.RCBChunks = c.mps, c.mrrs, c.rcb, c.rcbChunks
			require.NoError(t, s.Validate())
			require.Equal(t, c.writes, s.WriteTLPs(c.bytes))
			require.Equal(t, c.requests, s.ReadRequests(c.bytes))
			require.Equal(t, c.cplds, s.Completions(c.bytes))
		})
	}
}

// TestWireBytes checks the byte sums of a 4 KiB write at Gen3 x4, MPS 256.
func TestWireBytes(t *testing.T) {
	s := noDLLP()
	require.Equal(t, 16*(256+24), s.WriteTLPBytes(4096))
	require.Equal(t, 4480, s.WriteWireBytes(4096))
	require.Equal(t, 4+24, s.WriteTLPBytes(3), "payload padded to a doubleword")
	require.Equal(t, 8*24, s.ReadRequestBytes(4096))
	require.Equal(t, 4096+16*20, s.CompletionBytes(4096))

	// DLLP share: wire = tlp / (1 − 16/214 − 4/1538), so the extra bytes are
	// 4480 · (4·214 + 24608) / (1534·214 − 24608) = 114 078 720 / 303 668 = 375.67 → 376.
	s.DLLPOverhead = true
	require.Equal(t, 4480+376, s.WriteWireBytes(4096))
}

// TestDLLPFactor checks the link-layer share, docs/sources.md §2: Gen3 x4 has an ACK + UpdateFC pair
// every 214 B at MPS 256 (7.7 % overhead) and every 169 B at MPS 128 (9.7 %).
func TestDLLPFactor(t *testing.T) {
	s := DefaultSpec()
	require.Equal(t, int64(214), s.AckSpan())
	num, den := s.DLLPFactor()
	require.Equal(t, [2]int64{1538 * 214, 1534*214 - 16*1538}, [2]int64{num, den})
	require.InDelta(t, 0.077, 1-float64(den)/float64(num), 0.001)

	s.MPS = 128
	require.Equal(t, int64(169), s.AckSpan())
	num, den = s.DLLPFactor()
	require.InDelta(t, 0.097, 1-float64(den)/float64(num), 0.001)

	s.DLLPSymbolTimes = true // 169 symbol times on 4 lanes = 676 B
	require.Equal(t, int64(676), s.AckSpan())

	s.DLLPOverhead = false
	num, den = s.DLLPFactor()
	require.Equal(t, [2]int64{1, 1}, [2]int64{num, den})
}

// TestAckTableCovered makes sure every valid spec has a positive link-layer factor.
func TestAckTableCovered(t *testing.T) {
	s := DefaultSpec()
	for gen := 1; gen <= 5; gen++ {
		for _, lanes := range []int{1, 2, 4, 8, 16} {
			for mps := 128; mps <= 4096; mps *= 2 {
				s.Gen, s.Lanes, s.MPS = gen, lanes, mps
				num, den := s.DLLPFactor()
				require.Positive(t, den)
				require.Greater(t, num, den)
				require.Positive(t, s.TLPTime(1))
			}
		}
	}
}
