// Package bench holds the whole-stack benchmarks and long runs: a machine built by
// platforms.Build (host page cache, block layer and NVMe driver → PCIe → NVMe controller →
// firmware → channels and dies) driven with 4 KiB random direct I/O through the raw block
// device (hostos.RawDevice), reporting simulated host I/Os per wall-second; the build of the
// 400 GB device; and how the cost grows with run length and device size. It has no
// non-test code: the numbers and how to reproduce them are in docs/performance.md. Beside
// them, fidelity.sh checks docs/fidelity.md's generated block against a figures --full run
// (or writes it with --update; figures.TestFidelityDoc makes the comparison).
package bench
