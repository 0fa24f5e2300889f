package platforms

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestEveryPresetAndVariantLoads(t *testing.T) {
	for _, p := range Presets() {
		for _, v := range append([]string{""}, Variants()...) {
			c, err := Load(Options{Preset: p, Variant: v})
			require.NoError(t, err, "%s/%s", p, v)
			require.Equal(t, p, c.Name)
		}
	}
}

func TestPresetValues(t *testing.T) {
	c, err := Load(Options{Preset: "fastdrain-tlc", Variant: "fd"})
	require.NoError(t, err)
	// The paper's platform (see presets/fastdrain-tlc.yaml for sources).
	require.Equal(t, 3, c.PCIe.Gen)
	require.Equal(t, 4, c.PCIe.Lanes)
	require.Equal(t, 512*sim.MiB, c.DRAM.Capacity)
	require.Equal(t, 4*sim.GiB, sim.Size(c.Host.PageCache.Memory))
	require.Equal(t, 558*sim.Microsecond, c.Flash.Die.TProg.LSB)
	require.Equal(t, 5001*sim.Microsecond, c.Flash.Die.TProg.MSB)
	require.Equal(t, 480, c.Flash.Dies())
	require.Equal(t, firmware.FastDrain, c.Firmware.Buffer.Policy)
	require.Equal(t, "latency-aware", c.Firmware.FTL.Allocator)
	require.True(t, c.Host.PageCache.FastDrain.Adaptive)
	// The buffer is the paper's 512 MiB of 4 KiB pages.
	require.Equal(t, 131072, c.Firmware.Buffer.Pages)
}

func TestSetOverrides(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Sets: []string{"flash.channels=4", "firmware.core_freq=800MHz", "flash.die.t_read.lsb=40us", "pcie.ecrc=true"}})
	require.NoError(t, err)
	require.Equal(t, 4, c.Flash.Channels)
	require.Equal(t, 800*sim.MHz, c.Firmware.CoreFreq)
	require.Equal(t, 40*sim.Microsecond, c.Flash.Die.TRead.LSB)
	require.True(t, c.PCIe.ECRC)

	_, err = Load(Options{Preset: "tiny", Sets: []string{"flash.chanels=4"}})
	require.ErrorContains(t, err, "--set flash.chanels=4")
	require.ErrorContains(t, err, "chanels")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"firmware.core_freq=fast"}})
	require.ErrorContains(t, err, "frequency")
	_, err = Load(Options{Preset: "tiny", Sets: []string{"no-equals-sign"}})
	require.ErrorContains(t, err, "want path.to.key=value")
	_, err = Load(Options{Preset: "nope"})
	require.ErrorContains(t, err, "no preset named \"nope\"")
}

