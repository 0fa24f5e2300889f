package die

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestFaultRateGrowth works the P/E growth law by hand: rate 1e-4, pe_scale 3,000,
// exponent 2: at 0 cycles 1e-4; at 3,000, 1e-4·2² = 4e-4; at 6,000, 1e-4·3² = 9e-4; at
// 3e6, (1 + 1000)² ≈ 1e6 times the base, capped at 1. Exponent 0 keeps the base.
func TestFaultRateGrowth(t *testing.T) {
	f := FaultSpec{PEScale: 3000, PEExponent: 2}
	require.InDelta(t, 1e-4, f.rateAt(1e-4, 0), 1e-15)
	require.InDelta(t, 4e-4, f.rateAt(1e-4, 3000), 1e-15)
	require.InDelta(t, 9e-4, f.rateAt(1e-4, 6000), 1e-15)
	require.Equal(t, 1.0, f.rateAt(1e-4, 3000000))
	require.Equal(t, 1e-4, FaultSpec{}.rateAt(1e-4, 6000))
}

// TestScriptedProgramFault: a scripted program fault on plane 1 block 2 page 3 after
// 10 ms fires on the first program of that page at or after 10 ms, once. Pages 0–3 are LSB
// (tPROG 558 µs), so programs of pages 0, 1, 2, 3 from 0 start page 3 at 3 × 558 =
// 1,674 µs, before After: it succeeds; the block is erased; the same from 20 ms fails
// (Failed = bit 1, plane 1); after another erase the next one succeeds. Another die's
// script never fires here.
func TestScriptedProgramFault(t *testing.T) {
	s := smallSpec()
	s.Faults.Scripted = []ScriptedFault{
		{Die: "ssd.ch[0].die[1]", Op: "program", Plane: 1, Block: 2, Page: 3, After: 10 * sim.Millisecond},
		{Die: "ssd.ch[9].die[9]", Op: "program", Plane: 1, Block: 2, Page: 0},
	}
	d := newDie(t, s)
	prog := func(t0 sim.Time) uint64 {
		end := t0
		for p := 0; p <= 3; p++ {
			end = d.Program(end, []Addr{{Plane: 1, Block: 2, Page: p}}, []uint64{uint64(p)})
			require.True(t, d.Complete(end))
			if p < 3 {
				require.Zero(t, d.Failed(), "page %d", p)
			}
		}
		f := d.Failed()
		require.True(t, d.Complete(d.Erase(end, []Addr{{Plane: 1, Block: 2}})))
		require.Zero(t, d.Failed())
		return f
	}
	require.Zero(t, prog(0))
	require.Equal(t, uint64(1<<1), prog(20*sim.Millisecond))
	require.Zero(t, prog(1000*sim.Millisecond))
}

// TestFactoryBadDeterministic: the factory bad blocks are drawn from the die's named
// stream: the same seed and name give the same blocks, distinct and in block order; another
// seed gives (here) others; none without the spec.
func TestFactoryBadDeterministic(t *testing.T) {
	s := smallSpec() // 8 blocks
	s.Faults = FaultSpec{FactoryBad: 3, Seed: 11}
	a, b := newDie(t, s).FactoryBad(), newDie(t, s).FactoryBad()
	require.Len(t, a, 3)
	require.Equal(t, a, b)
	for i := 1; i < len(a); i++ {
		prev, cur := a[i-1].Plane*4+a[i-1].Block, a[i].Plane*4+a[i].Block
		require.Less(t, prev, cur)
	}
	require.Nil(t, newDie(t, smallSpec()).FactoryBad())
}

// TestFaultsValidate: every problem names its field.
func TestFaultsValidate(t *testing.T) {
	s := smallSpec()
	s.Faults = FaultSpec{ProgramFail: 1.5, EraseFail: -0.1, PEExponent: 1, FactoryBad: 8,
		Scripted: []ScriptedFault{{Op: "read", Plane: 2, Block: 4, Page: 24, After: -1}}}
	err := s.Validate()
	require.Error(t, err)
	for _, want := range []string{"die.faults.program_fail: 1.5", "die.faults.erase_fail: -0.1",
		"die.faults.pe_scale: must be positive", "die.faults.factory_bad: 8 is not in 0 … 7",
		"die.faults.scripted[0].die: missing", `die.faults.scripted[0].op: "read"`,
		"die.faults.scripted[0].plane: 2", "die.faults.scripted[0].block: 4",
		"die.faults.scripted[0].page: 24", "die.faults.scripted[0].after"} {
		require.Contains(t, err.Error(), want)
	}
	s = smallSpec()
	s.Faults.Read = ReadErrorSpec{RBER: 1e-3, Retention: 1e-4, Codeword: 8192, RetryGain: 1, MaxRetries: 65}
	err = s.Validate()
	for _, want := range []string{"die.faults.read.age_unit: 0s must be positive when retention is set",
		"die.faults.read.ecc_bits: 0 must be positive", "die.faults.read.codeword: 8192 is not in 1 … 4096 (the page size)",
		"die.faults.read.retry_gain: 1 is not in (0, 1)", "die.faults.read.max_retries: 65 is not in 0 … 64"} {
		require.ErrorContains(t, err, want)
	}
}

