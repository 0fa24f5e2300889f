package firmware

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportsNoHardware: the firmware (firmware, firmware/ftl, firmware/buffer and
// firmware/hal) depends on no hardware model: `go list -deps ./firmware/...` lists only the
// kernel (sim), the buffer-level enum, the internal helpers, the flash protocol's data
// (nand: page addresses and types, no model), the NVMe protocol's data (nvme: status
// codes, opcodes, the hint, the health log; no model) and the firmware's own packages. The hardware is reached through the ports
// (firmware/ports.go), which package hwadapter implements.
func TestImportsNoHardware(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/fastdrain-sim/fastdrain/firmware/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/fastdrain-sim/fastdrain/"
	allowed := func(p string) bool {
		return p == "sim" || p == "bufferlevel" || p == "nand" || p == "nvme" || strings.HasPrefix(p, "internal/") ||
			p == "firmware" || strings.HasPrefix(p, "firmware/")
	}
	// pending are hardware packages the firmware still imports, each until its stage of
	// issue 33 item 3 is done; the list only shrinks.
	pending := []string{"nvmectrl"}
	var seen []string
	for _, line := range strings.Fields(string(out)) {
		p, ok := strings.CutPrefix(line, mod)
		if !ok || allowed(p) {
			continue
		}
		if !slices.Contains(pending, p) {
			t.Errorf("the firmware depends on %s, a hardware package", p)
		}
		seen = append(seen, p)
	}
	for _, p := range pending {
		if !slices.Contains(seen, p) {
			t.Errorf("the firmware no longer depends on %s: take it off the pending list", p)
		}
	}
}
