package platforms

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValidatedConfigsBuild (issue 22, item 10): a configuration validation accepts must
// build: no model may refuse at build what config validate said ok to. Each override below
// (edge values of the settings models check at build, and the --set pairs of FuzzSet's
// corpus) is applied to the tiny preset; when Load accepts it, Build must too.
func TestValidatedConfigsBuild(t *testing.T) {
	cases := [][]string{
		{"firmware.ftl.lsb_only_blocks=1000"}, {"firmware.buffer.policy=oracle"}, {"firmware.buffer.policy=oracle-bg"},
		{"firmware.workers=1"}, {"firmware.cores=64"}, {"firmware.buffer.pages=1"}, {"dram.capacity=4KiB"},
		{"nvme.max_commands=1"}, {"nvme.read_tags=0"}, {"nvme.lba_size=512"}, {"nvme.max_io_queues=1"}, {"nvme.vectors=2"},
		{"nvme.max_queue_entries=2"}, {"nvme.max_transfer=4096"}, {"host.nvme.max_transfer=4KiB"},
		{"host.pagecache.memory=4KiB"}, {"host.pagecache.cpu.cores=64"},
		{"flash.die.planes=64"}, {"flash.die.pages_per_block=1"}, {"flash.die.blocks_per_plane=5"},
		{"firmware.ftl.gc_threshold=4", "flash.die.blocks_per_plane=5"}, {"flash.channels=256", "flash.ways=64"},
		{"precondition.fill=1"}, {"precondition.fill=1", "precondition.overwrite=1"},
		{"flash.die.cell=slc"}, {"flash.die.cell=mlc"}, {"flash.die.one_shot=true"},
		{"host.nvme.queues=16", "host.nvme.queue_depth=2048"}, {"host.nvme.queues=100"},
		// Factory bad blocks (tiny: 32 blocks a plane, gc_threshold 3): at most 28 a die.
		{"flash.die.faults.factory_bad=28"}, {"flash.die.faults.factory_bad=29"},
		{"flash.die.faults.factory_bad=2", "precondition.fill=1"}, {"flash.die.faults.factory_bad=2", "precondition.fill=0.9"},
		{"flash.die.faults.factory_bad=8", "precondition.fill=0.5", "firmware.ftl.allocator=sequential"},
	}
	files, err := filepath.Glob("testdata/fuzz/FuzzSet/*")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var sets []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(l, "string("), ")")); err == nil && s != "" {
				sets = append(sets, s)
			}
		}
		cases = append(cases, sets)
	}
	built := 0
	for _, sets := range cases {
		c, err := Load(Options{Preset: "tiny", Sets: sets})
		if err != nil {
			continue
		}
		m, err := Build(c)
		require.NoError(t, err, "%q validated but did not build", sets)
		m.Eng.Close()
		built++
	}
	require.Positive(t, built)
}
