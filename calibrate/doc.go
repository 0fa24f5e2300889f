// Package calibrate fits a platform preset to measurements of a real drive: the mean
// latencies of a uFLIP plan run on the drive (`fastdrain uflip --target`, its uflip.json) and
// of fio jobs (fio's --output-format=json, or `fastdrain fio`'s fio.json).
//
// Place in the data flow: calibrate sits beside cmd/fastdrain, above everything else. It
// reads measurement files (uflipjson.go, fiojson.go) into a Set of Points, each one measured
// number with what it takes to issue the same IOs again; it replays every Point on a
// simulated machine built from a candidate configuration (simulate.go, through the host's
// direct I/O path, the uflip executor and the fio runner), and moves the candidate's
// parameters (params.go) by a deterministic coordinate search that minimises the mean
// squared log error between simulated and measured latencies, each point weighed by its
// noise (search.go). What comes out (result.go) is the fitted configuration, an error table
// per measured point, and, per parameter, whether the measurements identify it and from
// which patterns: a parameter whose every neighbouring value moves no simulated point by
// Identifiable beyond that point's noise is not identifiable from these measurements, and
// is left at the base preset's value.
//
// The search, in full (docs/calibrate.md):
//
//  1. Start from the base preset's values. Replay them with two other seeds (other random
//     addresses): a point's noise is the largest |ln| change this gives, and its weight in
//     the objective 1/(noise² + NoiseFloor²).
//  2. Stages (search.go's stages), each on the points that depend on nothing not yet
//     fitted, replayed on their own: what every IO pays (Param.Overhead: the host link, the
//     controller's clock) on the read-back points (uflip.BenchReadback: reads of data just
//     written, which a write buffer serves without a flash read); then tR
//     (Param.ReadTime) on reads of one page at one stream. A stage tries every value of a
//     discrete parameter with the continuous ones fitted again for it. A stage whose
//     points the measurements do not hold does nothing.
//  3. A round visits the parameters in a fixed order (Params). A continuous parameter (a
//     time or a clock) is searched on a log scale: at each step factor 2, √2, 2^¼, 2^⅛, 2^(1/16) in
//     turn it moves up or down by that factor while the error falls (the better of the two
//     directions each time, up first on a tie). A discrete parameter (a count, a link, a
//     policy) tries each of its values and keeps the best (the current one on a tie).
//     After a round that moved, a pattern move (Hooke and Jeeves) carries the continuous
//     parameters on by the round's displacement while the error falls.
//  4. After a round that changed nothing, a trade move: parameters that share a
//     Param.Trade (channels and dies per channel) move a factor 2 from one to the other,
//     the continuous ones re-fitted at the fine steps; rounds go on while it helps, at most
//     Options.Rounds in all.
//  5. The noise is measured again at the fitted values. Every parameter is then moved to
//     its neighbouring values (×2 and ÷2, or the neighbours in its list); one that changes
//     no point by Identifiable beyond the point's noise goes back to the base value, and
//     the final configuration is simulated once more for the table.
//
// Every candidate is a whole simulated machine: evaluations are cached by parameter values,
// and everything is deterministic (a fixed visiting order, ties broken by order, seeded
// random streams), so the same files and options give the same fit.
package calibrate
