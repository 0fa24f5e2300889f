package bench

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestLongRun writes the tiny machine's device (48 MiB logical, half preconditioned) three
// times over through the whole stack with the full FastDrain variant: 8 processes issue
// random 4 KiB O_DIRECT writes carrying data stamps (70 %), reads (25 %) and trims (5 %).
// The firmware checks every FTL invariant after every GC (firmware.verify), every read is
// checked against the last version written (or trimmed, or preconditioned), and the heap
// measured after each capacity's worth of writes must not grow once GC has reached steady
// state (after the first pass): at most 256 KiB between the first and the third.
// Skipped with -short.
func TestLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("long run: the device written three times over; skipped with -short")
	}
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Variant: "fd", Sets: []string{"firmware.verify=true"}})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	pages := m.SSD.FW.LogicalPages()
	raw, err := hostos.NewRawDevice(m.Host, pages*pageSize)
	require.NoError(t, err)

	// ref holds each page's current data: version 1 of the preconditioned pages (the first
	// fill·pages logical pages), 0 (unmapped) for the rest.
	ref := make([]uint64, pages)
	filled := int64(c.Precondition.Fill * float64(pages))
	for lpn := int64(0); lpn < filled; lpn++ {
		ref[lpn] = firmware.Stamp(lpn, 1)
	}
	busy := make([]bool, pages)
	version := uint64(1)
	var written, reads, checked, trims int64
	var heap [3]uint64 // after 1×, 2×, 3× the capacity
	pass := 0
	const procs = 8
	running := procs
	var failure error
	for k := 0; k < procs; k++ {
		rng := sim.NewRNG(7, fmt.Sprintf("longrun[%d]", k))
		m.Eng.Spawn(fmt.Sprintf("longrun[%d]", k), func(p *sim.Proc) {
			st := []uint64{0}
			for pass < 3 && failure == nil {
				lpn := rng.Int64N(pages)
				if busy[lpn] {
					p.Sleep(sim.Microsecond)
					continue
				}
				busy[lpn] = true
				off := lpn * pageSize
				switch op := rng.IntN(20); {
				case op < 14:
					version++
					st[0] = firmware.Stamp(lpn, version)
					if _, err := raw.DoData(p, uflip.OpWrite, off, pageSize, st); err != nil {
						failure = err
					}
					ref[lpn] = st[0]
					if written++; written%pages == 0 {
						// One capacity's worth written: measure the heap.
						runtime.GC()
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						heap[pass] = ms.HeapAlloc
						pass++
					}
				case op < 19:
					if _, err := raw.DoData(p, uflip.OpRead, off, pageSize, st); err != nil {
						failure = err
					}
					if st[0] != ref[lpn] && failure == nil {
						failure = fmt.Errorf("lpn %d at %v: read %#x, want %#x", lpn, p.Now(), st[0], ref[lpn])
					}
					reads++
					checked++
				default:
					if _, err := raw.Discard(p, off, pageSize); err != nil {
						failure = err
					}
					ref[lpn] = 0
					trims++
				}
				busy[lpn] = false
			}
			if running--; running == 0 {
				m.Eng.Stop()
			}
		})
	}
	m.Eng.Run()
	require.NoError(t, failure)
	require.Zero(t, running)
	require.NoError(t, m.SSD.FW.FTL().Check())
	st := m.SSD.FW.Stats
	t.Logf("%d pages written (%.1f× capacity), %d reads checked, %d trims, %d GC runs, %d pages moved, WAF %.2f, sim %v; heap %d / %d / %d KiB",
		written, float64(written)/float64(pages), checked, trims, st.GCRuns, st.GCPagesMoved,
		m.SSD.FW.FTL().Stats.WAF(), m.Eng.Now(), heap[0]>>10, heap[1]>>10, heap[2]>>10)
	require.Positive(t, st.GCRuns, "steady-state GC ran")
	require.Positive(t, checked)
	require.LessOrEqual(t, int64(heap[2])-int64(heap[0]), int64(256<<10), "heap grew after steady state")
}
