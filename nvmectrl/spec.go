package nvmectrl

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Spec is the immutable configuration of the NVMe controller front end. Start from
// DefaultSpec and edit.
type Spec struct {
	// Clock is the front end's clock: arbitration, completion building and admin command
	// handling start and end on its edges.
	Clock sim.Freq `yaml:"clock"`
	// MaxQueueEntries is the largest queue the controller accepts, CAP.MQES + 1: 2 to 65536
	// (docs/sources.md §1.4: MQES is 16 bits, 0's based).
	MaxQueueEntries int `yaml:"max_queue_entries"`
	// MaxIOQueues is the number of I/O submission and completion queues the controller
	// supports (and reports for Number of Queues): 1 to 65535 (docs/sources.md §1.4).
	MaxIOQueues int `yaml:"max_io_queues"`
	// Vectors is the MSI-X table size: 1 to 2048 (docs/sources.md §1.5).
	Vectors int `yaml:"vectors"`
	// WRR advertises weighted round robin with urgent priority class in CAP.AMS bit 17, so
	// the host may select it in CC.AMS (docs/sources.md §1.6).
	WRR bool `yaml:"wrr"`
	// ArbitrationBurst is the reset value of the Arbitration feature's AB: an SQ's turn
	// fetches up to 2^AB commands; 7 means no limit. 0 to 7 (docs/sources.md §1.6).
	ArbitrationBurst int `yaml:"arbitration_burst"`
	// HighWeight, MediumWeight and LowWeight are the reset WRR weights in commands per
	// round, 1 to 256 (the feature's HPW/MPW/LPW are these minus one).
	HighWeight   int `yaml:"high_weight"`
	MediumWeight int `yaml:"medium_weight"`
	LowWeight    int `yaml:"low_weight"`
	// FetchBatch is the most SQEs one fetch DMA reads (contiguous entries of one SQ):
	// 1 to 64.
	FetchBatch int `yaml:"fetch_batch"`
	// MaxFetches is the number of SQE fetch DMAs that may be outstanding at once: 1 to 64.
	MaxFetches int `yaml:"max_fetches"`
	// MaxCommands is the number of commands the controller holds between fetch and
	// completion (its command slots); fetching stalls when all are in use. 1 to 65536.
	MaxCommands int `yaml:"max_commands"`
	// ReadTags is the number of non-posted read requests the DMA engine keeps outstanding
	// for command data (Write payloads): 1 to 768. With the link's MRRS it bounds the data
	// requested and not yet received to ReadTags × MRRS bytes (16 KiB at the default 32 and
	// MRRS 512). SQE fetches and PRP list reads do not count against it (dma.go).
	ReadTags int `yaml:"read_tags"`
	// LBASize is the namespace's logical block size in bytes (512, 1024, 2048 or 4096):
	// it turns a Read or Write's block count into a transfer length.
	LBASize int `yaml:"lba_size"`
	// MaxTransfer is the largest data transfer of one command in bytes (MDTS): a multiple
	// of 4096 from 4096 to 32 MiB. Larger commands complete with Invalid Field.
	MaxTransfer int `yaml:"max_transfer"`
	// ArbitrationCycles is the delay from a doorbell arriving (or a fetch slot freeing) to
	// the arbiter issuing fetches.
	ArbitrationCycles int64 `yaml:"arbitration_cycles"`
	// CompletionCycles is the delay from the firmware's Complete to the CQE write.
	CompletionCycles int64 `yaml:"completion_cycles"`
	// AdminCycles is the time the controller spends on an admin command it handles itself
	// (queue creation and deletion, features, Identify Controller).
	AdminCycles int64 `yaml:"admin_cycles"`
	// HintCarrier is where Write SQEs carry FastDrain's victimization hint; the controller
	// decodes it into Command.Hint.
	HintCarrier HintCarrier `yaml:"hint_carrier"`
	// StatusCarrier is where CQEs carry the buffer level given to Complete.
	StatusCarrier StatusCarrier `yaml:"status_carrier"`
	// Namespaces lists the controller's namespaces, NSID 1, 2, … in order (namespace.go).
	// Empty: one namespace of the whole capacity with LBASize blocks.
	Namespaces []Namespace `yaml:"namespaces,omitempty"`
	// FDP configures Flexible Data Placement (fdp.go); off by default.
	FDP FDP `yaml:"fdp,omitempty"`
}

