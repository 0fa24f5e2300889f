package pcie

import (
	"fmt"
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Link-layer constants, docs/sources.md §2 (pcie-bench/pcie-model model/pcie.py @1fe7cdef).
const (
	dllpBytes    = 8    // one ACK or UpdateFC DLLP: 2 B framing + 4 B DLLP + 2 B CRC
	skpBytes     = 4    // one SKP ordered set …
	skpInterval  = 1538 // … every 1538 bytes
	dllpsPerSpan = 2    // one ACK and one UpdateFC per ack span
)

// ackSpan holds the spec's recommended ACK / UpdateFC intervals, indexed by generation
// group (Gen1, Gen2, Gen3 and later), width (x1 … x16) and MPS (128 … 4096). docs/sources.md §2
// quotes the Gen3 x4 entries (169 at MPS 128, 214 at MPS 256); the full table is
// pcie-bench/pcie-model model/pcie.py @1fe7cdef (Ack_Limits, equal to FC_Guide up to x16),
// from PCIe Base Spec r5.0 Tables 3-7…3-9 and 2-46…2-48. pcie-model reads the entries as
// bytes; the spec gives them in symbol times (see Spec.DLLPSymbolTimes).
var ackSpan = [3][5][6]int64{
	{ // Gen1
		{237, 416, 559, 1071, 2095, 4143},
		{128, 217, 289, 545, 1057, 2081},
		{73, 118, 154, 282, 538, 1050},
		{67, 107, 86, 150, 278, 534},
		{48, 72, 86, 150, 278, 534},
	},
	{ // Gen2
		{288, 467, 610, 1122, 2146, 4194},
		{179, 268, 340, 596, 1108, 2132},
		{124, 169, 205, 333, 589, 1101},
		{118, 158, 137, 201, 329, 585},
		{99, 123, 137, 201, 329, 585},
	},
	{ // Gen3, Gen4, Gen5
		{333, 512, 655, 1167, 2191, 4239},
		{224, 313, 385, 641, 1153, 2177},
		{169, 214, 250, 378, 634, 1146},
		{163, 203, 182, 246, 374, 630},
		{144, 168, 182, 246, 374, 630},
	},
}

// transfersPerMicrosecond returns the per-lane signalling rate in MT/s: 2500, 5000, 8000,
// 16000 or 32000 (docs/sources.md §2).
func (s Spec) transfersPerMicrosecond() uint64 {
	return [...]uint64{2500, 5000, 8000, 16000, 32000}[s.Gen-1]
}

// encoding returns the line code as (coded bits, data bits): 8b/10b for Gen1–2, 128b/130b
// for Gen3–5 (docs/sources.md §2).
func (s Spec) encoding() (coded, data uint64) {
	if s.Gen <= 2 {
		return 10, 8
	}
	return 130, 128
}

// rawRate returns the exact time of one byte on one direction as the fraction num/den
// picoseconds: 8 data bits take 8·coded/data transfers, spread over the lanes.
//
//	ps/B = 8·coded·10⁶ / (data · MT/s · lanes)   (Gen3 x4: 1.04e9/4.096e6 = 253.90625)
func (s Spec) rawRate() (num, den uint64) {
	coded, data := s.encoding()
	return 8 * coded * 1_000_000, data * s.transfersPerMicrosecond() * uint64(s.Lanes)
}

// AckSpan returns the number of wire bytes per ACK + UpdateFC DLLP pair: the spec's
// recommended interval for the generation, width and MPS (docs/sources.md §2: Gen3 x4, MPS 256:
// 214 B), multiplied by the lane count when DLLPSymbolTimes is set.
func (s Spec) AckSpan() int64 {
	g := min(s.Gen, 3) - 1
	span := ackSpan[g][laneIndex(s.Lanes)][sizeIndex(s.MPS)]
	if s.DLLPSymbolTimes {
		span *= int64(s.Lanes)
	}
	return span
}

// DLLPFactor returns wire time over TLP time as the fraction num/den (1/1 with
// DLLPOverhead off). docs/sources.md §2 (pcie-model method): of every byte time on a direction,
// the share 2·8/span goes to ACK and UpdateFC DLLPs and 4/1538 to SKP ordered sets, so TLPs
// get the rest and
//
//	factor = 1 / (1 − 16/span − 4/1538) = 1538·span / (1534·span − 24608).
//
// Gen3 x4 MPS 256: 329132/303668, a 7.7 % link-layer overhead.
func (s Spec) DLLPFactor() (num, den int64) {
	if !s.DLLPOverhead {
		return 1, 1
	}
	span := s.AckSpan()
	return skpInterval * span, (skpInterval-skpBytes)*span - dllpsPerSpan*dllpBytes*skpInterval
}

// BytesPerSecond returns the per-direction data rate after line encoding, rounded down to
// whole bytes per second (Gen3 x4: 8e9·4·128/130/8 = 3 938 461 538). It is for reports;
// timing uses the exact rational rate.
func (s Spec) BytesPerSecond() int64 {
	num, den := s.rawRate()
	hi, lo := bits.Mul64(den, uint64(sim.Second))
	q, _ := bits.Div64(hi, lo, num)
	return int64(q)
}

// WireTime returns the time one direction needs to put bytes (overheads already included)
// on the wire at the encoded line rate, without the DLLP share, rounded up to a whole
// picosecond.
func (s Spec) WireTime(bytes int) sim.Time {
	r := s.rates()
	return r.raw.time(bytes)
}

// TLPTime returns the time one direction is busy sending tlpBytes of TLPs (payload, header
// and framing) from idle, including the DLLP and SKP share when DLLPOverhead is set, rounded
// up once to a whole picosecond. An isolated DMAWrite(now, n) returns
// now + TLPTime(WriteTLPBytes(n)) + Latency.
func (s Spec) TLPTime(tlpBytes int) sim.Time {
	r := s.rates()
	return r.tlp.time(tlpBytes)
}

// fraction is an exact per-byte time of num/den picoseconds.
type fraction struct{ num, den uint64 }

// rates holds the per-byte times of a spec: raw is the line rate; tlp adds the DLLP share.
// Both share the denominator so a transfer can be split into its TLP and DLLP parts.
type rates struct{ raw, tlp fraction }

func (s Spec) rates() rates {
	rn, rd := s.rawRate()
	fn, fd := s.DLLPFactor()
	den := rd * uint64(fd)
	rawNum, tlpNum := rn*uint64(fd), rn*uint64(fn)
	g := gcd(gcd(rawNum, tlpNum), den)
	return rates{
		raw: fraction{rawNum / g, den / g},
		tlp: fraction{tlpNum / g, den / g},
	}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// advance returns whole + (frac + bytes·f.num)/f.den split into whole picoseconds and a
// remainder below f.den, exactly (128-bit intermediate).
func (f fraction) advance(whole sim.Time, frac uint64, bytes int) (sim.Time, uint64) {
	hi, lo := bits.Mul64(uint64(bytes), f.num)
	lo, carry := bits.Add64(lo, frac, 0)
	hi += carry
	if hi >= f.den {
		panic(fmt.Sprintf("pcie: %d bytes overflow simulated time", bytes))
	}
	q, r := bits.Div64(hi, lo, f.den)
	if q > uint64(sim.MaxTime-whole) {
		panic(fmt.Sprintf("pcie: %d bytes overflow simulated time", bytes))
	}
	return whole + sim.Time(q), r
}

// time returns the time of bytes rounded up to a whole picosecond.
func (f fraction) time(bytes int) sim.Time {
	t, r := f.advance(0, 0, bytes)
	return ceil(t, r)
}

// ceil rounds an exact time whole + frac/den up to a whole picosecond.
func ceil(whole sim.Time, frac uint64) sim.Time {
	if frac != 0 {
		return whole + 1
	}
	return whole
}
