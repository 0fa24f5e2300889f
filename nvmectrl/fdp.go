package nvmectrl

import "fmt"

// Flexible Data Placement (TP4146, folded into NVMe Base Specification 2.1, "Flexible Data
// Placement"): the host tags each write with a placement identifier, which selects one of
// the namespace's placement handles; a placement handle references a reclaim unit handle
// (RUH), and the controller writes the data of each RUH into reclaim units (RUs, the media
// it erases together) of that handle alone. An RUH is initially isolated (data written
// through different handles starts in different RUs, but the controller may mix them when
// it moves data) or persistently isolated (the controller keeps them apart when it moves
// data too).

// MaxReclaimUnitHandles bounds the reclaim unit handles of the FDP configuration (NRUH).
// The specification allows 65,535; 128 is fio's FDP_MAX_RUHS and this model's bound.
const MaxReclaimUnitHandles = 128

// Isolation is a reclaim unit handle's type (FDP Configurations log page, Reclaim Unit
// Handle Descriptor RUHT: 01h initially isolated, 02h persistently isolated).
type Isolation uint8

// Reclaim unit handle types. The zero value is initially isolated.
const (
	InitiallyIsolated    Isolation = iota // RUHT 01h
	PersistentlyIsolated                  // RUHT 02h
)

// RUHT returns the type's Reclaim Unit Handle Type code.
func (i Isolation) RUHT() uint8 { return uint8(i) + 1 }

// String returns the configuration name of the type.
func (i Isolation) String() string {
	switch i {
	case InitiallyIsolated:
		return "initially"
	case PersistentlyIsolated:
		return "persistently"
	}
	return fmt.Sprintf("Isolation(%d)", uint8(i))
}

// MarshalText implements encoding.TextMarshaler.
func (i Isolation) MarshalText() ([]byte, error) { return []byte(i.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: "initially" or "persistently".
func (i *Isolation) UnmarshalText(b []byte) error {
	for _, v := range []Isolation{InitiallyIsolated, PersistentlyIsolated} {
		if string(b) == v.String() {
			*i = v
			return nil
		}
	}
	return fmt.Errorf("isolation %q is not one of initially, persistently", b)
}

// FDP configures Flexible Data Placement on the controller's one endurance group. With it,
// a write whose DTYPE (CDW12 bits 23:20) is 2h (Data Placement) carries a placement
// identifier in DSPEC (CDW13 bits 31:16); the reclaim group identifier format is 0 bits
// (one reclaim group), so the placement identifier is the placement handle.
type FDP struct {
	// Enabled turns Flexible Data Placement on (the FDP feature's FDPE, configuration 0).
	Enabled bool `yaml:"enabled,omitempty"`
	// Handles is the number of reclaim unit handles, NRUH: 1 … 128. 0 means 8.
	Handles int `yaml:"handles,omitempty"`
	// Isolation is every reclaim unit handle's type: initially (default) or persistently.
	Isolation Isolation `yaml:"isolation,omitempty"`
}

// defaultHandles is NRUH when FDP.Handles is 0.
const defaultHandles = 8

// handles returns NRUH, with the default.
func (f FDP) handles() int {
	if f.Handles == 0 {
		return defaultHandles
	}
	return f.Handles
}

// ReclaimUnitHandles returns NRUH: FDP.Handles, or 8 if it is 0; 0 when FDP is off.
func (f FDP) ReclaimUnitHandles() int {
	if !f.Enabled {
		return 0
	}
	return f.handles()
}

// validate reports every problem with the FDP section, each naming its field.
func (s Spec) validateFDP() []error {
	var errs []error
	f := s.FDP
	if f.Handles < 0 || f.Handles > MaxReclaimUnitHandles {
		errs = append(errs, fmt.Errorf("nvmectrl.fdp.handles: %d is not in 1..%d (0: %d)", f.Handles, MaxReclaimUnitHandles, defaultHandles))
	}
	if f.Isolation > PersistentlyIsolated {
		errs = append(errs, fmt.Errorf("nvmectrl.fdp.isolation: %v is not one of initially, persistently", f.Isolation))
	}
	// FastDrain's default hint carrier puts the victimization page count in DSPEC (CDW13
	// bits 31:16), the field that carries the placement identifier under FDP: the two
	// cannot share it. The hint has its own carrier in CDW2 (FlashShare's), which FDP
	// leaves alone; the choice is the user's, so it is refused rather than moved.
	if f.Enabled && s.HintCarrier == HintCDW13 {
		errs = append(errs, fmt.Errorf("nvmectrl.hint_carrier: cdw13 carries FastDrain's hint page count in DSPEC (CDW13 bits 31:16), which holds the placement identifier when nvme.fdp.enabled; set nvme.hint_carrier to cdw2 (or none)"))
	}
	return errs
}
