package firmware

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
	"go.yaml.in/yaml/v3"
)

// Power is a power in microwatts: the scheduler's power cap and the array power of one
// programming die. In YAML: "10W", "2.5W", "825mW", "500uW"; a bare "0" is zero (the cap
// off).
type Power int64

var powerUnits = []struct {
	suffix string
	scale  int64 // microwatts per one of this unit
}{{"W", 1_000_000}, {"mW", 1_000}, {"uW", 1}, {"µW", 1}}

// ParsePower reads a non-negative decimal number of W, mW or uW ("12.5W") exactly into
// microwatts.
func ParsePower(s string) (Power, error) {
	str := strings.TrimSpace(s)
	if str == "0" {
		return 0, nil
	}
	best := -1 // longest matching suffix: "mW" before "W"
	for i, u := range powerUnits {
		if strings.HasSuffix(str, u.suffix) && (best < 0 || len(u.suffix) > len(powerUnits[best].suffix)) {
			best = i
		}
	}
	if best < 0 {
		return 0, sim.UnitError("power", s, "W, mW or uW")
	}
	num := strings.TrimSpace(strings.TrimSuffix(str, powerUnits[best].suffix))
	r, ok := new(big.Rat).SetString(num)
	if !ok || num == "" || strings.ContainsAny(num, "eE/") {
		return 0, fmt.Errorf("power %q: %q is not a decimal number", s, num)
	}
	if r.Sign() < 0 {
		return 0, fmt.Errorf("power %q: must not be negative", s)
	}
	r.Mul(r, new(big.Rat).SetInt64(powerUnits[best].scale))
	if !r.IsInt() {
		return 0, fmt.Errorf("power %q: finer than a microwatt", s)
	}
	if !r.Num().IsInt64() {
		return 0, fmt.Errorf("power %q: too large", s)
	}
	return Power(r.Num().Int64()), nil
}

// String returns the power in the largest of W, mW, uW that writes it exactly with at
// most three fraction digits ("82.5mW", "2W"; zero is "0W").
func (p Power) String() string {
	if p == 0 {
		return "0W" // a bare 0 would be quoted in YAML
	}
	for _, u := range powerUnits[:2] {
		if int64(p) >= u.scale && (int64(p)*1000)%u.scale == 0 {
			r := new(big.Rat).SetFrac64(int64(p), u.scale)
			return strings.TrimRight(strings.TrimRight(r.FloatString(3), "0"), ".") + u.suffix
		}
	}
	return fmt.Sprintf("%duW", int64(p))
}

// Watts returns the power in watts.
func (p Power) Watts() float64 { return float64(p) * 1e-6 }

// MarshalText implements encoding.TextMarshaler.
func (p Power) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Power) UnmarshalText(b []byte) error {
	v, err := ParsePower(string(b))
	*p = v
	return err
}

// UnmarshalYAML implements yaml.Unmarshaler, adding the line of a bad value to the error.
func (p *Power) UnmarshalYAML(n *yaml.Node) error { return sim.ScalarYAML(n, "power", p.UnmarshalText) }

// powerCap is the scheduler's power budget (docs/energy.md, "Power cap"): at most slots
// dies may hold a program or erase handed to their channel at once (capSlots). A die takes
// a slot when it is handed its first program or erase and gives it back when it has none
// left in its channel, so an array operation never runs without one. A die that wants a
// slot while none is free, or that holds one while others wait, is not handed the
// operation; one without a slot joins a FIFO and is dispatched again when a slot comes
// back, so slots go round the dies instead of staying with one die's long queue.
type powerCap struct {
	slots   int     // free slots
	waiting []int32 // dies waiting for a slot, in arrival order
}

// capSlots returns how many of dies dies may program or erase at once under sp's cap (0:
// the cap is off, or it allows none). With k of them active and the rest in standby the
// array draws k·DiePower + (dies − k)·StandbyPower, which must not pass PowerCap:
// k = floor((PowerCap − dies·StandbyPower) / (DiePower − StandbyPower)).
func capSlots(sp Sched, dies int) int {
	if sp.PowerCap == 0 || sp.DiePower <= sp.StandbyPower {
		return 0
	}
	rest := int64(sp.PowerCap) - int64(dies)*int64(sp.StandbyPower)
	if rest < 0 {
		return 0
	}
	return int(min(rest/int64(sp.DiePower-sp.StandbyPower), int64(dies)))
}

// validateCap reports a cap that lets no die program (dies: the array's dies; 0 when the
// geometry is not known yet, which checks a single die).
func (sp Sched) validateCap(dies int) error {
	if sp.PowerCap == 0 {
		return nil
	}
	if sp.DiePower <= sp.StandbyPower {
		return fmt.Errorf("firmware.scheduler.power_cap: %v needs the array power of a programming die above its standby power (set from energy.nand by the platform; got %v and %v)",
			sp.PowerCap, sp.DiePower, sp.StandbyPower)
	}
	if capSlots(sp, max(dies, 1)) < 1 {
		standby := ""
		if dies > 1 {
			standby = fmt.Sprintf(" with the other %d dies in standby at %v each (isb × vcc)", dies-1, sp.StandbyPower)
		}
		return fmt.Errorf("firmware.scheduler.power_cap: %v is below one programming die's %v (energy.nand: max(icc2, icc3) × vcc)%s; it would let no die program",
			sp.PowerCap, sp.DiePower, standby)
	}
	return nil
}
