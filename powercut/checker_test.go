package powercut

import (
	"errors"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/stretchr/testify/require"
)

// TestCheckerVerdicts works the checker's rules by hand on four logical pages, pages 0 and
// 1 preconditioned (version 1, durable from the start), without power-loss protection:
//   - page 0: version 2 acknowledged (ack 1), then a Flush submitted after it and completed:
//     durable 2. Version 3 acknowledged (ack 2) after that flush: last 3, durable still 2.
//     Recovered 3: fine; 2: a volatile loss; 1: a durable loss; nothing: a durable loss.
//   - page 1: version 4 written with FUA and acknowledged (ack 3): durable 4 at once.
//     Version 5 issued, never acknowledged (in flight at the cut). Recovered 5: fine (an
//     unacknowledged write may survive); 4: fine; 1: a durable loss.
//   - page 2: never written: nothing recovered is fine; any stamp is foreign.
//   - page 3: version 6 acknowledged (ack 4) after the flush's submission: not durable.
//     Recovered nothing: a volatile loss; page 0's stamp, or a version of page 3 never
//     issued above its durable one: foreign.
//
// With protection every acknowledged write is durable: page 0 recovered at 2 is then a
// durable loss, and page 3 recovered empty too.
func TestCheckerVerdicts(t *testing.T) {
	build := func(plp bool) *checker {
		c := newChecker(4, 2, plp)
		c.issue(0, 2, false)
		c.ackCommand()
		c.acked(0, 2)
		up := c.flushSubmitted()
		require.Equal(t, int64(1), up)
		c.issue(0, 3, false)
		c.ackCommand()
		c.acked(0, 3)
		c.flushed(up)
		c.issue(1, 4, true)
		c.ackCommand()
		c.acked(1, 4)
		c.issue(1, 5, false)
		c.issue(3, 6, false)
		c.ackCommand()
		c.acked(3, 6)
		return c
	}
	judge := func(c *checker, lpn int64, got uint64) verdict {
		var v verdict
		c.judge(&v, lpn, got)
		return v
	}
	s := firmware.Stamp
	c := build(false)
	require.Equal(t, verdict{checked: 1}, judge(c, 0, s(0, 3)))
	require.Equal(t, int64(1), judge(c, 0, s(0, 2)).volatile)
	require.Equal(t, int64(1), judge(c, 0, s(0, 1)).durableLoss)
	require.Equal(t, int64(1), judge(c, 0, 0).durableLoss)
	require.Equal(t, verdict{checked: 1}, judge(c, 1, s(1, 5)))
	require.Equal(t, verdict{checked: 1}, judge(c, 1, s(1, 4)))
	require.Equal(t, int64(1), judge(c, 1, s(1, 1)).durableLoss)
	require.Equal(t, verdict{checked: 1}, judge(c, 2, 0))
	require.Equal(t, int64(1), judge(c, 2, s(2, 7)).foreign)
	require.Equal(t, int64(1), judge(c, 3, 0).volatile)
	require.Equal(t, int64(1), judge(c, 3, s(0, 3)).foreign)
	require.Equal(t, int64(1), judge(c, 3, s(3, 9)).foreign)
	require.Contains(t, judge(c, 0, s(0, 1)).first, "logical page 0 reads version 1 after recovery; version 2 was durable (last acknowledged 3)")

	p := build(true)
	require.Equal(t, int64(1), judge(p, 0, s(0, 2)).durableLoss)
	require.Equal(t, int64(1), judge(p, 3, 0).durableLoss)
	require.Equal(t, verdict{checked: 1}, judge(p, 3, s(3, 6)))
}

// TestCheckerReads: a read during the run must return the last acknowledged version (the
// preconditioned one, or 0 for a page never written); anything else is a stale read, named.
func TestCheckerReads(t *testing.T) {
	c := newChecker(3, 1, false)
	c.read(0, firmware.Stamp(0, 1))
	c.read(1, 0)
	require.Zero(t, c.stale)
	c.issue(1, 2, false)
	c.read(1, 0) // the write is in flight: its page still reads as before
	require.Zero(t, c.stale)
	c.ackCommand()
	c.acked(1, 2)
	c.read(1, 0)
	require.Equal(t, int64(1), c.stale)
	require.Equal(t, "a read of logical page 1 returned 0x0, the last acknowledged write was 0x100000002", c.first)
}

// TestCheckerLookahead: wouldLose is true exactly when the recovered map leaves some page
// older than its durable version: page 0's durable version 1 at unit 7 read back, nothing
// for page 1 (never written), is no loss; page 0 mapped to nothing is one.
func TestCheckerLookahead(t *testing.T) {
	c := newChecker(2, 1, false)
	read := func(u ftl.Unit) uint64 {
		if u == 7 {
			return firmware.Stamp(0, 1)
		}
		return 0
	}
	require.False(t, c.wouldLose([]ftl.Unit{7, ftl.NoUnit}, read))
	require.True(t, c.wouldLose([]ftl.Unit{ftl.NoUnit, ftl.NoUnit}, read))
}

// TestCheckerFailedWrites: a write the device failed (read-only mode) may be read back
// (version 3 of page 0 after version 2 was acknowledged), and so may the version before
// it; a version never issued there may not; once a later write is acknowledged, the failed
// version is stale like any older one.
func TestCheckerFailedWrites(t *testing.T) {
	c := newChecker(2, 0, false)
	c.issue(0, 2, false)
	c.ackCommand()
	c.acked(0, 2)
	c.issue(0, 3, false)
	c.failedWrite(0, 3)
	c.read(0, firmware.Stamp(0, 3))
	c.read(0, firmware.Stamp(0, 2))
	require.Zero(t, c.stale)
	c.read(0, firmware.Stamp(0, 4))
	require.Equal(t, int64(1), c.stale)
	c.issue(0, 5, false)
	c.ackCommand()
	c.acked(0, 5)
	c.read(0, firmware.Stamp(0, 3))
	require.Equal(t, int64(2), c.stale)
}

// TestCheckerUnreadable: a read of pages 0–2 that fails with an unrecovered read error is
// a stale read for each page that had an acknowledged version: page 0 (preconditioned,
// version 1) and page 1 (version 2 acknowledged), not page 2 (never written: nothing was
// promised). durableVersion gives each page's last durable version: 1, 0 without a Flush
// for page 1's version 2 on a drive without protection, then 2 once a Flush covers it.
func TestCheckerUnreadable(t *testing.T) {
	c := newChecker(3, 1, false)
	c.issue(1, 2, false)
	c.ackCommand()
	c.acked(1, 2)
	require.Equal(t, uint64(1), c.durableVersion(0))
	require.Equal(t, uint64(0), c.durableVersion(1))
	c.flushed(c.flushSubmitted())
	require.Equal(t, uint64(2), c.durableVersion(1))
	c.unreadable(0, 3, errors.New("critical medium error"))
	require.Equal(t, int64(2), c.stale)
	require.Equal(t, "a read of logical page 0 failed (critical medium error); the last acknowledged write was 0x1", c.first)
}
