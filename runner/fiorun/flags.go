package fiorun

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/report"
)

// ParseOutputFormat resolves fio's --output-format into fastdrain's --format: normal is
// text, json+ is json with fio's latency bins (plus), json and the rest pass through for
// the output contract to check; terse is refused. outputFormat is "" when the flag was not
// given (format stands), formatSet says --format was given explicitly: the two must agree.
func ParseOutputFormat(outputFormat, format string, formatSet bool) (string, bool, error) {
	if outputFormat == "" {
		return format, false, nil
	}
	if formatSet && format != outputFormat {
		return format, false, fmt.Errorf("--format %q and --output-format %q disagree; give one", format, outputFormat)
	}
	switch outputFormat {
	case "normal": // fio's name for its text output
		return "text", false, nil
	case "json+": // fio's JSON with the completion latency bins
		return "json", true, nil
	case "terse":
		return format, false, errors.New(`--output-format "terse": fio's terse (semicolon) format is not written; --format csv gives the same numbers with a header (docs/fio.md)`)
	}
	return outputFormat, false, nil
}

// ApplyFlags applies fio's --runtime (a fio duration: a plain number is seconds; "" for
// none) and --percentiles (nil for none; it replaces every job's percentile_list) to jobs.
func ApplyFlags(jobs []fio.Job, runtime string, pcts report.Percentiles) error {
	if runtime != "" {
		limit, err := fio.ParseDuration(runtime)
		if err != nil || limit <= 0 {
			return fmt.Errorf("--runtime %q: want a positive time such as 10s", runtime)
		}
		fio.CapRuntime(jobs, limit)
	}
	if pcts != nil {
		for i := range jobs {
			jobs[i].Percentiles = pcts
		}
	}
	return nil
}
