// Package flashbench drives a bare flash array — channels of ONFI buses with their dies —
// with a synthetic closed-loop stream of page reads, programs and erases at a fixed queue
// depth, and reports achieved bandwidth, IOPS, operation latency and how busy every channel
// and die was, by activity.
//
// It is the first "evaluate channel/die configurations" tool: no host, no firmware, just
// the hardware models (channel, die, onfi) on the simulation kernel, so a user can see what
// a geometry, a flash type or an ONFI mode can deliver before putting an FTL on top.
package flashbench
