// Package trace reads real block I/O traces into a stream of timed requests for replay.
//
// It sits at the very top of the host data flow: a trace replayer (hostos/apps, later)
// pulls Requests from a Reader and submits each one at its Time through the block layer or
// straight to the NVMe driver. This package only parses and normalises; it never schedules
// events, so it has no dependency on the engine beyond sim.Time.
//
// Six text formats are understood (see Format): DiskSim ASCII as read by MQSim, the
// Heimdall/replayer ASCII, the MSR Cambridge CSV, UMass/SPC, Linux blkparse text and the
// CloudPhysics vSCSI CSV. The format is detected from the first lines unless
// Options.Format names it. Every request is normalised the same way, in this order:
//
//  1. the timestamp is converted exactly to picoseconds and made relative to the first
//     request of the trace, then multiplied by Options.TimeScale (a rational, no floats);
//  2. a byte range that is not a multiple of Options.SectorSize is rounded outward to
//     sector boundaries, rejected, or kept (Options.Unaligned);
//  3. the trace device is kept as Request.Device or folded into one namespace at a
//     per-device byte offset (Options.Devices);
//  4. an address past Options.Capacity is wrapped or rejected (Options.PastCapacity).
//
// Malformed input (a bad number, a wrong column count, a negative size, an unknown op, a
// timestamp earlier than the previous request's) is an error of type *LineError naming the
// file and line. In lenient mode (Options.Lenient) such a line is skipped, counted in
// Stats.Skipped and described in a bounded list of warnings instead.
//
// Reading streams: a Reader parses each line in place from a reused buffer and does not
// allocate per line, so a trace of millions of lines is never materialised unless the
// caller uses ReadAll.
package trace
