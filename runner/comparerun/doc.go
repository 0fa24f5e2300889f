// Package comparerun runs the FastDrain comparison — every co-location scenario under
// every variant on one platform, in parallel (runner.RunAll) — and shapes what it
// measured: the comparison tables (runner.P99Table and the others, report.ValueTable), the
// power-loss table and plots, summary.json and summary.csv (Summary), the verdict lines
// after the tables, and every run's own outputs (docs/outputs.md).
package comparerun
