package cliflags

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/spf13/cobra"
)

// Percentiles is the --percentiles flag of the commands that report latency: a list that
// replaces the default percentiles in their text, JSON and CSV outputs.
type Percentiles struct {
	text string
	List report.Percentiles // nil without the flag: each output's default set
}

// Register adds --percentiles to cmd; where says which outputs it changes.
func (pf *Percentiles) Register(cmd *cobra.Command, where string) {
	cmd.Flags().StringVar(&pf.text, "percentiles", "", fmt.Sprintf(
		"latency percentiles to report instead of the defaults, comma-separated, each in (0, 100), e.g. 50,90,99,99.9,99.99,99.999; sorted for you; fields are named p50_us, p999_us, p05_us (%s)", where))
}

// Parse reads the flag; the error names it.
func (pf *Percentiles) Parse() error {
	if pf.text == "" {
		pf.List = nil
		return nil
	}
	ps, err := report.ParsePercentiles(pf.text)
	if err != nil {
		return fmt.Errorf("--percentiles %q: %w", pf.text, err)
	}
	pf.List = ps
	return nil
}
