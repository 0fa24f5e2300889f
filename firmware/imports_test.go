package firmware

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoHardware: the firmware (firmware, firmware/ftl, firmware/buffer and
// firmware/hal) depends on no hardware model: `go list -deps ./firmware/...` lists only the
// kernel (sim), the buffer-level enum, the internal helpers, the flash protocol's data
// (nand: page addresses and types, no model), the NVMe protocol's data (nvme: status
// codes, opcodes, the hint, the health log, the namespace and FDP configuration; no
// model) and the firmware's own packages. The hardware is reached through the ports
// (firmware/ports.go), which package hwadapter implements: hwadapter.Flash over the
// channels and dies, hwadapter.Host over the NVMe controller (nvmectrl).
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
	for _, line := range strings.Fields(string(out)) {
		if p, ok := strings.CutPrefix(line, mod); ok && !allowed(p) {
			t.Errorf("the firmware depends on %s, a hardware package", p)
		}
	}
}
