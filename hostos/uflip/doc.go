// Package uflip runs the uFLIP flash IO-pattern benchmark (Bouganim, Jónsson, Bonnet, CIDR
// 2009; see docs/sources.md §12) as a workload of the simulated host.
//
// Place in the data flow: uflip sits at the top of the host side, beside the application
// models and fio-like jobs. It produces synchronous direct IOs (one outstanding IO per
// stream) and hands each one to a Device; the Device is the direct I/O path of the host
// model (block layer, NVMe driver, PCIe, SSD), which is wired in later by the platform
// builder, or a FileDevice that measures a real file or block device with O_DIRECT.
//
// The package holds:
//   - the LBA generators of docs/sources.md §12 (random, sequential with Incr, partitioned, mixes of two
//     patterns, pauses and bursts), exact in 512-byte sectors (Gen, Stream);
//   - Run, the parameters of one run, with Validate;
//   - the nine micro-benchmarks and the methodology's experiment ordering as a Plan, scaled
//     to a device capacity, including device state enforcement (Format);
//   - Executor, which runs a Plan as simulated processes and collects per-IO records and
//     per-run statistics, and CSV writers for both;
//   - the automatic IOIgnore/IOCount rule (Converge: MSER-5 start-up detection and a
//     batch-means confidence interval, converge.go);
//   - Points, which merges repetitions into one point per run step; Findings, uFLIP's
//     published findings as checks on those points (findings.go); and Calibrate, the
//     per-micro-benchmark ratio of two devices' means (docs/uflip.md).
package uflip
