package energy

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
	"go.yaml.in/yaml/v3"
)

// The electrical quantities of the energy configuration are integers of a small unit, so a
// datasheet value ("25mA", "3.3V", "1.25pJ/bit") is held exactly and written back as it
// was read. Arithmetic on them happens in float64 joules and watts (see Meter).

// Current is an electrical current in nanoamperes. In YAML: "25mA", "30uA", "1.2A".
type Current int64

// Voltage is a supply voltage in microvolts. In YAML: "3.3V", "1800mV".
type Voltage int64

// Power is a power in nanowatts. In YAML: "100mW", "30uW", "2W".
type Power int64

// EnergyPerBit is an energy per bit in femtojoules. In YAML: "1.25pJ/bit", "500fJ/bit".
type EnergyPerBit int64

type unit struct {
	suffix string
	scale  int64 // base units per one of this unit
}

var (
	currentUnits = []unit{{"nA", 1}, {"uA", 1e3}, {"µA", 1e3}, {"mA", 1e6}, {"A", 1e9}}
	voltageUnits = []unit{{"uV", 1}, {"µV", 1}, {"mV", 1e3}, {"V", 1e6}}
	powerUnits   = []unit{{"nW", 1}, {"uW", 1e3}, {"µW", 1e3}, {"mW", 1e6}, {"W", 1e9}}
	epbUnits     = []unit{{"fJ/bit", 1}, {"pJ/bit", 1e3}, {"nJ/bit", 1e6}}
)

// parse reads a non-negative decimal number followed by one of units ("13.5mA") into an
// exact count of base units. A bare "0" is accepted; any other number needs a unit.
func parse(what, s string, units []unit) (int64, error) {
	str := strings.TrimSpace(s)
	if str == "0" {
		return 0, nil
	}
	// Longest suffix first, so "mA" wins over "A" and "pJ/bit" is not read as "J/bit".
	best := -1
	for i, u := range units {
		if strings.HasSuffix(str, u.suffix) && (best < 0 || len(u.suffix) > len(units[best].suffix)) {
			best = i
		}
	}
	if best < 0 {
		names := make([]string, 0, len(units))
		for _, u := range units {
			names = append(names, u.suffix)
		}
		return 0, sim.UnitError(what, s, strings.Join(names, ", "))
	}
	num := strings.TrimSpace(strings.TrimSuffix(str, units[best].suffix))
	r, ok := new(big.Rat).SetString(num)
	if !ok || num == "" || strings.ContainsAny(num, "eE/") {
		return 0, fmt.Errorf("%s %q: %q is not a decimal number", what, s, num)
	}
	if r.Sign() < 0 {
		return 0, fmt.Errorf("%s %q: must not be negative", what, s)
	}
	r.Mul(r, new(big.Rat).SetInt64(units[best].scale))
	if !r.IsInt() {
		return 0, fmt.Errorf("%s %q: finer than the smallest unit (%s)", what, s, units[0].suffix)
	}
	if !r.Num().IsInt64() {
		return 0, fmt.Errorf("%s %q: too large", what, s)
	}
	return r.Num().Int64(), nil
}

// format writes v base units with the largest unit in which it is at least one and an
// exact decimal of at most three fraction digits ("25mA", "3.3V", "1.25pJ/bit").
func format(v int64, units []unit) string {
	if v == 0 {
		return "0"
	}
	for i := len(units) - 1; i > 0; i-- {
		u := units[i]
		if units[i-1].scale == u.scale {
			continue // "µA" and "uA" are one scale: write the ASCII spelling
		}
		r := new(big.Rat).SetFrac64(v, u.scale)
		thousandths := new(big.Rat).Mul(r, big.NewRat(1000, 1))
		if v >= u.scale && thousandths.IsInt() {
			return strings.TrimRight(strings.TrimRight(r.FloatString(3), "0"), ".") + u.suffix
		}
	}
	return fmt.Sprintf("%d%s", v, units[0].suffix)
}

// String returns the current with a unit, e.g. "25mA".
func (c Current) String() string { return format(int64(c), currentUnits) }

// String returns the voltage with a unit, e.g. "3.3V".
func (v Voltage) String() string { return format(int64(v), voltageUnits) }

// String returns the power with a unit, e.g. "100mW".
func (p Power) String() string { return format(int64(p), powerUnits) }

// String returns the energy per bit with a unit, e.g. "1.25pJ/bit".
func (e EnergyPerBit) String() string { return format(int64(e), epbUnits) }

// Amperes returns the current in amperes.
func (c Current) Amperes() float64 { return float64(c) * 1e-9 }

// Volts returns the voltage in volts.
func (v Voltage) Volts() float64 { return float64(v) * 1e-6 }

// Watts returns the power in watts.
func (p Power) Watts() float64 { return float64(p) * 1e-9 }

// JoulesPerBit returns the energy per bit in joules.
func (e EnergyPerBit) JoulesPerBit() float64 { return float64(e) * 1e-15 }

// MarshalText implements encoding.TextMarshaler.
func (c Current) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// MarshalText implements encoding.TextMarshaler.
func (v Voltage) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// MarshalText implements encoding.TextMarshaler.
func (p Power) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// MarshalText implements encoding.TextMarshaler.
func (e EnergyPerBit) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Current) UnmarshalText(b []byte) error {
	v, err := parse("current", string(b), currentUnits)
	*c = Current(v)
	return err
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Voltage) UnmarshalText(b []byte) error {
	x, err := parse("voltage", string(b), voltageUnits)
	*v = Voltage(x)
	return err
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Power) UnmarshalText(b []byte) error {
	v, err := parse("power", string(b), powerUnits)
	*p = Power(v)
	return err
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (e *EnergyPerBit) UnmarshalText(b []byte) error {
	v, err := parse("energy per bit", string(b), epbUnits)
	*e = EnergyPerBit(v)
	return err
}

// UnmarshalYAML implements yaml.Unmarshaler, adding the line of a bad value to the error.
func (c *Current) UnmarshalYAML(n *yaml.Node) error {
	return sim.ScalarYAML(n, "current", c.UnmarshalText)
}

// UnmarshalYAML implements yaml.Unmarshaler, adding the line of a bad value to the error.
func (v *Voltage) UnmarshalYAML(n *yaml.Node) error {
	return sim.ScalarYAML(n, "voltage", v.UnmarshalText)
}

// UnmarshalYAML implements yaml.Unmarshaler, adding the line of a bad value to the error.
func (p *Power) UnmarshalYAML(n *yaml.Node) error { return sim.ScalarYAML(n, "power", p.UnmarshalText) }

// UnmarshalYAML implements yaml.Unmarshaler, adding the line of a bad value to the error.
func (e *EnergyPerBit) UnmarshalYAML(n *yaml.Node) error {
	return sim.ScalarYAML(n, "energy per bit", e.UnmarshalText)
}
