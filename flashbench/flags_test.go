package flashbench

import (
	"strings"
	"testing"
)

// given returns a changed function for the named flags.
func given(flags ...string) func(string) bool {
	return func(f string) bool {
		for _, g := range flags {
			if g == f {
				return true
			}
		}
		return false
	}
}

// TestParseConfigDefaults: the default flags give DefaultConfig's array, with one die per
// package so the channel's Dies are --ways × --dies = DefaultConfig's ways.
func TestParseConfigDefaults(t *testing.T) {
	c, err := ParseConfig(DefaultFlags(), given())
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultConfig()
	if c.Channels != d.Channels || c.Channel.Dies != d.Channel.Dies || c.QueueDepth != d.QueueDepth ||
		c.Ops != d.Ops || c.ReadWeight != 70 || c.ProgramWeight != 30 || c.EraseWeight != 0 {
		t.Fatalf("got %+v, want DefaultConfig's array and mix 70/30/0", c)
	}
}

// TestParseConfigPreset: with --preset tiny the array is tiny.yaml's (2 channels × 2 ways ×
// 1 die, 2 planes of 32 blocks of 64 pages); only flags given explicitly change it, so
// --channels 4 and --dies 2 give 4 channels of 2 × 2 = 4 dies, and the default --planes
// (DefaultConfig's) is not applied.
func TestParseConfigPreset(t *testing.T) {
	fl := DefaultFlags()
	fl.Preset, fl.Channels, fl.Dies = "tiny", 4, 2
	c, err := ParseConfig(fl, given("channels", "dies"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Channels != 4 || c.Channel.Dies != 4 || c.Channel.Die.Planes != 2 ||
		c.Channel.Die.BlocksPerPlane != 32 || c.Channel.Die.PagesPerBlock != 64 {
		t.Fatalf("got %d channels × %d dies, %d planes × %d blocks × %d pages; want 4 × 4, 2 × 32 × 64",
			c.Channels, c.Channel.Dies, c.Channel.Die.Planes, c.Channel.Die.BlocksPerPlane, c.Channel.Die.PagesPerBlock)
	}
}

// TestParseConfigErrors: every bad flag is named with what is wrong, all at once.
func TestParseConfigErrors(t *testing.T) {
	fl := DefaultFlags()
	fl.Ways, fl.Flash, fl.Mix, fl.Policy, fl.QueueDepth, fl.SLCTimes = 0, "plc", "1/2", "lifo", 0, "25us"
	fl.ONFI = "ddr9"
	_, err := ParseConfig(fl, given("slc-times"))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"--ways 0 and --dies 1 must be positive", "--flash:", "--mix: \"1/2\"",
		"--policy:", "--qd: qd: 0 is not in 1", "--slc-times: \"25us\": want tR/tPROG", "--onfi:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

// TestParseConfigScheme: --scheme two-pass on TLC borrows QLC's fine-pass time; page
// drops any fine pass.
func TestParseConfigScheme(t *testing.T) {
	fl := DefaultFlags()
	fl.Scheme = "two-pass"
	c, err := ParseConfig(fl, given("scheme"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Channel.Die.TProgFine == 0 || c.Channel.Die.OneShot {
		t.Fatalf("two-pass: TProgFine %v, OneShot %v; want a fine pass, not one-shot", c.Channel.Die.TProgFine, c.Channel.Die.OneShot)
	}
}

// FuzzParseConfig: any strings in the string-valued flags give a configuration or an error
// naming a flag — never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add("tlc", "two-pass", "nv-ddr3", "read-first", "70/30/0", "25us/300us", 4)
	f.Add("qlc", "page", "toggle", "fifo", "1/1/1", "1ms/1ms", 0)
	f.Add("", "", "", "", "//", "/", -1)
	f.Fuzz(func(t *testing.T, flash, scheme, iface, policy, mix, slcTimes string, rate int) {
		fl := DefaultFlags()
		fl.Flash, fl.Scheme, fl.ONFI, fl.Policy, fl.Mix, fl.SLCTimes, fl.ONFIRate = flash, scheme, iface, policy, mix, slcTimes, rate
		fl.Ops = 10
		_, err := ParseConfig(fl, given("scheme", "slc-times", "onfi-rate"))
		if err != nil && !strings.Contains(err.Error(), "--") {
			t.Fatalf("error names no flag: %v", err)
		}
	})
}
