package sim

import (
	"fmt"
	"strings"
)

// SplitUnit splits the text of a quantity into its number and its unit: "2.5 ms" gives
// "2.5" and "ms", "1h" gives "1" and "h", "10" gives "10" and "". The number is the
// longest prefix of signs, digits, points and spaces; both parts are trimmed.
func SplitUnit(s string) (num, unit string) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == '+' || r == '-' || r == ' ')
	})
	if i < 0 {
		return s, ""
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
}

// UnitError is the error for the text s of a quantity (what: "time", "size", …) whose
// unit is missing or is not one of want (a list for people, "ps, ns, us, ms or s"): it
// says which, and what was given — `time "1h": unknown unit "h" (want ps, ns, us, ms or
// s)`, `time "10": missing unit (want …)`.
func UnitError(what, s, want string) error {
	num, unit := SplitUnit(s)
	switch {
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("%s %q: empty (want a number with a unit: %s)", what, s, want)
	case unit == "":
		return fmt.Errorf("%s %q: missing unit after the number (want %s)", what, s, want)
	case num == "":
		return fmt.Errorf("%s %q: no number before the unit (want a number with a unit: %s)", what, s, want)
	}
	return fmt.Errorf("%s %q: unknown unit %q (want %s)", what, s, unit, want)
}
