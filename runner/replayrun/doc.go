// Package replayrun replays a block trace on a simulated machine (runner.Machine) and
// shapes what it measured: the Summary that replay.json holds, the per-operation and
// per-device tables (text and CSV), the SSD's statistics and the warnings about the
// trace (docs/replay.md).
package replayrun
