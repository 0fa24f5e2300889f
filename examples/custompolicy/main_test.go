package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/stretchr/testify/require"
)

// TestHotColdPlacement works the allocator through by hand on one die of one plane of 8
// SLC blocks of 8 pages (Clock and Written count blocks' worth of pages: 8 pages each; the
// window is hotBlocksPerDie × 1 die = 16).
//   - lpn 0 … 7 are first writes: cold, block 0, PPN 0 … 7; block 0's last program is at
//     clock 8 pages = 1.
//   - lpn 0 again: its copy (block 0, written at 1) is 1 − 1 = 0 < 16 old: hot. The hot
//     stream opens the next free block, 1: PPN 8.
//   - lpn 8, a first write: cold; block 0 is full, so the cold stream opens block 2: PPN 16.
//   - lpn 1 again: hot, block 1's next page: PPN 9.
func TestHotColdPlacement(t *testing.T) {
	g := ftl.Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 8, PagesPerBlock: 8, Kind: ftl.SLCKind}
	c := ftl.DefaultConfig()
	c.Allocator = hotColdName
	c.OverProvisioning, c.GCThreshold, c.GCReserve, c.LSBOnlyPages = 0.5, 2, 1, 8
	f, err := ftl.New(g, c)
	require.NoError(t, err)
	a := lastHotCold
	require.NotNil(t, a)
	write := func(lpn int64) ftl.PPN {
		p, err := f.WriteHost(lpn, 0, ftl.Background)
		require.NoError(t, err)
		return p
	}
	for lpn := int64(0); lpn < 8; lpn++ {
		require.Equal(t, ftl.PPN(lpn), write(lpn))
	}
	require.Equal(t, ftl.PPN(8), write(0))
	require.Equal(t, ftl.PPN(16), write(8))
	require.Equal(t, ftl.PPN(9), write(1))
	require.Equal(t, [streams]int64{cold: 9, hot: 2}, a.Writes)
	require.NoError(t, f.Check())
}

// TestExampleRuns runs the program briefly, as `go run ./examples/custompolicy -duration 4s
// -set firmware.verify=true` would: both allocators run the scenario through the
// configuration path, GC runs under both (with every FTL invariant, hot-cold's own
// included, checked after each GC), and hot-cold reports both streams used. A second run
// of the same configuration prints the same bytes (the allocator is deterministic).
func TestExampleRuns(t *testing.T) {
	o := options{preset: "fastdrain-small", scenario: "db-s+ungzip", duration: "4s", sets: []string{"firmware.verify=true"}}
	var b, again bytes.Buffer
	require.NoError(t, run(&b, o))
	require.NoError(t, run(&again, o))
	require.Equal(t, b.String(), again.String())
	out := b.String()
	lines := strings.Split(out, "\n")
	require.Equal(t, "db-s+ungzip on fastdrain-small, 4s simulated", lines[0])
	require.True(t, strings.HasPrefix(lines[1], "sequential WAF "), out)
	require.True(t, strings.HasPrefix(lines[4], "hot-cold   WAF "), out)
	require.NotContains(t, lines[1], "GC runs 0,", "GC engaged")
	require.NotContains(t, lines[4], "GC runs 0,", "GC engaged")
	require.Contains(t, lines[4], "host writes: ")
	require.NotContains(t, lines[4], " 0 hot", "the hot stream took writes")
}

// TestBadFlags: a bad duration or scenario is reported with the flag's name.
func TestBadFlags(t *testing.T) {
	var b bytes.Buffer
	require.EqualError(t, run(&b, options{preset: "fastdrain-small", scenario: "db-s+ungzip", duration: "4"}),
		`-duration "4": want a positive time such as 4s`)
	require.ErrorContains(t, run(&b, options{preset: "fastdrain-small", scenario: "nosuch", duration: "1s"}), "-scenario: ")
	require.ErrorContains(t, run(&b, options{preset: "fastdrain-small", scenario: "db-s", duration: "1s",
		sets: []string{"firmware.ftl.allocator=cold-hot"}}), `firmware.ftl.allocator: unknown allocator "cold-hot" (known: hot-cold, latency-aware, sequential, skip-to-lsb, slc-foreground)`)
}
