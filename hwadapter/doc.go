// Package hwadapter binds the firmware's hardware ports (firmware/ports.go) to the simulated
// hardware: the flash channels and their dies (Flash, a firmware.FlashPort with the
// FlashImage and BadBlockScanner capabilities), the controller DRAM (*dram.DRAM is a
// firmware.BufferMemory as it is) and the NVMe controller (Host, a firmware.HostPort: it
// decodes each command the controller hands over into the firmware's hal.HostCmd in the
// command's slot (HostCmds), maps the firmware's calls on it back to the controller's
// command, and forwards the controller's questions for the admin commands to the
// firmware's hal.HostReports).
//
// It is the one place where the firmware's vocabulary meets the hardware's: the firmware
// imports no hardware package (firmware/imports_test.go checks it), and this package
// imports the firmware's port types (firmware/hal) but not the firmware itself, so the
// firmware's own tests can run on real hardware through it without an import cycle. It
// lives outside platforms for the same reason: platforms imports the firmware.
package hwadapter