// DefaultSpec returns a controller shaped like the Intel 750's front end as far as the facts
// go: WRR supported with SimpleSSD's Intel-750 weights high 2 and medium 2 (docs/sources.md §1.6);
// 4096-entry queues and 64 I/O queues; 512 B blocks, 128 KiB MDTS, 1024 command slots and a
// 400 MHz front-end clock are modelling assumptions [U], as are the cycle counts. ReadTags 32
// is the number of outstanding non-posted requests the PCIe 5-bit Tag field allows a function
// without Extended Tag Field Enable (docs/sources.md §10; 256 with it, 768 with 10-bit tags).
func DefaultSpec() Spec {
	return Spec{
		Clock:             400 * sim.MHz,
		MaxQueueEntries:   4096,
		MaxIOQueues:       64,
		Vectors:           65,
		WRR:               true,
		ArbitrationBurst:  3,
		HighWeight:        2,
		MediumWeight:      2,
		LowWeight:         1,
		FetchBatch:        8,
		MaxFetches:        4,
		MaxCommands:       1024,
		ReadTags:          32,
		LBASize:           512,
		MaxTransfer:       128 << 10,
		ArbitrationCycles: 4,
		CompletionCycles:  4,
		AdminCycles:       400,
		HintCarrier:       HintCDW13,
		StatusCarrier:     StatusSQHD,
	}
}

// Validate reports every problem with the spec, each naming its field by its path in a
// configuration file (the controller is the file's nvme section: "nvme.lba_size: …").
func (s Spec) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("nvme.%s: %v %s", field, v, want))
	}
	if s.Clock <= 0 {
		bad("clock", s.Clock, "is not a positive frequency")
	}
	if s.MaxQueueEntries < 2 || s.MaxQueueEntries > 1<<16 {
		bad("max_queue_entries", s.MaxQueueEntries, "is not in 2..65536")
	}
	if s.MaxIOQueues < 1 || s.MaxIOQueues > 65535 {
		bad("max_io_queues", s.MaxIOQueues, "is not in 1..65535")
	}
	if s.Vectors < 1 || s.Vectors > 2048 {
		bad("vectors", s.Vectors, "is not in 1..2048")
	}
	if s.ArbitrationBurst < 0 || s.ArbitrationBurst > 7 {
		bad("arbitration_burst", s.ArbitrationBurst, "is not in 0..7")
	}
	for _, w := range []struct {
		name string
		v    int
	}{{"high_weight", s.HighWeight}, {"medium_weight", s.MediumWeight}, {"low_weight", s.LowWeight}} {
		if w.v < 1 || w.v > 256 {
			bad(w.name, w.v, "is not in 1..256")
		}
	}
	if s.FetchBatch < 1 || s.FetchBatch > 64 {
		bad("fetch_batch", s.FetchBatch, "is not in 1..64")
	}
	if s.MaxFetches < 1 || s.MaxFetches > 64 {
		bad("max_fetches", s.MaxFetches, "is not in 1..64")
	}
	if s.MaxCommands < 1 || s.MaxCommands > 1<<16 {
		bad("max_commands", s.MaxCommands, "is not in 1..65536")
	}
	if s.ReadTags < 1 || s.ReadTags > 768 {
		bad("read_tags", s.ReadTags, "is not in 1..768")
	}
	switch s.LBASize {
	case 512, 1024, 2048, 4096:
	default:
		bad("lba_size", s.LBASize, "is not one of 512, 1024, 2048, 4096")
	}
	if s.MaxTransfer < PageSize || s.MaxTransfer > 32<<20 || s.MaxTransfer%PageSize != 0 {
		bad("max_transfer", s.MaxTransfer, "is not a multiple of 4096 in 4096..33554432")
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"arbitration_cycles", s.ArbitrationCycles}, {"completion_cycles", s.CompletionCycles}, {"admin_cycles", s.AdminCycles}} {
		if c.v < 0 {
			bad(c.name, c.v, "is negative")
		}
	}
	if s.HintCarrier > HintNone {
		bad("hint_carrier", s.HintCarrier, "is not one of cdw13, cdw2, none")
	}
	if s.StatusCarrier > StatusNone {
		bad("status_carrier", s.StatusCarrier, "is not one of sqhd, dw1, none")
	}
	errs = append(errs, s.validateNamespaces()...)
	errs = append(errs, s.validateFDP()...)
	return errors.Join(errs...)
}
