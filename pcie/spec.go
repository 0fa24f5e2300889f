package pcie

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Spec is the immutable configuration of a PCIe link. The zero value is not valid; start
// from DefaultSpec.
type Spec struct {
	// Gen is the PCIe generation, 1 to 5. docs/sources.md §2: Gen1 2.5 and Gen2 5 GT/s per lane
	// with 8b/10b encoding; Gen3 8, Gen4 16 and Gen5 32 GT/s with 128b/130b.
	Gen int `yaml:"gen"`
	// Lanes is the link width: 1, 2, 4, 8 or 16.
	Lanes int `yaml:"lanes"`
	// MPS is the Max Payload Size in bytes, a power of two from 128 to 4096: the largest
	// payload of a memory write or of one completion.
	MPS int `yaml:"mps"`
	// MRRS is the Max Read Request Size in bytes, a power of two from 128 to 4096: the
	// largest amount one memory read request may ask for.
	MRRS int `yaml:"mrrs"`
	// RCB is the Read Completion Boundary in bytes: 64, 128, 256 or 512. It matters only
	// with RCBChunks.
	RCB int `yaml:"rcb"`
	// RCBChunks makes completers return read data in RCB-sized completions (as root
	// complexes that complete cache line by cache line do) instead of MPS-sized ones.
	RCBChunks bool `yaml:"rcb_chunks"`
	// Latency is the fixed one-way latency (propagation, PHY, root complex or switch) added
	// after the last byte leaves the wire, e.g. "400ns".
	Latency sim.Time `yaml:"latency"`
	// Addr64 selects 4DW headers (64-bit addresses) for memory requests; otherwise 3DW.
	Addr64 bool `yaml:"addr64"`
	// ECRC adds the optional 4 B TLP digest to every TLP.
	ECRC bool `yaml:"ecrc"`
	// DLLPOverhead charges each direction the share of its wire time taken by ACK and
	// UpdateFC DLLPs and SKP ordered sets (see DLLPFactor).
	DLLPOverhead bool `yaml:"dllp_overhead"`
	// DLLPSymbolTimes reads the spec's ACK/UpdateFC intervals as symbol times (one byte per
	// lane each, so the interval in bytes grows with the width) instead of as bytes, which
	// is how pcie-model and docs/sources.md §2 read them. Off by default, following docs/sources.md.
	DLLPSymbolTimes bool `yaml:"dllp_symbol_times"`
	// ASPM configures the link's L0s and L1 power states (off by default).
	ASPM ASPM `yaml:"aspm"`
}

// DefaultSpec returns a Gen3 x4 link with MPS 256, MRRS 512, RCB 64, 64-bit addressing, no
// ECRC, DLLP overhead on, a 400 ns one-way latency and ASPM off (DefaultASPM). docs/sources.md §2: a doorbell posted write
// takes ~300–500 ns one way and a DMA read round trip ~0.7–1 µs (~850 ns measured); MRRS
// 512 is the spec default; MPS 256 is the common setting for the FACTS throughput figures.
func DefaultSpec() Spec {
	return Spec{
		Gen:          3,
		Lanes:        4,
		MPS:          256,
		MRRS:         512,
		RCB:          64,
		Latency:      400 * sim.Nanosecond,
		Addr64:       true,
		DLLPOverhead: true,
		ASPM:         DefaultASPM(),
	}
}

// Validate reports every problem with the spec, each naming its field.
func (s Spec) Validate() error {
	var errs []error
	if s.Gen < 1 || s.Gen > 5 {
		errs = append(errs, fmt.Errorf("pcie.gen: %d is not one of 1, 2, 3, 4, 5", s.Gen))
	}
	if laneIndex(s.Lanes) < 0 {
		errs = append(errs, fmt.Errorf("pcie.lanes: %d is not one of 1, 2, 4, 8, 16", s.Lanes))
	}
	if sizeIndex(s.MPS) < 0 {
		errs = append(errs, fmt.Errorf("pcie.mps: %d is not one of 128, 256, 512, 1024, 2048, 4096", s.MPS))
	}
	if sizeIndex(s.MRRS) < 0 {
		errs = append(errs, fmt.Errorf("pcie.mrrs: %d is not one of 128, 256, 512, 1024, 2048, 4096", s.MRRS))
	}
	if s.RCB != 64 && s.RCB != 128 && s.RCB != 256 && s.RCB != 512 {
		errs = append(errs, fmt.Errorf("pcie.rcb: %d is not one of 64, 128, 256, 512", s.RCB))
	}
	if s.Latency < 0 {
		errs = append(errs, fmt.Errorf("pcie.latency: %v is negative", s.Latency))
	}
	if err := s.ASPM.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// laneIndex returns the index of a width in 1, 2, 4, 8, 16, or -1.
func laneIndex(lanes int) int {
	for i, n := range [...]int{1, 2, 4, 8, 16} {
		if n == lanes {
			return i
		}
	}
	return -1
}

// sizeIndex returns the index of an MPS/MRRS value in 128 … 4096, or -1.
func sizeIndex(size int) int {
	for i, n := range [...]int{128, 256, 512, 1024, 2048, 4096} {
		if n == size {
			return i
		}
	}
	return -1
}
