package powercut

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/platforms"
)

// SteadyState are the overrides that put a machine in steady state before its first cut:
// the logical space preconditioned 90 % full in random order with 4 % of it overwritten, at
// 10 % over-provisioning, so every plane starts two blocks above GC's threshold
// (ftl.PreconditionRoom's limit) and GC runs within the first few hundred simulated
// milliseconds of the tiny preset's writes, for the rest of the run.
var SteadyState = []string{"precondition.fill=0.9", "precondition.overwrite=0.04", "precondition.random=true",
	"firmware.ftl.over_provisioning=0.1"}

// Mappings are the mapping schemes a campaign can cut, with the overrides each takes after
// SteadyState: "page" the preset's page-level mapping; "bast" the hybrid log-block
// scheme, with 25 % over-provisioning (BAST keeps a data block for every logical block
// and log blocks beside them: the tiny preset's die does not hold them at 10 %) and no
// preconditioning overwrites (BAST's precondition leaves every logical block merged);
// "sub-page" 16 KiB flash pages holding four 4 KiB mapping units.
var Mappings = map[string][]string{
	"page":     nil,
	"bast":     {"firmware.ftl.mapping=bast", "firmware.ftl.over_provisioning=0.25", "precondition.overwrite=0"},
	"sub-page": {"flash.die.page_size=16384"},
}

// MappingNames returns the mapping schemes' names in table order.
func MappingNames() []string { return []string{"page", "bast", "sub-page"} }

// Matrix names the machines a campaign cuts: a preset (and files) with each variant, each
// power-loss protection setting and each mapping scheme, the steady state (unless
// KeepPrecondition) and Sets applied last to every one.
type Matrix struct {
	Preset           string
	Files            []string
	Variants         []string
	PLP              []bool
	Mappings         []string
	Sets             []string
	KeepPrecondition bool // the preset's preconditioning and over-provisioning, not SteadyState
}

// Targets loads and validates every machine of the matrix, labelled "variant plp|no-plp
// mapping", in variant, then protection, then mapping order.
func (m Matrix) Targets() ([]Target, error) {
	if len(m.Variants) == 0 || len(m.PLP) == 0 || len(m.Mappings) == 0 {
		return nil, fmt.Errorf("powercut: the matrix needs a variant, a power-loss protection setting and a mapping scheme")
	}
	var ts []Target
	for _, v := range m.Variants {
		for _, plp := range m.PLP {
			for _, mp := range m.Mappings {
				ms, ok := Mappings[mp]
				if !ok {
					return nil, fmt.Errorf("powercut: no mapping scheme %q (have: %s)", mp, strings.Join(MappingNames(), ", "))
				}
				var sets []string
				if !m.KeepPrecondition {
					sets = append(sets, SteadyState...)
				}
				sets = append(sets, ms...)
				sets = append(sets, fmt.Sprintf("firmware.power_loss_protection=%v", plp), "firmware.power_loss.enabled=true")
				sets = append(sets, m.Sets...)
				c, err := platforms.Load(platforms.Options{Preset: m.Preset, Variant: v, Files: m.Files, Sets: sets})
				if err != nil {
					return nil, fmt.Errorf("powercut: %s, %s: %w", v, mp, err)
				}
				label := v + " no-plp " + mp
				if plp {
					label = v + " plp " + mp
				}
				ts = append(ts, Target{Label: label, Config: c})
			}
		}
	}
	return ts, nil
}
