package figures

import (
	"fmt"
	"math"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Kind says how a claim's measured value is judged.
type Kind uint8

// Claim kinds.
const (
	// About: |measured − paper| ≤ tolerance.
	About Kind = iota
	// AtLeast: measured ≥ paper − tolerance.
	AtLeast
	// AtMost: measured ≤ paper + tolerance (the paper gives a bound: "under 5 ms").
	AtMost
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
	// NotEngaged names the mechanisms the claim is about that were not in force for
	// EngagedShare of the run in every app's run the claim is computed from (engaged.go):
	// the measured value then says nothing about the claim (docs/design.md "Decisions after the
	// first measurements"). Empty when every mechanism engaged.
	NotEngaged string `json:"not_engaged,omitempty"`
	// Tie: the variants compared gave identical results on every app.
	Tie  bool   `json:"tie,omitempty"`
	Note string `json:"note,omitempty"`
	// Band says why the tolerance is what it is: how precisely the paper's figure or text
	// can be read (docs/fidelity.md lists every band).
	Band string `json:"band,omitempty"`

	// Seeds are the measured values on every seed the claim's runs were made on (the
	// default seed first; nil when only the default seed ran), and SeedsOK how many of them
	// were in the band with the mechanism engaged and no tie. Reproduced needs all of them.
	Seeds   []float64 `json:"seeds,omitempty"`
	SeedsOK int       `json:"seeds_ok,omitempty"`
	// Short is the claim at the shorter duration (Options.Short, default seed), nil if
	// not run; ShortAt is that duration.
	Short        *Claim   `json:"-"`
	ShortAt      sim.Time `json:"-"`
	fullDuration sim.Time // the duration of the claim's own runs (Options.Duration)
	// Host is the host profile the claim was measured on; Hosts the same claim on the
	// other host profiles (the headline's claim carries them, in Options.Hosts order).
	Host  string  `json:"host,omitempty"`
	Hosts []Claim `json:"-"`
}

// inBand reports whether the claim holds on its own run: engaged, no tie, within the band.
func (c Claim) inBand() bool { return c.NotEngaged == "" && !c.Tie && c.OK() }

// OK reports whether the measured value is within tolerance of the paper's.
func (c Claim) OK() bool {
	if c.Missing || math.IsNaN(c.Measured) {
		return false
	}
	switch c.Kind {
	case AtLeast:
		return c.Measured >= c.Paper-c.Tolerance
	case AtMost:
		return c.Measured <= c.Paper+c.Tolerance
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
	case c.OK() && c.SeedsOK == len(c.Seeds):
		return "reproduced"
	}
	return "not reproduced"
}

// SeedText is the measured values over the seeds, "12.1–13.4× on 3 seeds (2 in band)", or ""
// when one seed ran.
func (c Claim) SeedText() string {
	if len(c.Seeds) < 2 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range c.Seeds {
		lo, hi = min(lo, v), max(hi, v)
	}
	r := c
	r.Measured = lo
	t := r.MeasuredText()
	r.Measured = hi
	return fmt.Sprintf("%s … %s on %d seeds, %d in band", t, r.MeasuredText(), len(c.Seeds), c.SeedsOK)
}

// ShortText says how the claim fares at the shorter duration: "holds at 10s too", "holds
// at 30s, not at 10s (measured …)", "" when not run or when it holds at neither.
func (c Claim) ShortText(full sim.Time) string {
	if c.Short == nil {
		return ""
	}
	sh := *c.Short
	switch {
	case c.Outcome() == "reproduced" && sh.inBand():
		return "holds at " + c.ShortAt.String() + " too"
	case c.Outcome() == "reproduced":
		return fmt.Sprintf("holds at %v, not at %v (%s, %s)", full, c.ShortAt, sh.MeasuredText(), sh.Outcome())
	case sh.inBand():
		return fmt.Sprintf("holds at %v (%s), not at %v", c.ShortAt, sh.MeasuredText(), full)
	}
	return ""
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
	switch k {
	case AtLeast:
		return "at_least"
	case AtMost:
		return "at_most"
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
	switch c.Kind {
	case AtLeast:
		p = "≥ " + p
	case AtMost:
		p = "≤ " + p
	}
	return p
}

// BandText is the band the measured value is judged against: "9.0× ± 2.2", "≥ 2.0×".
func (c Claim) BandText() string {
	if c.Tolerance == 0 || c.Kind != About {
		r := c
		r.Paper = c.Paper
		switch c.Kind {
		case AtLeast:
			r.Paper = c.Paper - c.Tolerance
		case AtMost:
			r.Paper = c.Paper + c.Tolerance
		}
		return r.PaperText()
	}
	lo, hi := c, c
	lo.Measured, hi.Measured = c.Paper-c.Tolerance, c.Paper+c.Tolerance
	return lo.MeasuredText() + " … " + hi.MeasuredText()
}

// MeasuredText formats the measured value ("-" when missing).
func (c Claim) MeasuredText() string {
	if c.Missing || math.IsNaN(c.Measured) {
		return "-"
	}
	return c.format(c.Measured)
}
