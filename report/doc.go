// Package report turns what a simulation observed — resources, histograms, counters and
// series — into tables for the terminal (tablewriter), CSV and JSON for scripts, and plots
// (gonum/plot, PNG and SVG): latency CDFs and tails, time series, bars, utilization heat
// maps and throughput over time. PNG plots are rendered at PNGDPI (SetPNGDPI, from the
// command line's --plot-dpi); the newer plots keep legends and colour scales in a strip
// beside the data, where they cannot cover it.
//
// Models never print; everything shown here is read from sim values after (or during) a run,
// so a report can be added or changed without touching a model.
package report
