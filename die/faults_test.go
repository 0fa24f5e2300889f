package die

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

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
