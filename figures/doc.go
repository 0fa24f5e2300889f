// Package figures reproduces the FastDrain paper's claims (Zhang et al., IEEE CAL 2020;
// docs/design.md "The paper's claims to reproduce"): it runs the co-location scenarios under the
// system variants on one platform — every variant sharing every other parameter — and for
// each figure writes a table of the paper's value beside the measured one, CSV/JSON data and
// a plot, plus one summary of all claims with a verdict (within tolerance or not).
//
// Beside the paper's runs it makes controls that say what a number means: the never-draining
// Oracle on two more seeds (the spread no variant may beat it by), every Fig. 5 variant and
// both oracles with Ungzip open loop at EqualWorkRate (equal co-runner work), and, with
// --only sensitivity, the regime map: every claim's verdict with one parameter changed.
// Quick runs use QuickPreset, the paper's platform scaled down 8× with its data sets.
//
// Nothing here is tuned to the paper: the platform, workload and mechanism parameters are
// the documented defaults (docs/workloads.md, docs/fidelity.md), and a claim that does not
// reproduce is reported as such.
package figures