// TestFaultsYAML: the section parses with unit strings, and a spec without it marshals
// without a faults key (the default configuration's output is unchanged).
func TestFaultsYAML(t *testing.T) {
	var s Spec
	require.NoError(t, yaml.Unmarshal([]byte(`
faults:
  seed: 5
  program_fail: 0.001
  pe_scale: 3000
  pe_exponent: 2
  factory_bad: 2
  scripted:
    - {die: "ssd.ch[0].die[0]", op: program, plane: 0, block: 3, page: 5, after: 2ms}
`), &s))
	require.Equal(t, FaultSpec{Seed: 5, ProgramFail: 0.001, PEScale: 3000, PEExponent: 2, FactoryBad: 2,
		Scripted: []ScriptedFault{{Die: "ssd.ch[0].die[0]", Op: "program", Plane: 0, Block: 3, Page: 5, After: 2 * sim.Millisecond}}}, s.Faults)
	out, err := yaml.Marshal(smallSpec())
	require.NoError(t, err)
	require.NotContains(t, string(out), "faults")
}

// TestReadErrorModel works the RBER law and the retry count by hand.
//   - rber 1e-4, pe_scale 1,000, pe_exponent 2, retention 1e-4 a day with age_exponent 1,
//     read_exponent 0.5: a block of 1,000 cycles, data 2 days old, read 3 times:
//     (1 + 1)² × (1e-4 + 1e-4 × 2 × (1 + 3)^0.5) = 4 × (1e-4 + 4e-4) = 2e-3.
//   - fresh (0 cycles, age 0, no reads): 1e-4.
//   - codeword 512 B = 4,096 bits, ecc 30, gain 0.5: RBER 2e-3 gives 8.192 errors: 0 steps;
//     RBER 0.03 gives 122.88 → 61.44 → 30.72 → 15.36: 3 steps; with max_retries 2 it stays
//     uncorrectable after 2.
func TestReadErrorModel(t *testing.T) {
	day := 24 * 3600 * sim.Second
	r := ReadErrorSpec{RBER: 1e-4, PEScale: 1000, PEExponent: 2, Retention: 1e-4, AgeUnit: day, AgeExponent: 1,
		ReadExponent: 0.5, ECCBits: 30, Codeword: 512, RetryGain: 0.5, MaxRetries: 5}
	require.InDelta(t, 2e-3, r.rberAt(1000, 2*day, 3), 1e-15)
	require.InDelta(t, 1e-4, r.rberAt(0, 0, 0), 1e-18)
	s, ok := r.retries(2e-3)
	require.Equal(t, 0, s)
	require.True(t, ok)
	s, ok = r.retries(0.03)
	require.Equal(t, 3, s)
	require.True(t, ok)
	r.MaxRetries = 2
	s, ok = r.retries(0.03)
	require.Equal(t, 2, s)
	require.False(t, ok)
}

// TestReadRetryOnDie: a read needing 2 steps (RBER 0.01, 1,024-B codewords: 81.92 errors;
// ecc 40, gain 0.5) reports ReadRetries 2; each Retry is one tR of the page (58 µs for an
// LSB page) of activity "retry"; a third Retry panics; the block's read count feeds the
// next read. Validation refuses read retry with suspend.
func TestReadRetryOnDie(t *testing.T) {
	s := smallSpec()
	s.Faults.Read = ReadErrorSpec{RBER: 0.01, ECCBits: 40, Codeword: 1024, RetryGain: 0.5, MaxRetries: 4}
	d := newDie(t, s)
	a := []Addr{{Plane: 0, Block: 0, Page: 0}}
	end := d.Program(0, a, []uint64{7})
	require.True(t, d.Complete(end))
	st := make([]uint64, 1)
	end = d.Read(end, a, st)
	require.Equal(t, uint64(7), st[0])
	require.Equal(t, 2, d.ReadRetries())
	require.Zero(t, d.Failed())
	e1 := d.Retry(end, a)
	require.Equal(t, end+58*us, e1)
	e2 := d.Retry(e1, a)
	require.Equal(t, e1+58*us, e2)
	require.Panics(t, func() { d.Retry(e2, a) })
	require.Equal(t, int64(2), d.Stats().Retries)
	s.Suspend = true
	require.ErrorContains(t, s.Validate(), "die.faults.read: read retry is not modelled with die.suspend")
}
