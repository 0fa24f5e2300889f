package nvmectrl

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/nvme"
)

// Hint is FastDrain's host-to-SSD hint carried in a Write SQE (nvme.Hint).
type Hint = nvme.Hint

// HintCarrier selects the SQE field that carries a Hint. Both the host driver and the
// firmware use the same carrier's Encode and Decode, so the two ends cannot disagree.
type HintCarrier uint8

// Hint carriers. The zero value is the default carrier.
const (
	// HintCDW13 puts the flag in CDW13 bits 15:8 (reserved in NVMe 1.3/1.4, docs/sources.md §1.9)
	// and the page count in DSPEC, CDW13 bits 31:16, saturating at 0xFFFF. DTYPE stays 0, so a
	// spec controller ignores DSPEC.
	HintCDW13 HintCarrier = iota
	// HintCDW2 uses the reserved CDW2 (as FlashShare did, docs/sources.md §8 item 1): flag in
	// bits 7:0, page count in bits 31:8, saturating at 0xFFFFFF.
	HintCDW2
	// HintNone carries nothing: Encode leaves the SQE unchanged and Decode returns the zero
	// Hint. Vanilla systems use it.
	HintNone
)

// HintFlagVictim is the flag byte value that marks a victimization write.
const HintFlagVictim = 0x01

const (
	maxDSPECPages = 0xFFFF
	maxCDW2Pages  = 0xFFFFFF
)

// Encode writes h into e's carrier fields, replacing what was there. A non-victim hint
// clears the fields.
func (c HintCarrier) Encode(e *SQE, h Hint) {
	var flag uint8
	pages := uint32(0)
	if h.Victim {
		flag, pages = HintFlagVictim, h.Pages
	}
	switch c {
	case HintCDW13:
		e.SetCDW13Reserved(flag)
		e.SetDSPEC(uint16(min(pages, maxDSPECPages)))
	case HintCDW2:
		e.SetDW(2, min(pages, maxCDW2Pages)<<8|uint32(flag))
	}
}

// Decode reads the hint from e's carrier fields.
func (c HintCarrier) Decode(e *SQE) Hint {
	switch c {
	case HintCDW13:
		if e.CDW13Reserved()&HintFlagVictim != 0 {
			return Hint{Victim: true, Pages: uint32(e.DSPEC())}
		}
	case HintCDW2:
		if dw := e.DW(2); dw&HintFlagVictim != 0 {
			return Hint{Victim: true, Pages: dw >> 8}
		}
	}
	return Hint{}
}

// String returns the carrier's configuration name.
func (c HintCarrier) String() string {
	switch c {
	case HintCDW13:
		return "cdw13"
	case HintCDW2:
		return "cdw2"
	case HintNone:
		return "none"
	}
	return fmt.Sprintf("HintCarrier(%d)", uint8(c))
}

// ParseHintCarrier parses "cdw13", "cdw2" or "none".
func ParseHintCarrier(s string) (HintCarrier, error) {
	for c := HintCDW13; c <= HintNone; c++ {
		if s == c.String() {
			return c, nil
		}
	}
	return 0, fmt.Errorf("hint carrier %q is not one of cdw13, cdw2, none", s)
}

// MarshalText implements encoding.TextMarshaler.
func (c HintCarrier) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *HintCarrier) UnmarshalText(b []byte) error {
	v, err := ParseHintCarrier(string(b))
	if err == nil {
		*c = v
	}
	return err
}

// StatusCarrier selects the CQE field that carries a buffer level (bufferlevel.Level).
type StatusCarrier uint8

// Status carriers. The zero value is the default carrier.
const (
	// StatusSQHD overwrites the SQ head pointer (DW2 bits 15:0) with the level, as the paper
	// does. Stock Linux ignores SQHD, but this is off-spec for PCIe NVMe (docs/sources.md §1.8): a
	// host using it must not do SQ flow control from SQHD.
	StatusSQHD StatusCarrier = iota
	// StatusDW1 uses the reserved DW1: bit 31 marks a valid level, bits 1:0 hold it. It is
	// spec-clean for hosts that ignore DW1.
	StatusDW1
	// StatusNone carries nothing.
	StatusNone
)

// dw1Valid marks DW1 as holding a buffer level.
const dw1Valid = 1 << 31

// Encode writes level l into c's carrier field. bufferlevel.None leaves the entry unchanged.
func (s StatusCarrier) Encode(c *CQE, l bufferlevel.Level) {
	if l == bufferlevel.None {
		return
	}
	switch s {
	case StatusSQHD:
		c.SetSQHD(uint16(l))
	case StatusDW1:
		c.SetDW1(dw1Valid | uint32(l&3))
	}
}

// Decode reads the level from c's carrier field. ok is false if the field holds no level:
// for StatusSQHD a value above bufferlevel.High is a real head pointer.
func (s StatusCarrier) Decode(c *CQE) (l bufferlevel.Level, ok bool) {
	switch s {
	case StatusSQHD:
		if v := c.SQHD(); v <= uint16(bufferlevel.High) {
			return bufferlevel.Level(v), true
		}
	case StatusDW1:
		if v := c.DW1(); v&dw1Valid != 0 {
			return bufferlevel.Level(v & 3), true
		}
	}
	return bufferlevel.None, false
}

// String returns the carrier's configuration name.
func (s StatusCarrier) String() string {
	switch s {
	case StatusSQHD:
		return "sqhd"
	case StatusDW1:
		return "dw1"
	case StatusNone:
		return "none"
	}
	return fmt.Sprintf("StatusCarrier(%d)", uint8(s))
}

// ParseStatusCarrier parses "sqhd", "dw1" or "none".
func ParseStatusCarrier(s string) (StatusCarrier, error) {
	for c := StatusSQHD; c <= StatusNone; c++ {
		if s == c.String() {
			return c, nil
		}
	}
	return 0, fmt.Errorf("status carrier %q is not one of sqhd, dw1, none", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s StatusCarrier) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *StatusCarrier) UnmarshalText(b []byte) error {
	v, err := ParseStatusCarrier(string(b))
	if err == nil {
		*s = v
	}
	return err
}
