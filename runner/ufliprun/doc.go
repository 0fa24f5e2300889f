// Package ufliprun runs a uFLIP plan (hostos/uflip) on simulated machines (runner.Open)
// and real files or block devices, and shapes what it measured: the runs table, the
// firmware's counters and statistics of a simulated device, uFLIP's findings, the
// calibration between devices, uflip.json, uflip.csv, the per-IO and per-run CSV files and
// uFLIP's figures (docs/uflip.md).
package ufliprun
