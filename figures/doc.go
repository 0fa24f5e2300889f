// Package figures reproduces the FastDrain paper's claims (Zhang et al., IEEE CAL 2020;
// DESIGN.md "The paper's claims to reproduce"): it runs the co-location scenarios under the
// system variants on one platform — every variant sharing every other parameter — and for
// each figure writes a table of the paper's value beside the measured one, CSV/JSON data and
// a plot, plus one summary of all claims with a verdict (within tolerance or not).
//
// Nothing here is tuned to the paper: the platform, workload and mechanism parameters are
// the documented defaults (docs/workloads.md, docs/fidelity.md), and a claim that does not
// reproduce is reported as such.
package figures
