package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
	"github.com/fastdrain-sim/fastdrain/platforms"
)

// Limits of the machines FuzzRunConfig builds: a configuration the loader accepts is built
// only when it is no bigger than these, so one fuzz input cannot take seconds or gigabytes
// (a larger machine is still loaded and validated).
const (
	fuzzMaxFlash  = 256 << 20 // raw flash bytes (tiny has 64 MiB)
	fuzzMaxHost   = 1 << 30   // host memory (tiny has 256 MiB)
	fuzzMaxBuffer = 1 << 16   // write-buffer pages (tiny has 256)
)

// FuzzRunConfig fuzzes a whole run's configuration as the CLI loads it (cliflags.Config.Load:
// the tiny preset, the fd variant, a --config file and two --set overrides). Loading must
// never panic; a rejected configuration must be reported under the file's path, a --set's
// text or a field path; an accepted one must validate, survive the resolved-YAML round trip
// of "config show", and, when small enough, build into a machine (or be refused with an
// error) without a panic.
func FuzzRunConfig(f *testing.F) {
	for _, p := range platforms.Presets() {
		b, err := platforms.PresetYAML("presets", p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "", "")
	}
	for _, s := range []struct{ file, a, b string }{
		{"flash: {channels: 1, ways: 1}\n", "firmware.buffer.pages=64", ""},
		{"firmware:\n  buffer: {policy: oracle}\n", "precondition.fill=0.9", "seed=7"},
		{"firmware:\n  ftl: {allocator: skip-to-lsb, gc_threshold: 2}\n", "flash.die.pages_per_block=3", ""},
		{"host:\n  pagecache: {memory: 64MiB}\n", "host.pagecache.dirty.ratio=50", "nvme.lba_size=512"},
		{"flash:\n  die: {cell: slc, planes: 1}\n", "pcie.lanes=1", "dram.capacity=2MiB"},
		{"precondition: {fill: 1, overwrite: 2, random: true}\n", "firmware.workers=1", ""},
		{"flash: {channels: 0}\n", "nope=1", "flash.channels=x"},
		{"a: [\n", "", ""},
		{"---\n---\n", "flash..ways=1", ""},
		// The fault model (docs/reliability.md): a scripted fault, rates, factory bad blocks
		// and the read-error model.
		{"flash:\n  die:\n    faults:\n      scripted:\n        - {die: \"ssd.ch[0].die[0]\", op: program, block: 3, page: 5, after: 1ms}\n",
			"flash.die.faults.factory_bad=30", "flash.die.faults.program_fail=0.01"},
		{"flash:\n  die:\n    faults:\n      read: {rber: 0.001, ecc_bits: 40, codeword: 1024, retry_gain: 0.5, max_retries: 4}\n",
			"flash.die.faults.read.retention=0.1", "flash.die.faults.pe_exponent=2"},
		// The pSLC mode and independent plane reads (die/slc.go, die/planes.go).
		{"flash:\n  die:\n    slc: {t_read: 30us, t_prog: 200us, endurance: 20}\n    independent_plane_reads: true\n",
			"flash.die.pages_per_block=96", "flash.die.slc.endurance=2000"},
		{"flash:\n  die:\n    slc: {t_read: 30us, t_prog: 200us}\n    independent_plane_reads: true\n", "flash.die.pages_per_block=96", ""},
		// The FTL's SLC cache (firmware/ftl/slccache.go): a valid one and a refused one.
		{"flash:\n  die:\n    slc: {t_read: 30us, t_prog: 200us}\nfirmware:\n  ftl:\n    slc_cache: {static: 0.01, dynamic: 0.05, idle: 5ms}\n",
			"flash.die.pages_per_block=96", "firmware.ftl.slc_cache.full_at=0.5"},
		{"firmware:\n  ftl:\n    slc_cache: {static: 0.01}\n", "firmware.ftl.slc_cache.dynamic=-1", ""},
		// The fold's share and cache program (firmware/foldshare.go, channel/cacheprog.go).
		{"flash:\n  die:\n    cache_program: true\nfirmware:\n  scheduler:\n    fold_share: 0.25\n",
			"firmware.scheduler.fold_share=1", "firmware.scheduler.read_first=false"},
	} {
		f.Add([]byte(s.file), s.a, s.b)
	}
	f.Fuzz(func(t *testing.T, file []byte, a, b string) {
		path := filepath.Join(t.TempDir(), "platform.yaml")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		cf := &cliflags.Config{Preset: "tiny", Variant: "fd", Files: []string{path}}
		for _, s := range []string{a, b} {
			if s != "" {
				cf.Sets = append(cf.Sets, s)
			}
		}
		c, err := cf.Load()
		if err != nil {
			msg := err.Error()
			// Decode errors name their source; Validate's name the field path, which always
			// holds a dot or a section name such as "flash:".
			if !strings.Contains(msg, path) && !strings.Contains(msg, "--set") && !strings.ContainsAny(msg, ".:") {
				t.Fatalf("error names neither the file, the --set nor a field: %v", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Load accepted a configuration Validate rejects: %v", err)
		}
		out, err := c.Resolved()
		if err != nil {
			t.Fatal(err)
		}
		back, err := platforms.Decode(platforms.Source{Name: "resolved", Data: out})
		if err != nil {
			t.Fatalf("the resolved configuration does not decode: %v\n%s", err, out)
		}
		if again, err := back.Resolved(); err != nil || string(again) != string(out) {
			t.Fatalf("the resolved configuration does not round-trip (%v)", err)
		}
		if c.Flash.Bytes() > fuzzMaxFlash || c.Host.PageCache.Memory > fuzzMaxHost || c.Firmware.Buffer.Pages > fuzzMaxBuffer {
			return
		}
		// Some limits are known only once the machine exists (a precondition that needs more
		// pages than GC leaves): Build may refuse, with an error, but must not panic.
		if m, err := platforms.Build(c); err == nil {
			m.Eng.Close()
		} else if err.Error() == "" {
			t.Fatal("Build failed with an empty error")
		}
	})
}
