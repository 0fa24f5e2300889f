// Package parallel runs independent jobs on several goroutines: a sweep's runs
// (runner.Parallel) and the closed-form filling of a machine's tables at build time
// (ftl.Precondition). It stands outside the model: no job it runs is run by an engine, and
// each job writes only its own results, so what the jobs compute does not depend on how many
// goroutines share them or how they are scheduled. Model code stays serial; this is the
// one place, with the runner's sweeps, where the program uses more than one core.
package parallel
