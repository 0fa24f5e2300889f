// Package report turns what a simulation observed — resources, histograms, counters and
// series — into tables for the terminal (tablewriter), CSV and JSON for scripts.
//
// Models never print; everything shown here is read from sim values after (or during) a run,
// so a report can be added or changed without touching a model.
package report
