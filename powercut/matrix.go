package powercut

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/platforms"
)

// SteadyState are the overrides that put a machine in steady state before its first cut:
// the logical space preconditioned 90 % full in random order with 4 % of it overwritten, at
// 10 % over-provisioning, so every plane starts two blocks above GC's threshold
// (ftl.PreconditionRoom's limit) and GC runs within the first few hundred simulated
// milliseconds of the tiny preset's writes, for the rest of the run.
var SteadyState = []string{"precondition.fill=0.9", "precondition.overwrite=0.04", "precondition.random=true",
	"firmware.ftl.over_provisioning=0.1"}

// Mappings are the mapping schemes a campaign can cut, with the overrides each takes after
// SteadyState: "page" the preset's page-level mapping; "bast" the hybrid log-block
// scheme, with 25 % over-provisioning (BAST keeps a data block for every logical block
// and log blocks beside them: the tiny preset's die does not hold them at 10 %) and no
// preconditioning overwrites (BAST's precondition leaves every logical block merged);
// "sub-page" 16 KiB flash pages holding four 4 KiB mapping units.
var Mappings = map[string][]string{
	"page":     nil,
	"bast":     {"firmware.ftl.mapping=bast", "firmware.ftl.over_provisioning=0.25", "precondition.overwrite=0"},
	"sub-page": {"flash.die.page_size=16384"},
}

// MappingNames returns the mapping schemes' names in table order.
func MappingNames() []string { return []string{"page", "bast", "sub-page"} }

// Matrix names the machines a campaign cuts: a preset (and files) with each variant, each
// power-loss protection setting and each mapping scheme, the steady state (unless
// KeepPrecondition) and Sets applied last to every one.
type Matrix struct {
	Preset           string
	Files            []string
	Variants         []string
	PLP              []bool
	Mappings         []string
	Sets             []string
	KeepPrecondition bool // the preset's preconditioning and over-provisioning, not SteadyState
}

// Targets loads and validates every machine of the matrix, labelled "variant plp|no-plp
// mapping", in variant, then protection, then mapping order, and returns with them the
// notes a campaign prints about what it left out.
//
// A variant with an unbounded write buffer (the oracles) is not cut with power-loss
// protection: protection guarantees every acknowledged write only for a buffer the
// hold-up reserve and hold-up time can hold (firmware.HoldupReserve keeps none for an
// unbounded one), so its drain can be stuck by design and every such cut would fail. The
// firmware still accepts the combination — it is how the hold-up an oracle would need is
// measured (firmware.TestHoldupTable, compare with a cut) — but it is no guarantee to
// check. Asked for alone (--plp on, or firmware.power_loss_protection set), it is refused
// naming the variant; with both settings (--plp both, the default) the variant is cut
// without protection only, and a note says so.
//
// A steady state (SteadyState) that does not fit the machine is refused naming the largest
// precondition.fill that does.
func (m Matrix) Targets() ([]Target, []Note, error) {
	if len(m.Variants) == 0 || len(m.PLP) == 0 || len(m.Mappings) == 0 {
		return nil, nil, fmt.Errorf("powercut: the matrix needs a variant, a power-loss protection setting and a mapping scheme")
	}
	var ts []Target
	var notes []Note
	noted := map[string]bool{}
	for _, v := range m.Variants {
		for _, plp := range m.PLP {
			for _, mp := range m.Mappings {
				ms, ok := Mappings[mp]
				if !ok {
					return nil, nil, fmt.Errorf("powercut: no mapping scheme %q (have: %s)", mp, strings.Join(MappingNames(), ", "))
				}
				var sets []string
				if !m.KeepPrecondition {
					sets = append(sets, SteadyState...)
				}
				sets = append(sets, ms...)
				sets = append(sets, fmt.Sprintf("firmware.power_loss_protection=%v", plp), "firmware.power_loss.enabled=true")
				c, err := m.load(v, sets)
				if err != nil {
					return nil, nil, fmt.Errorf("powercut: %s, %s: %w", v, mp, err)
				}
				if fw := c.Firmware; fw.PowerLossProtection && fw.Buffer.Policy.Unbounded() {
					if plp && len(m.PLP) > 1 {
						if !noted[v] {
							noted[v] = true
							notes = append(notes, Note{v, fmt.Sprintf("powercut: %s is cut without power-loss protection only: %s", v, unboundedPLP(fw.Buffer.Policy))})
						}
						continue
					}
					return nil, nil, fmt.Errorf("powercut: %s, %s: %s; cut it with --plp off", v, mp, unboundedPLP(fw.Buffer.Policy))
				}
				label := v + " no-plp " + mp
				if plp {
					label = v + " plp " + mp
				}
				ts = append(ts, Target{Label: label, Config: c})
			}
		}
	}
	return ts, notes, nil
}

// unboundedPLP says why a buffer of policy p cannot be protected by power-loss protection.
func unboundedPLP(p firmware.Policy) string {
	return fmt.Sprintf("its write buffer (firmware.buffer.policy %s) is unbounded, and power-loss protection cannot protect an unbounded buffer: no hold-up reserve or hold-up time holds it, so its drain can be stuck with acknowledged writes not on flash", p)
}

// load loads variant v's machine with sets and then m.Sets, and explains a steady state
// that does not fit: the largest precondition.fill that does.
func (m Matrix) load(v string, sets []string) (platforms.Config, error) {
	o := platforms.Options{Preset: m.Preset, Variant: v, Files: m.Files, Sets: append(slices.Clip(sets), m.Sets...)}
	c, err := platforms.Load(o)
	if err == nil {
		return c, nil
	}
	// The same machine without preconditioning (m.Sets still win): if it loads, the
	// preconditioning was what did not fit.
	o.Sets = append(append(slices.Clip(sets), "precondition.fill=0"), m.Sets...)
	c0, err0 := platforms.Load(o)
	if err0 != nil {
		return c, err
	}
	if m.KeepPrecondition || c0.Firmware.ValidatePrecondition(c0.FirmwareDie(), c0.Flash.Channels, c0.Flash.Ways*c0.Flash.DiesPerPackage,
		lastFill(append(slices.Clip(sets), m.Sets...)), c0.Precondition.Overwrite) == nil {
		return c, err // not the steady state's fill: something else did not fit
	}
	fit := FillThatFits(c0)
	return c, fmt.Errorf("%w; the campaign's steady state (%s) does not fit this machine: precondition.fill %.2f is the most that fits with precondition.overwrite %v (--set precondition.fill=%.2f), or keep the preset's own preconditioning with --keep-precondition",
		err, strings.Join(SteadyState, ", "), fit, c0.Precondition.Overwrite, fit)
}

// lastFill returns the precondition.fill sets ask for (the last one given), 0 if none.
func lastFill(sets []string) float64 {
	fill := 0.0
	for _, s := range sets {
		if v, ok := strings.CutPrefix(s, "precondition.fill="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				fill = f
			}
		}
	}
	return fill
}

// FillThatFits returns the largest precondition.fill, in hundredths, that c's firmware
// finds room for at c's precondition.overwrite (firmware.Spec.ValidatePrecondition), 0 if
// none does.
func FillThatFits(c platforms.Config) float64 {
	dpc := c.Flash.Ways * c.Flash.DiesPerPackage
	fits := func(k int) bool {
		return c.Firmware.ValidatePrecondition(c.FirmwareDie(), c.Flash.Channels, dpc, float64(k)/100, c.Precondition.Overwrite) == nil
	}
	// The room needed grows with the fill: the largest k in 0 … 100 that fits.
	lo, hi := 0, 100
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return float64(lo) / 100
}
