package figures

import (
	"fmt"
	"math"
)

// Kind says how a claim's measured value is judged.
type Kind uint8

// Claim kinds.
const (
	// About: |measured − paper| ≤ tolerance.
	About Kind = iota
	// AtLeast: measured ≥ paper − tolerance.
	AtLeast
)

// Claim is one quantitative claim of the paper and its measured counterpart.
type Claim struct {
	ID        string  `json:"id"`
	Figure    string  `json:"figure"`
	Text      string  `json:"claim"`
	Unit      string  `json:"unit"` // "%", "×", "ms"
	Paper     float64 `json:"paper"`
	Tolerance float64 `json:"tolerance"`
	Kind      Kind    `json:"kind"`
	Measured  float64 `json:"measured"`
	Missing   bool    `json:"missing"` // the runs needed were not made
	// NotEngaged names the mechanism the claim is about that never engaged in the runs (no
	// foreground eviction, no dirty-ratio switch, a buffer that never filled): the measured
	// value then says nothing about the claim (docs/design.md "Decisions after the first
	// measurements"). Empty when every mechanism engaged.
	NotEngaged string `json:"not_engaged,omitempty"`
	// Engaged lists the mechanisms that engaged in some apps' runs only ("fd-ftl:
	// foreground eviction in 1 of 6 apps"): the claim's average then mixes the two regimes.
	Engaged string `json:"engaged,omitempty"`
	// Tie: the variants compared gave identical results on every app.
	Tie  bool   `json:"tie,omitempty"`
	Note string `json:"note,omitempty"`
}

// OK reports whether the measured value is within tolerance of the paper's.
func (c Claim) OK() bool {
	if c.Missing || math.IsNaN(c.Measured) {
		return false
	}
	if c.Kind == AtLeast {
		return c.Measured >= c.Paper-c.Tolerance
	}
	return math.Abs(c.Measured-c.Paper) <= c.Tolerance
}

// Verdict is "not run", "not engaged" (with the mechanism that did not), "tie" (the
// variants compared were identical), "reproduced" or "not reproduced", the first that
// applies.
func (c Claim) Verdict() string {
	if c.NotEngaged != "" && !c.Missing {
		return "not engaged: " + c.NotEngaged
	}
	return c.Outcome()
}

// Outcome is the verdict without its details: "reproduced", "not reproduced", "not
// engaged", "tie" or "not run".
func (c Claim) Outcome() string {
	switch {
	case c.Missing:
		return "not run"
	case c.NotEngaged != "":
		return "not engaged"
	case c.Tie:
		return "tie"
	case c.OK():
		return "reproduced"
	}
	return "not reproduced"
}

// measured is the measured value, NaN when the runs were not made.
func (c Claim) measured() float64 {
	if c.Missing {
		return nan
	}
	return c.Measured
}

// String names the kind: "about" or "at_least".
func (k Kind) String() string {
	if k == AtLeast {
		return "at_least"
	}
	return "about"
}

func (c Claim) format(v float64) string {
	switch c.Unit {
	case "%":
		return fmt.Sprintf("%.0f %%", v)
	case "×":
		return fmt.Sprintf("%.1f×", v)
	}
	return fmt.Sprintf("%.1f %s", v, c.Unit)
}

// PaperText and MeasuredText format the two values with their unit.
func (c Claim) PaperText() string {
	p := c.format(c.Paper)
	if c.Kind == AtLeast {
		p = "≥ " + p
	}
	return p
}

// MeasuredText formats the measured value ("-" when missing).
func (c Claim) MeasuredText() string {
	if c.Missing || math.IsNaN(c.Measured) {
		return "-"
	}
	return c.format(c.Measured)
}
