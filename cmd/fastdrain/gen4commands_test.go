package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/sampletraces"
	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/stretchr/testify/require"
)

// TestGen4PresetsEveryCommand (issue 34, "Done when"): both current-drive presets run every
// command — run, fio, replay, uflip, flashbench, sweep — with the integrity checks on: the
// FTL's invariants after every GC erase (firmware.verify), the data version of every page
// the firmware reads from flash (always on), and, for fio, every block written read back
// and checked (verify=crc32c). Small scale (and smaller in -short); a failed check panics or
// fails the command, so success is the assertion, with each command's own output line.
// gen4-qlc's outputs carry the SLC cache's statistics.
func TestGen4PresetsEveryCommand(t *testing.T) {
	dur, ops, reqs, size := "30ms", "1000", "200", "8M" // about 5 s of CPU for the twelve
	if testtier.Long() {
		dur, ops, reqs, size = "300ms", "20000", "2000", "64M"
	}
	dir := t.TempDir()
	job := filepath.Join(dir, "verify.fio")
	require.NoError(t, os.WriteFile(job, []byte(`# random 16 KiB writes, every block read back and checked
[randwrite-verify]
rw=randwrite
bs=16k
direct=1
iodepth=16
size=`+size+`
verify=crc32c
`), 0o644))
	tr := sampletraces.Path(t, sampletraces.TPCC)
	verify := []string{"--set", "firmware.verify=true"}
	for _, preset := range []string{"gen4-tlc", "gen4-qlc"} {
		t.Run(preset, func(t *testing.T) {
			p := []string{"--preset", preset}
			cases := []struct {
				name string
				args []string
				want string
			}{
				{"run", []string{"run", "--variant", "vanilla", "--scenario", "db-s+ungzip", "--duration", dur, "--out", ""}, "db-s"},
				// A 1 MiB buffer (256 pages): the read-back comes from flash, not the buffer.
				{"fio", []string{"fio", job, "--out", "", "--set", "firmware.buffer.pages=256"}, "randwrite-verify"},
				{"replay", []string{"replay", tr, "--max", reqs, "--out", ""}, "replay"},
				{"uflip", []string{"uflip", "--bench", "granularity", "--io-divisor", "64", "--nbrun", "1", "--format-device", "none", "--out", ""}, "granularity"},
				{"flashbench", []string{"flashbench", "--ops", ops, "--qd", "16", "--out", ""}, "flashbench"},
				{"sweep", []string{"sweep", "--kind", "run", "--variant", "vanilla", "--scenario", "db-s+ungzip", "--duration", dur,
					"--axis", "firmware.workers=8,16", "--out", ""}, "2 grid points"},
			}
			for _, c := range cases {
				args := append(append(c.args, p...), verify...)
				if c.name == "flashbench" {
					args = append(c.args, p...) // the bare array: no firmware to verify
				}
				out, err := run(args...)
				require.NoError(t, err, "%s %s:\n%s", preset, c.name, out)
				require.Contains(t, out, c.want, "%s %s", preset, c.name)
				if preset == "gen4-qlc" && (c.name == "run" || c.name == "fio" || c.name == "replay") {
					require.Contains(t, out, "SLC cache", "%s %s: the SLC cache's statistics", preset, c.name)
				}
				if preset == "gen4-qlc" && c.name == "fio" {
					m := regexp.MustCompile(`SLC cache: read hits / time direct to native │\s+([0-9]+) /`).FindStringSubmatch(out)
					require.NotNil(t, m, out)
					require.NotEqual(t, "0", m[1], "fio's verify reads checked data read from SLC blocks")
				}
			}
		})
	}
}
