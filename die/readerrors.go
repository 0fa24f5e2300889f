package die

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// ReadErrorSpec is the die's read-error model (YAML flash.die.faults.read): a raw bit
// error rate (RBER) from the block's wear, the data's age and the block's reads, an ECC
// that corrects ecc_bits bits a codeword, and read-retry steps. rber 0 (the default) turns
// it off: every read succeeds at once, as without it.
//
// The RBER of a page of a block with c P/E cycles, whose data is A old and which has been
// read R times since its erase, is
//
//	RBER = (1 + c/pe_scale)^pe_exponent × (rber + retention × (A/age_unit)^age_exponent × (1 + R)^read_exponent)
//
// the shape of Hetzler's empirical MLC error-rate surface (E = h·A^k·R^g + offset(C),
// "The error rate surface for MLC NAND flash", smorgastor.drhetzler.com, 2012-2014): power
// laws in the data's age (retention) and in reads since the block was written (read
// disturb), on an offset and a scale that both grow steeply with P/E cycles; the cycle
// dependence is taken as a power law, the form Hetzler notes his log-logistic takes near
// the origin (and the one Mielke et al., IRPS 2008, fit to RBER against cycles). A is
// measured from the block's first program after its erase (blocks filled before the run
// count from time 0), R counts every page read of the block since its erase.
//
// The model is of expected values, with no per-codeword randomness: a codeword of codeword
// bytes holds e = RBER × 8 × codeword bit errors. The ECC corrects it if e ≤ ecc_bits;
// otherwise the firmware retries the read with shifted read reference voltages (ONFI read
// retry, "Read Retry" feature), each step leaving retry_gain of the errors, so step s
// decodes if e × retry_gain^s ≤ ecc_bits. Each step costs a tR of the page's type (the
// die's activity "retry") and the page's data-out on the channel again (its command cycles,
// a few bus cycles beside tR, are not modelled). A page that has not decoded after
// max_retries steps is uncorrectable: the die reports it (Failed) and the host gets NVMe
// status Unrecovered Read Error.
type ReadErrorSpec struct {
	RBER         float64  `yaml:"rber"`          // raw bit error rate of a fresh block's fresh data; 0 = no read errors
	PEScale      int      `yaml:"pe_scale"`      // P/E cycles of the wear law's unit; 0 = no wear growth
	PEExponent   float64  `yaml:"pe_exponent"`   // wear law exponent
	Retention    float64  `yaml:"retention"`     // RBER added by one age_unit of retention (before wear)
	AgeUnit      sim.Time `yaml:"age_unit"`      // unit of the data's age (e.g. 24h); needed with retention
	AgeExponent  float64  `yaml:"age_exponent"`  // retention law exponent (Hetzler's k)
	ReadExponent float64  `yaml:"read_exponent"` // read-disturb exponent (Hetzler's g); 0 = no read disturb
	ECCBits      int      `yaml:"ecc_bits"`      // bits the ECC corrects per codeword
	Codeword     int      `yaml:"codeword"`      // codeword data bytes
	RetryGain    float64  `yaml:"retry_gain"`    // fraction of the bit errors left after each retry step, in (0, 1)
	MaxRetries   int      `yaml:"max_retries"`   // retry steps before a page is uncorrectable
}

// Enabled reports whether reads can need retries.
func (r ReadErrorSpec) Enabled() bool { return r.RBER > 0 }

// maxRetrySteps bounds max_retries (vendors' read-retry tables have tens of entries).
const maxRetrySteps = 64

// validate reports the read-error spec's problems against die spec s.
func (r ReadErrorSpec) validate(s Spec) []error {
	if r == (ReadErrorSpec{}) {
		return nil
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("die.faults.read."+format, a...)) }
	if !(r.RBER >= 0 && r.RBER < 1) {
		bad("rber: %v is not in 0 … 1", r.RBER)
	}
	if !r.Enabled() {
		bad("rber: must be positive when the read section is set")
		return errs
	}
	if r.PEScale < 0 {
		bad("pe_scale: %d must not be negative", r.PEScale)
	}
	if !(r.PEExponent >= 0 && r.PEExponent <= 16) {
		bad("pe_exponent: %v is not in 0 … 16", r.PEExponent)
	}
	if r.PEExponent > 0 && r.PEScale == 0 {
		bad("pe_scale: must be positive when pe_exponent (%v) is set", r.PEExponent)
	}
	if !(r.Retention >= 0 && r.Retention < 1) {
		bad("retention: %v is not in 0 … 1", r.Retention)
	}
	if r.Retention > 0 && r.AgeUnit <= 0 {
		bad("age_unit: %v must be positive when retention is set", r.AgeUnit)
	}
	if !(r.AgeExponent >= 0 && r.AgeExponent <= 16) {
		bad("age_exponent: %v is not in 0 … 16", r.AgeExponent)
	}
	if !(r.ReadExponent >= 0 && r.ReadExponent <= 16) {
		bad("read_exponent: %v is not in 0 … 16", r.ReadExponent)
	}
	if r.ECCBits < 1 {
		bad("ecc_bits: %d must be positive", r.ECCBits)
	}
	if r.Codeword < 1 || (s.PageSize > 0 && r.Codeword > s.PageSize) {
		bad("codeword: %d is not in 1 … %d (the page size)", r.Codeword, s.PageSize)
	}
	if !(r.RetryGain > 0 && r.RetryGain < 1) {
		bad("retry_gain: %v is not in (0, 1)", r.RetryGain)
	}
	if r.MaxRetries < 0 || r.MaxRetries > maxRetrySteps {
		bad("max_retries: %d is not in 0 … %d", r.MaxRetries, maxRetrySteps)
	}
	if s.Suspend {
		errs = append(errs, fmt.Errorf("die.faults.read: read retry is not modelled with die.suspend (a retry would have to suspend the resumed program again)"))
	}
	return errs
}

