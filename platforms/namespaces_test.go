package platforms

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/uflip"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// loadWith loads preset with the YAML text extra as a user file and sets.
func loadWith(t *testing.T, preset, extra string, sets ...string) (Config, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "extra.yaml")
	require.NoError(t, os.WriteFile(p, []byte(extra), 0o644))
	return Load(Options{Preset: preset, Files: []string{p}, Sets: sets})
}

// twoNamespaces is a tiny machine's NVMe section with a 16 MiB namespace of 512-byte
// blocks and a second namespace of 4 KiB blocks taking the rest.
const twoNamespaces = `
nvme:
  namespaces:
    - size: 16MiB
      lba_size: 512
    - lba_size: 4096
`

// TestNamespacesWholeStack: on the tiny machine with two namespaces, the host sees two
// block devices: /dev/nvme0n1 of 16 MiB in 512-byte blocks (4,096 logical pages) and
// /dev/nvme0n2 with the rest of the FTL's logical pages in 4 KiB blocks, both sized from
// Identify Namespace. Writes of eight pages at page 100 of each, with stamps, through the
// whole stack (block layer, driver, controller, firmware, flash after a flush) read back
// unchanged, and land on logical pages 100… and 4,096 + 100…: the namespaces do not alias.
// Namespace 3 does not exist.
func TestNamespacesWholeStack(t *testing.T) {
	c, err := loadWith(t, "tiny", twoNamespaces, "precondition.fill=0", "firmware.verify=true")
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	fw := m.SSD.FW
	require.Equal(t, 2, fw.Namespaces())
	require.Equal(t, int64(4096), fw.NamespacePages(1))
	require.Equal(t, fw.FTL().LogicalPages()-4096, fw.NamespacePages(2))
	require.Len(t, m.Host.Queues, 2)
	d1, err := hostos.NewNamespaceDevice(m.Host, 1)
	require.NoError(t, err)
	d2, err := hostos.NewNamespaceDevice(m.Host, 2)
	require.NoError(t, err)
	require.Equal(t, int64(16<<20), d1.Capacity())
	require.Equal(t, int64(512), d1.BlockSize())
	require.Equal(t, fw.NamespacePages(2)*4096, d2.Capacity())
	require.Equal(t, int64(4096), d2.BlockSize())
	_, err = hostos.NewNamespaceDevice(m.Host, 3)
	require.ErrorContains(t, err, "no namespace 3 (the controller has 2)")

	w1, w2 := make([]uint64, 8), make([]uint64, 8)
	for i := range w1 {
		w1[i] = firmware.Stamp(int64(100+i), 1)
		w2[i] = firmware.Stamp(int64(4096+100+i), 1)
	}
	r1, r2 := make([]uint64, 8), make([]uint64, 8)
	var ioErr error
	m.Eng.Spawn("host", func(p *sim.Proc) {
		for _, s := range []struct {
			d     *hostos.RawDevice
			op    uflip.Op
			stamp []uint64
		}{{d1, uflip.OpWrite, w1}, {d2, uflip.OpWrite, w2}, {d1, uflip.OpFlush, nil}, {d2, uflip.OpFlush, nil},
			{d1, uflip.OpRead, r1}, {d2, uflip.OpRead, r2}} {
			off, size := int64(100*4096), int64(8*4096)
			if s.op == uflip.OpFlush {
				off, size = 0, 0
			}
			if _, err := s.d.DoData(p, s.op, off, size, s.stamp); err != nil && ioErr == nil {
				ioErr = err
			}
		}
	})
	m.Eng.Run()
	require.NoError(t, ioErr)
	require.Equal(t, w1, r1)
	require.Equal(t, w2, r2)
	for i := int64(0); i < 8; i++ {
		require.NotEqual(t, ftl.NoUnit, fw.FTL().Lookup(100+i))
		require.NotEqual(t, ftl.NoUnit, fw.FTL().Lookup(4096+100+i))
	}
	require.Equal(t, firmware.NSStats{Reads: 1, Writes: 1, ReadPages: 8, WritePages: 8}, fw.NamespaceStats(2))
	require.NoError(t, fw.FTL().Check())
}

// TestNamespacesRefused: namespaces that do not fit the logical space, or whose sizes are
// not whole pages, are refused with their field paths.
func TestNamespacesRefused(t *testing.T) {
	_, err := loadWith(t, "tiny", "nvme:\n  namespaces:\n    - size: 1TiB\n", "precondition.fill=0")
	require.ErrorContains(t, err, "nvme.namespaces: the sized namespaces need 268435456 logical pages of 4096 bytes")
	_, err = loadWith(t, "tiny", "nvme:\n  namespaces:\n    - size: 1000\n      lba_size: 1024\n")
	require.ErrorContains(t, err, "nvme.namespaces[0].size: 1000 is not a multiple of 4096 bytes")
	require.ErrorContains(t, err, "nvme.namespaces[0].lba_size: 1024 is not one of the LBA formats 512, 4096")
	_, err = loadWith(t, "tiny", "nvme:\n  namespaces:\n    - type: zonked\n")
	require.ErrorContains(t, err, `namespace type "zonked" is not one of conventional, zoned`)
}
