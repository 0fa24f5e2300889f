package figures

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/runner"
)

// mechanism is something a claim needs to have happened in the runs for its measured value
// to say anything about it (issue 20 item 9).
type mechanism uint8

const (
	// filled: the write buffer reached its capacity (a write could find it full).
	filled mechanism = iota
	// foreground: the firmware evicted in the foreground at least once.
	foreground
	// switched: the host switched dirty-ratio sets at least once.
	switched
)

func (m mechanism) String() string {
	switch m {
	case filled:
		return "buffer never filled"
	case foreground:
		return "no foreground eviction"
	}
	return "no dirty-ratio switch"
}

// happened reports whether m happened in run r.
func (m mechanism) happened(r *runner.Result) bool {
	switch m {
	case filled:
		return r.BufferPages > 0 && r.Buffer.PeakOccupancy >= r.BufferPages
	case foreground:
		return r.Firmware.ForegroundEvictions > 0
	}
	return len(r.Switches) > 0
}

// need is one mechanism under one variant, in the runs of every latency-critical app or,
// for a claim about one app, in that app's run.
type need struct {
	variant string
	m       mechanism
	app     string // "" = every latency-critical app
}

// notEngaged returns, for the needs that happened in none of the latency-critical apps'
// runs of their variant, "variant: mechanism" joined by "; ", or "" if all happened somewhere
// (or the runs are missing: the claim is then "not run"). partial lists the needs that
// happened in some apps' runs but not all, as "variant: k of n apps".
func (s *Set) notEngaged(needs ...need) (none, partial string) {
	var out, part []string
	for _, n := range needs {
		ran, ok := 0, 0
		for _, a := range apps.LatencyCritical() {
			if n.app != "" && a != n.app {
				continue
			}
			if r := s.result(a, n.variant, ""); r != nil {
				ran++
				if n.m.happened(r) {
					ok++
				}
			}
		}
		switch {
		case ran > 0 && ok == 0:
			out = append(out, fmt.Sprintf("%s: %v", n.variant, n.m))
		case ok < ran:
			part = append(part, fmt.Sprintf("%s: %s in %d of %d apps", n.variant, n.m.positive(), ok, ran))
		}
	}
	return strings.Join(out, "; "), strings.Join(part, "; ")
}

// positive says that m happened.
func (m mechanism) positive() string {
	switch m {
	case filled:
		return "buffer filled"
	case foreground:
		return "foreground eviction"
	}
	return "dirty-ratio switch"
}

// tie reports whether variants a and b gave the same p99 for every latency-critical app
// that both ran.
func (s *Set) tie(a, b string) bool {
	n := 0
	for _, app := range apps.LatencyCritical() {
		pa, pb := s.p99(app, a, ""), s.p99(app, b, "")
		if pa != pb { // NaN never ties
			return false
		}
		n++
	}
	return n > 0
}

// judge sets the claim's NotEngaged (and, for mechanisms that engaged in some apps only, a
// note saying in how many) from needs, and Tie from the variant pair (a, b) if a is not
// empty.
func (s *Set) judge(c *Claim, a, b string, needs ...need) {
	var partial string
	c.NotEngaged, partial = s.notEngaged(needs...)
	c.Engaged = partial
	if a != "" {
		c.Tie = s.tie(a, b)
	}
}

// Tally counts the claims by verdict class, ties and "not engaged" apart from the others.
func Tally(figs []*Figure) string {
	t := SummaryDoc(figs).Tally
	return fmt.Sprintf("%d reproduced, %d not reproduced, %d not engaged, %d ties, %d not run", t.Reproduced, t.NotReproduced, t.NotEngaged, t.Tie, t.NotRun)
}
