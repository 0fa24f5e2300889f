package apps

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestIOBytesBound works the bound out by hand for the run command's default scenario and
// for a database and an open-loop Ungzip.
func TestIOBytesBound(t *testing.T) {
	s := DefaultSpec()
	// Ungzip: 160 MB/s × 10 s = 1.6e9 B of output, and 32 % of it read as input, 0.512e9.
	// Apache-U: 4 clients, each a request every 10 ms of think time + 50 µs of CPU at
	// least: ⌊10 s / 10.05 ms⌋ = 995 each, 3,980 in all; the SPECweb classes' mean
	// request, in integer bytes: 35 × (102 + 922)/2/100 = 179, 50 × (1 + 9 KiB)/2/100 =
	// 2,560, 14 × (10 + 90 KiB)/2/100 = 7,168, 1 × (100 + 900 KiB)/2/100 = 5,120: 15,027 B.
	// 3,980 × 15,027 = 59,807,460 B (a default run of fastdrain-tlc-8x made 4,065 requests
	// of 61 MB: the think time is exponential, the bound its mean).
	sc := Scenario{Name: "apache-u+ungzip", Apps: []string{ApacheU, Ungzip}}
	require.Equal(t, int64(2_112_000_000+59_807_460), s.IOBytesBound(sc, 10*sim.Second))

	// A database update: 2 clients, 1 ms think time, no CPU time: 2 × 10 s / 1 ms = 20,000
	// transactions of 3 page reads of 16 KiB, a 512 B redo record and the page written
	// back: 66,048 B each, 1,320,960,000 B. Ungzip open loop at 50 MB/s reads nothing from
	// the device: 500,000,000 B.
	s.DBU = DBSpec{Op: OpUpdate, Client: ClientSpec{Clients: 2, ThinkTime: sim.Millisecond},
		ReadsPerOp: 3, PageSize: 16 * KiB, LogWrite: 512, PageWrite: true}
	s.Ungzip.OpenLoopRate = 50_000_000
	sc = Scenario{Name: "db-u+ungzip", Apps: []string{DBU, Ungzip}}
	require.Equal(t, int64(1_320_960_000+500_000_000), s.IOBytesBound(sc, 10*sim.Second))

	// Clients with neither think time nor CPU time are bounded by the device: nothing.
	s.DBU.Client.ThinkTime = 0
	require.Equal(t, int64(500_000_000), s.IOBytesBound(sc, 10*sim.Second))
}
