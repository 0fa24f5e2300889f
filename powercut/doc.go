// Package powercut is fastdrain's power-cut durability campaign: it builds a machine
// (platforms), runs a checked host workload on it through the whole stack, cuts the power
// at instants chosen by named schedules (random, during a GC erase, a foreground eviction,
// a flush, a relocated page's program, a program whose interruption destroys a durable
// page on its word line, or where the checker's own lookahead finds that recovery would
// lose a durable version), lets the firmware stop (draining its buffer on
// hold-up power with power-loss protection), applies the dies' side of the cut (what their
// programming scheme had not made final is lost: platforms.Machine.CutFlash), recovers the
// mapping from the flash's out-of-band records, and checks every logical page against what the host was told: no
// durable version lost, no stale or foreign data, no hold-up drain stuck. The firmware's
// tests and the `fastdrain powercut` command use it alike (docs/reliability.md).
package powercut