// rberAt returns the raw bit error rate of data age old in a block with pe cycles read
// reads times since its erase.
func (r ReadErrorSpec) rberAt(pe uint32, age sim.Time, reads uint32) float64 {
	e := r.RBER
	if r.Retention > 0 && age > 0 {
		e += r.Retention * math.Pow(float64(age)/float64(r.AgeUnit), r.AgeExponent) * math.Pow(1+float64(reads), r.ReadExponent)
	}
	if r.PEExponent > 0 && r.PEScale > 0 {
		e *= math.Pow(1+float64(pe)/float64(r.PEScale), r.PEExponent)
	}
	return e
}

// retries returns the retry steps a codeword with raw bit error rate rber needs, and
// whether it decodes within max_retries (if not, the steps are max_retries).
func (r ReadErrorSpec) retries(rber float64) (int, bool) {
	e := rber * 8 * float64(r.Codeword)
	t := float64(r.ECCBits)
	for s := 0; s <= r.MaxRetries; s++ {
		if e <= t {
			return s, true
		}
		e *= r.RetryGain
	}
	return r.MaxRetries, false
}

// readState is the per-block state the read-error model needs: the time of the block's
// first program since its erase and its reads since.
type readState struct {
	written []sim.Time
	reads   []uint32
}

// ReadRetries returns the retry steps the die's last read needs (the channel runs them:
// Retry), and Failed reports the pages that stay uncorrectable after them.
func (d *Die) ReadRetries() int { return d.retryLeft }

// Retry runs one read-retry step of the pages of the last read at t: a tR of their page
// type on the array and their planes, activity "retry". The die must be idle (read retry
// is not modelled with suspend). It returns when the tR ends.
func (d *Die) Retry(t sim.Time, addrs []Addr) sim.Time {
	mask := d.checkAddrs(t, "read retry", addrs, true)
	if d.retryLeft <= 0 {
		d.fail(t, "read retry of %v, but the last read needs none", addrs[0])
	}
	if d.planeEnd == nil {
		d.mustBeIdle(t, "read retry", addrs[0])
	} else { // other planes may be reading (planes.go)
		d.mustBeFreeToRead(t, addrs)
		if d.opOpen && t < d.opEnd {
			d.fail(t, "read retry of %v while the die is busy with %s until %v", addrs[0], d.array.Activities()[d.opAct], d.opEnd)
		}
	}
	tR := d.tRead[d.typeOf[addrs[0].Page]]
	if d.isSLC(d.blockIndex(addrs[0].Plane, addrs[0].Block)) {
		tR = d.spec.SLC.TRead
	}
	d.occupyRead(t, t+tR, d.actRetry, mask)
	d.retryLeft--
	d.stats.Retries++
	return d.endRead(t+tR, mask)
}

// readErrors decides, for a read of addrs at t, the retry steps it needs and the planes that
// stay uncorrectable, from each page's RBER (the worst page decides the steps), and counts
// the block reads.
func (d *Die) readErrors(t sim.Time, addrs []Addr) {
	r := &d.spec.Faults.Read
	steps := 0
	d.failed = 0
	for _, a := range addrs {
		b := d.blockIndex(a.Plane, a.Block)
		rber := r.rberAt(d.wear(b), t-d.rs.written[b], d.rs.reads[b])
		d.rs.reads[b]++
		s, ok := r.retries(rber)
		steps = max(steps, s)
		if !ok {
			d.failed |= 1 << uint(a.Plane)
		}
	}
	if d.failed != 0 {
		d.stats.Uncorrectable += int64(len(addrs))
	}
	d.retryLeft = steps
}
