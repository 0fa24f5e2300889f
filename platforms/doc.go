// Package platforms is fastdrain's configuration: one YAML schema for a whole simulated
// machine (host OS, PCIe link, NVMe controller, controller DRAM, flash array, firmware,
// preconditioning), embedded presets and system variants, strict loading with --set
// overrides, validation that reports every problem with its field path, and the builder
// that wires one simulated machine from a validated configuration.
//
// Loading order: built-in defaults (each package's DefaultSpec) ← preset ← variant ← user
// files ← --set overrides. Unknown keys are errors at every step.
package platforms
