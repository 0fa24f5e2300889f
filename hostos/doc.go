// Package hostos is the simulated host operating system: it wires the page cache and
// writeback (pagecache), the block layer (blk) and the NVMe driver (nvmedrv) into one Host
// on top of an NVMe controller, and adapts it to the workloads: the application models
// (apps.OS), uFLIP and fio devices (uflip.Device) on the raw block device or on a file, and
// block-trace replay.
//
// The host reaches the SSD only through the controller's PCIe/NVMe interface: it never
// imports the firmware.
package hostos
