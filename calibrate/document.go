package calibrate

import (
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fastdrain-sim/fastdrain/report"
)

// jsonFormat is the version tag of calibrate's JSON document (docs/calibrate.md).
const jsonFormat = "fastdrain-calibrate/1"

// WriteDir writes the fit of set over preset base under dir: the fitted configuration
// yml as fitted.yaml, the point and parameter tables as points.csv and params.csv, and
// calibrate.json (Document).
func (fit *Result) WriteDir(dir string, set *Set, base string, yml []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "fitted.yaml"), yml, 0o644); err != nil {
		return err
	}
	if err := fit.PointTable(set).Numbers().SaveCSV(filepath.Join(dir, "points.csv")); err != nil {
		return err
	}
	if err := fit.ParamTable().Numbers().SaveCSV(filepath.Join(dir, "params.csv")); err != nil {
		return err
	}
	return report.WriteFile(filepath.Join(dir, "calibrate.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(fit.Document(set, base))
	})
}

// WriteText writes the fit of set for people: the summary, the parameter table and the
// point table.
func (fit *Result) WriteText(w io.Writer, set *Set) error {
	if _, err := io.WriteString(w, fit.Summary(set)); err != nil {
		return err
	}
	if err := fit.ParamTable().Text().WriteText(w); err != nil {
		return err
	}
	return fit.PointTable(set).Text().WriteText(w)
}

// jsonParam is one parameter of calibrate.json.
type jsonParam struct {
	Name         string   `json:"name"`
	What         string   `json:"what"`
	Base         float64  `json:"base"`
	Fitted       float64  `json:"fitted"`
	BaseText     string   `json:"base_text"`
	FittedText   string   `json:"fitted_text"`
	Identified   bool     `json:"identified"`
	Sensitivity  float64  `json:"sensitivity_frac"`
	IdentifiedBy []string `json:"identified_by"`
}

// jsonPoint is one measured point of calibrate.json.
type jsonPoint struct {
	Point      string  `json:"point"`
	Pattern    string  `json:"pattern"`
	Source     string  `json:"source"`
	MeasuredUs float64 `json:"measured_us"`
	BaseUs     float64 `json:"base_us"`
	FittedUs   float64 `json:"fitted_us"`
	Error      float64 `json:"error_frac"`
}

// Document is calibrate.json: the fit of set over preset base — its settings and errors,
// each parameter and each point.
func (fit *Result) Document(set *Set, base string) any {
	params := []jsonParam{}
	for _, e := range fit.Estimates {
		by := e.By
		if by == nil {
			by = []string{}
		}
		params = append(params, jsonParam{Name: e.Param.Name, What: e.Param.What, Base: e.Base, Fitted: e.Value,
			BaseText: e.Param.Format(e.Base), FittedText: e.Param.Format(e.Value), Identified: e.Identifiable,
			Sensitivity: math.Exp(e.Sensitivity) - 1, IdentifiedBy: by})
	}
	points := []jsonPoint{}
	for i, p := range set.Points {
		points = append(points, jsonPoint{Point: p.Name, Pattern: p.Pattern, Source: p.Source, MeasuredUs: p.Measured,
			BaseUs: fit.BaseSim[i], FittedUs: fit.Simulated[i], Error: (fit.Simulated[i] - p.Measured) / p.Measured})
	}
	return struct {
		Format      string      `json:"format"`
		Base        string      `json:"base"`
		Files       []string    `json:"files"`
		Evaluations int         `json:"evaluations"`
		BaseError   float64     `json:"base_rms_log_error"`
		Error       float64     `json:"fitted_rms_log_error"`
		Parameters  []jsonParam `json:"parameters"`
		Points      []jsonPoint `json:"points"`
		Unfitted    []string    `json:"never_fitted"`
	}{jsonFormat, base, set.Files, fit.Evaluations, fit.BaseError, fit.Error, params, points, Unfitted}
}
