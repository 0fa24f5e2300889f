package flashbench

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
)

// WriteJSON writes the result's JSON document (JSON), indented: flashbench.json.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON())
}

// WriteDir writes flashbench.json (WriteJSON) and flashbench.csv (SummaryCSV) under dir.
func (r *Result) WriteDir(dir string) error {
	if err := report.WriteFile(filepath.Join(dir, "flashbench.json"), r.WriteJSON); err != nil {
		return err
	}
	return r.SummaryCSV().SaveCSV(filepath.Join(dir, "flashbench.csv"))
}
