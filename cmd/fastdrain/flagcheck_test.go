package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFlagValues: issue 38's silent acceptances on the command line — a negative count
// (read as its default), a count clamped to the device — and strconv's words for a value
// of the wrong kind become errors naming the flag; a time names its unit and the units
// accepted. Each fails before anything is simulated.
func TestFlagValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--jobs", "-1"}, "--jobs -1: must not be negative (--jobs: simulations run in parallel (0 = one per CPU))"},
		{[]string{"compare", "--jobs", "-2"}, "--jobs -2: must not be negative"},
		{[]string{"sweep", "--jobs", "-1"}, "--jobs -1: must not be negative"},
		{[]string{"uflip", "--nbrun", "-1"}, "--nbrun -1: must not be negative (--nbrun: runs per point (0 = uFLIP's 3))"},
		{[]string{"uflip", "--auto-cap", "-5"}, "--auto-cap -5: must not be negative"},
		{[]string{"replay", "x.trace", "--max", "-3"}, "--max -3: must not be negative"},
		{[]string{"flashbench", "--ops", "-10"}, "--ops -10: must not be negative"},
		{[]string{"run", "--timeline-max", "-1"}, "--timeline-max -1: must not be negative"},
		{[]string{"run", "--jobs", "3.7"}, `--jobs "3.7": not a whole number`},
		{[]string{"uflip", "--nbrun", "x"}, `--nbrun "x": not a whole number`},
		{[]string{"run", "--seed", "-1"}, `--seed "-1": must not be negative`},
		{[]string{"run", "--jobs", "99999999999999999999"}, `--jobs "99999999999999999999": out of range`},
		{[]string{"uflip", "--auto", "often"}, `--auto "often": not a number`},
		{[]string{"run", "--quick=maybe"}, `--quick "maybe": want true or false`},
		{[]string{"run", "--duration", "1h"}, `--duration "1h": unknown unit "h" (want ps, ns, us, ms or s); 1h is 3600s`},
		{[]string{"run", "--duration", "10"}, `--duration "10": missing unit after the number (want ps, ns, us, ms or s)`},
		{[]string{"run", "--duration", "0s"}, `--duration "0s": must be positive, e.g. 10s`},
		{[]string{"run", "--warmup", "-1s"}, `--warmup "-1s": must not be negative`},
		{[]string{"sweep", "--duration", "2min"}, `--duration "2min": unknown unit "min" (want ps, ns, us, ms or s); 2min is 120s`},
		{[]string{"fio", "x.fio", "--idle", "5 sec"}, `--idle "5 sec": unknown unit "sec" (want ps, ns, us, ms or s)`},
		{[]string{"run", "--timeline", "t.json", "--timeline-window", "1s:2h"}, `--timeline-window "1s:2h": TO: time "2h": unknown unit "h"`},
		// A span larger than the device was clamped to it without a word.
		{[]string{"uflip", "--preset", "tiny", "--span", "1TiB"}, "--span 1TiB: larger than device tiny (50331648 bytes = 48MiB); give --span 48MiB or less"},
		{[]string{"uflip", "--preset", "tiny"}, "--span 1GiB (the default): larger than device tiny"},
	} {
		_, err := run(c.args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
}
