package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestLayoutNamespaces: over 1,000 logical pages of 4 KiB, a 400 KiB namespace takes
// pages 0–99; the two without a size share the 900 left, 450 each (the second rounded down
// to whole zones of 64 pages: 448), starting at 100 and 550. Namespaces needing more pages
// than there are, or a size that is not whole zones, are refused naming their field.
func TestLayoutNamespaces(t *testing.T) {
	list := []nvmectrl.Namespace{{Size: 400 << 10}, {}, {Type: nvme.NSZoned}}
	zone := func(i int) int64 {
		if list[i].Type == nvme.NSZoned {
			return 64
		}
		return 1
	}
	ext, err := layoutNamespaces(list, 1000, 4096, zone)
	require.NoError(t, err)
	require.Equal(t, []nsExtent{{0, 100}, {100, 450}, {550, 448}}, ext)

	_, err = layoutNamespaces([]nvmectrl.Namespace{{Size: 4004 << 10}}, 1000, 4096, func(int) int64 { return 1 })
	require.ErrorContains(t, err, "nvme.namespaces: the sized namespaces need 1001 logical pages")
	_, err = layoutNamespaces(list[:0:0], 1000, 4096, zone) // no namespaces: nothing to carve
	require.NoError(t, err)
	list[2].Size = 100 << 12
	_, err = layoutNamespaces(list, 1000, 4096, zone)
	require.ErrorContains(t, err, "nvme.namespaces[2].size: 409600 bytes is not a whole number of 262144-byte zones")
}

// TestNamespacesAreSeparate: namespace 1 holds 1 MiB of 512-byte LBAs (logical pages
// 0–255), namespace 2 the rest of the logical space in 4 KiB LBAs, from logical page 256.
// A write of LBAs 8–15 of namespace 1 is logical page 1; a write of LBA 1 of namespace 2 is
// logical page 257: reading each back returns its own stamp. LBA 2048 of namespace 1 (its
// end) is out of range, NSID 3 names no namespace. Identify Namespace reports 2,048 and
// (logical − 256) blocks, and each namespace's commands and pages are counted apart.
func TestNamespacesAreSeparate(t *testing.T) {
	cs := nvmectrl.DefaultSpec()
	cs.Namespaces = []nvmectrl.Namespace{{Size: 1 << 20, LBASize: 512}, {LBASize: 4096}}
	r := newFakeOn(t, smallSpec(Vanilla, "sequential"), cs)
	f := r.fw
	logical := f.ftl.LogicalPages()
	var oor, inv nvme.Status
	got1, got2 := make([]uint64, 1), make([]uint64, 1)
	r.eng.Spawn("host", func(p *sim.Proc) {
		r.cmdOn(p, 1, nvme.OpWrite, 8, 8, nvme.Hint{}, []uint64{Stamp(1, 1)})
		r.cmdOn(p, 2, nvme.OpWrite, 1, 1, nvme.Hint{}, []uint64{Stamp(257, 1)})
		r.cmdOn(p, 1, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		r.cmdOn(p, 1, nvme.OpRead, 8, 8, nvme.Hint{}, got1)
		r.cmdOn(p, 2, nvme.OpRead, 1, 1, nvme.Hint{}, got2)
		oor = r.cmdOn(p, 1, nvme.OpWrite, 2048, 8, nvme.Hint{}, []uint64{1}).status
		inv = r.cmdOn(p, 3, nvme.OpRead, 0, 1, nvme.Hint{}, make([]uint64, 1)).status
	})
	r.eng.Run()
	require.Equal(t, Stamp(1, 1), got1[0])
	require.Equal(t, Stamp(257, 1), got2[0])
	require.NotEqual(t, ftl.NoUnit, f.ftl.Lookup(1))
	require.NotEqual(t, ftl.NoUnit, f.ftl.Lookup(257))
	require.Equal(t, ftl.NoUnit, f.ftl.Lookup(256))
	require.Equal(t, nvme.StatusLBAOutOfRange, oor)
	require.Equal(t, nvme.StatusInvalidNamespace.WithDNR(), inv)

	i1, ok := f.NamespaceInfo(1)
	require.True(t, ok)
	require.Equal(t, uint64(2048), i1.Blocks)
	require.Equal(t, uint64(8), i1.Used, "one page of eight 512-byte blocks holds data")
	i2, ok := f.NamespaceInfo(2)
	require.True(t, ok)
	require.Equal(t, uint64(logical-256), i2.Blocks)
	require.Equal(t, uint64(1), i2.Used)
	_, ok = f.NamespaceInfo(3)
	require.False(t, ok)
	require.Equal(t, int64(256), f.LogicalPages(), "the host's first device is namespace 1")
	require.Equal(t, NSStats{Reads: 1, Writes: 2, ReadPages: 1, WritePages: 1}, f.NamespaceStats(1),
		"the out-of-range write counts as a command, not as pages")
	require.Equal(t, NSStats{Reads: 1, Writes: 1, ReadPages: 1, WritePages: 1}, f.NamespaceStats(2))
}
