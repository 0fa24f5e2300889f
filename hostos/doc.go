// Package hostos is the simulated host operating system: it wires the page cache and
// writeback (pagecache), the block layer (blk) and the NVMe driver (nvmedrv) into one Host
// on top of an NVMe controller, and adapts it to the workloads: the application models
// (apps.OS), uFLIP and fio devices (uflip.Device) on the raw block device or on a file, and
// block-trace replay.
//
// Spec.Profile names the host kernel profile (profile.go): the paper's gem5/Amber host or a
// Linux 6.x distribution host, the settings (blk-wbt, I/O scheduler, write-cache handling,
// interrupt preemption, wake-up placement) that decide how page victimization reaches the
// applications; keys given explicitly override the profile's.
//
// The host reaches the SSD only through the controller's PCIe/NVMe interface: it never
// imports the firmware.
package hostos