// TestBadConfigs: each kind of bad configuration gets its own message naming the field.
func TestBadConfigs(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"unknown key", "flash:\n  channls: 2\n", "line 2: unknown key flash.channls (did you mean flash.channels?)"},
		{"wrong unit", "flash:\n  die:\n    t_erase: 5 parsecs\n", "line 3: time \"5 parsecs\""},
		{"zero channels", "flash:\n  channels: 0\n", "flash.channels: 0 is not in 1 … 256"},
		{"page not sector multiple", "flash:\n  die:\n    page_size: 1000\nfirmware:\n  page_size: 1000\n", "flash: die.page_size: 1000 is not a positive multiple of the 512-byte sector"},
		{"watermarks reversed", "firmware:\n  buffer:\n    watermarks: {low: 0.9, high: 0.5}\n", "watermarks"},
		{"buffer larger than DRAM", "firmware:\n  buffer:\n    pages: 100000\n", "do not fit in dram.capacity"},
		// 2⁶⁰ pages × 4096 B overflows int64; tiny's 64 MiB DRAM holds 16,384 pages.
		{"buffer overflowing bytes", "firmware:\n  buffer:\n    pages: 1152921504606846976\n",
			"firmware.buffer.pages: 1152921504606846976 pages of 4096 bytes do not fit in dram.capacity 64MiB (16384 pages)"},
		{"bad policy", "firmware:\n  buffer:\n    policy: lifo\n", "buffer policy \"lifo\""},
		{"bad size", "dram:\n  capacity: lots\n", "size \"lots\""},
		{"two documents", "seed: 1\n---\nseed: 2\n", "more than one YAML document"},
		{"bad fill", "precondition:\n  fill: 2\n", "precondition.fill"},
		// tiny: 2 channels × 2 dies a channel, 2 planes × 32 blocks × 64 pages.
		{"fault on a missing die", "flash:\n  die:\n    faults:\n      scripted:\n        - {die: \"ssd.ch[2].die[0]\", op: program}\n",
			`flash.die.faults.scripted[0].die: "ssd.ch[2].die[0]" is not in the array (channels 0 … 1, dies 0 … 1 a channel)`},
		{"fault die misnamed", "flash:\n  die:\n    faults:\n      scripted:\n        - {die: \"die0\", op: erase}\n",
			`flash.die.faults.scripted[0].die: "die0" is not a die name of the form ssd.ch[C].die[D]`},
		{"fault rate", "flash:\n  die:\n    faults:\n      program_fail: 2\n", "flash: die.faults.program_fail: 2 is not a probability in 0 … 1"},
		{"fault page", "flash:\n  die:\n    faults:\n      scripted:\n        - {die: \"ssd.ch[0].die[0]\", op: program, page: 64}\n",
			"flash: die.faults.scripted[0].page: 64 is not in 0 … 63"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".yaml")
			require.NoError(t, os.WriteFile(f, []byte(c.yaml), 0o644))
			_, err := Load(Options{Preset: "tiny", Files: []string{f}})
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func TestResolvedIsSortedAndRoundTrips(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Variant: "fd-ftl"})
	require.NoError(t, err)
	out, err := c.Resolved()
	require.NoError(t, err)
	s := string(out)
	// Top-level keys in sorted order.
	idx := func(k string) int { return strings.Index(s, "\n"+k+":") }
	require.Less(t, strings.Index(s, "description:"), idx("dram"))
	require.Less(t, idx("dram"), idx("firmware"))
	require.Less(t, idx("firmware"), idx("flash"))
	require.Less(t, idx("flash"), idx("host"))
	// Decoding the resolved text gives the same configuration.
	back, err := Decode(Source{"resolved", out})
	require.NoError(t, err)
	require.Equal(t, c, back)
}

func FuzzDecode(f *testing.F) {
	for _, p := range Presets() {
		b, _ := PresetYAML("presets", p)
		f.Add(b)
	}
	f.Add([]byte("flash: {channels: -1}"))
	f.Add([]byte("firmware: {buffer: {background_set: [idle-dies]}}\n"))
	f.Add([]byte("firmware:\n  core_freq: 1e9Hz\n"))
	f.Add([]byte("flash: ~\nfirmware: {buffer: {pages: 3.7}}\n"))
	f.Add([]byte("flash:\n  die:\n    faults:\n      scripted:\n        - {die: x, block: 1.5}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Decode(Source{"fuzz", b})
		if err != nil {
			return
		}
		_ = c.Validate() // must not panic
	})
}

// TestBackgroundSetKey: firmware.buffer.background_set takes its three rules by name from a
// --set, and a bad one is an error naming the --set and the field with the names it takes.
func TestBackgroundSetKey(t *testing.T) {
	c, err := Load(Options{Preset: "fastdrain-tlc", Sets: []string{"firmware.buffer.background_set=per-eviction"}})
	require.NoError(t, err)
	require.Equal(t, firmware.BackgroundSetPerEviction, c.Firmware.Buffer.BackgroundSet)
	_, err = Load(Options{Preset: "fastdrain-tlc", Sets: []string{"firmware.buffer.background_set=per-round"}})
	require.ErrorContains(t, err, "--set firmware.buffer.background_set=per-round")
	require.ErrorContains(t, err, `firmware.buffer.background_set: "per-round" is not one of idle-dies, share, per-eviction`)
}
