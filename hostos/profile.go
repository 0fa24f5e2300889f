package hostos

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// A host profile is a kernel and its configuration: the behaviours of the host model that
// decide whether page victimization reaches the applications' tail and that differ from one
// Linux host to another (issue 31). host.profile names one; it sets the defaults of the keys
// in its Settings, and any key a preset, variant, file or --set gives explicitly overrides
// it (platforms.Decode applies the profile before every source). docs/fidelity.md, "Host
// profiles", gives the evidence for each value.
//
// What the two profiles leave alike, and why:
//   - Interrupt preemption (host.nvme.irq_preempts) and wake-up placement
//     (host.pagecache.cpu.wake_idle) are on in both: a hardware interrupt preempts the
//     running task and select_task_rq_fair places a waking task on an idle CPU in every
//     Linux the two hosts run (gem5's ARM model delivers interrupts through its GIC to a real
//     kernel), so no kernel setting separates them.
//   - Dirty ratios (host.pagecache.dirty) are the experiment's, not the host's: the paper's
//     low set, 5 % / 3 %, is what its page cache applies by default, and Vanilla, FD-Buf and
//     FD-FTL must share it with FD's low set for the comparison to isolate FD's switching.
//     A distribution's own default, vm.dirty_ratio 20 and dirty_background_ratio 10
//     (mm/page-writeback.c), is one --set away.

// Profile names.
const (
	// ProfilePaper is the FastDrain paper's host: a gem5 full-system ARMv8 Linux under
	// Amber (SimpleSSD 2.0), with the kyber scheduler its Fig. 2a names, no blk-wbt and
	// the write-back queue that Amber's drive asks for.
	ProfilePaper = "paper"
	// ProfileLinux6 is a current Linux 6.x distribution host (Debian 12/13, Ubuntu 24.04,
	// Fedora 40+): blk-wbt on at 2 ms, no I/O scheduler for NVMe, the queue's write cache
	// following the drive's Identify VWC bit.
	ProfileLinux6 = "linux6"
)

// Setting is one key a profile sets: its path under host (as in YAML), why, and how.
type Setting struct {
	Path  string // e.g. "block.wbt_lat"
	Why   string
	apply func(*Spec)
}

// profiles holds each profile's settings, in the order config show and the docs list them.
var profiles = map[string][]Setting{
	ProfilePaper: {
		{"block.wbt_lat", "off: upstream Kconfig gives CONFIG_BLK_WBT no default and the gem5 ARM kernel configs read do not set it; " +
			"the paper's own Vanilla (Fig. 6a's ~35 ms peak) needs it off",
			func(s *Spec) { s.Block.WBTLat = 0 }},
		{"block.scheduler", "kyber: the paper's storage stack (Fig. 2a, its ref. [3])",
			func(s *Spec) { s.Block.Scheduler = blk.SchedKyber }},
		{"block.write_cache", "write back: Amber's NVMe Identify sets VWC from its internal cache layer's EnableWriteCache, 1 in its Intel 750 configuration",
			func(s *Spec) { s.Block.WriteCache = blk.WriteCacheOn }},
		{"nvme.irq_preempts", "on: hardware interrupts preempt the running task in Linux", func(s *Spec) { s.Driver.IRQPreempts = true }},
		{"pagecache.cpu.wake_idle", "on: select_idle_sibling places a waking task on an idle CPU", func(s *Spec) { s.PageCache.CPU.WakeIdle = true }},
	},
	ProfileLinux6: {
		{"block.wbt_lat", "2ms: distribution kernels set CONFIG_BLK_WBT=y and CONFIG_BLK_WBT_MQ=y; wbt_default_latency_nsec is 2 ms for non-rotational devices",
			func(s *Spec) { s.Block.WBTLat = 2 * sim.Millisecond }},
		{"block.scheduler", "none: elevator_get_default() gives a multi-queue device no scheduler, and distributions' udev rules leave NVMe alone",
			func(s *Spec) { s.Block.Scheduler = blk.SchedNone }},
		{"block.write_cache", "auto: nvme_set_queue_limits follows the drive's Identify VWC bit",
			func(s *Spec) { s.Block.WriteCache = blk.WriteCacheAuto }},
		{"nvme.irq_preempts", "on: hardware interrupts preempt the running task in Linux", func(s *Spec) { s.Driver.IRQPreempts = true }},
		{"pagecache.cpu.wake_idle", "on: select_idle_sibling places a waking task on an idle CPU", func(s *Spec) { s.PageCache.CPU.WakeIdle = true }},
	},
}

// Profiles returns the profile names, the paper's first.
func Profiles() []string { return []string{ProfilePaper, ProfileLinux6} }

// ProfileSettings returns the settings of profile name (nil if there is no such profile).
func ProfileSettings(name string) []Setting { return profiles[name] }

// checkProfile reports whether name is a profile, naming the field and the choices if not.
func checkProfile(name string) error {
	if _, ok := profiles[name]; !ok {
		return fmt.Errorf("profile: %q is not one of %s", name, strings.Join(Profiles(), ", "))
	}
	return nil
}

// WithProfile returns s with the profile named name applied: every key the profile sets takes
// the profile's value, and s.Profile names it. An unknown name is an error naming
// host.profile and the choices.
func (s Spec) WithProfile(name string) (Spec, error) {
	if err := checkProfile(name); err != nil {
		return s, fmt.Errorf("host.%w", err)
	}
	for _, st := range profiles[name] {
		st.apply(&s)
	}
	s.Profile = name
	return s, nil
}
