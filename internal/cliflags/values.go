package cliflags

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Flag values every command shares the checks of: an integer flag is a count,
// a size or a bound, never negative; a number that is not an integer is named as such, not
// with strconv's words; a time says which unit was wrong and which are accepted. What a
// value means (its range, what 0 stands for) is checked where it is used.

// CheckValues refuses a negative value given to any integer flag of cmd: every one
// counts, sizes or bounds something (--jobs, --nbrun, --qd, --ops, --max, --timeline-max,
// …), and a negative count would otherwise be read as its default or as nothing.
func CheckValues(cmd *cobra.Command) error {
	var errs []error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch f.Value.Type() {
		case "int", "int8", "int16", "int32", "int64":
			if v, err := strconv.ParseInt(f.Value.String(), 10, 64); err == nil && v < 0 {
				errs = append(errs, fmt.Errorf("--%s %d: must not be negative (--%s: %s)", f.Name, v, f.Name, f.Usage))
			}
		}
	})
	return errors.Join(errs...)
}

// FlagError rewrites the flag parser's complaint about a value of the wrong kind —
// `invalid argument "3.7" for "--jobs" flag: strconv.ParseInt: parsing "3.7": invalid
// syntax` — as `--jobs "3.7": not a whole number`; other errors pass unchanged.
func FlagError(_ *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	name, val := "--"+iv.GetFlag().Name, iv.GetValue()
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return fmt.Errorf("%s %q: %v", name, val, errors.Unwrap(err))
	}
	switch {
	case errors.Is(ne.Err, strconv.ErrRange):
		return fmt.Errorf("%s %q: out of range", name, val)
	case ne.Func == "ParseUint" && strings.HasPrefix(strings.TrimSpace(val), "-"):
		return fmt.Errorf("%s %q: must not be negative", name, val)
	case ne.Func == "ParseBool":
		return fmt.Errorf("%s %q: want true or false", name, val)
	case ne.Func == "ParseFloat":
		return fmt.Errorf("%s %q: not a number", name, val)
	}
	return fmt.Errorf("%s %q: not a whole number", name, val)
}

// Time parses the simulated time given to --name. The error names the flag, the text
// given and, for a bad unit, the units accepted; positive refuses 0, and a negative time
// is always refused.
func Time(name, v string, positive bool) (sim.Time, error) {
	t, err := sim.ParseTime(v)
	if err != nil {
		return 0, fmt.Errorf("--%s %q: %s", name, v, strings.TrimPrefix(err.Error(), fmt.Sprintf("time %q: ", v)))
	}
	switch {
	case t < 0:
		return 0, fmt.Errorf("--%s %q: must not be negative", name, v)
	case positive && t == 0:
		return 0, fmt.Errorf("--%s %q: must be positive, e.g. 10s", name, v)
	}
	return t, nil
}
