package blk

import (
	"errors"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// mediumErr is a driver error of class StatusMedium.
type mediumErr struct{}

func (mediumErr) Error() string       { return "the device could not read it" }
func (mediumErr) BlockStatus() Status { return StatusMedium }

// TestIOError: a request the driver fails reaches each of its bios as an IOError naming
// the class, the request's operation and first sector (byte 8,192 / 512 = sector 16) and
// the driver's error, which it wraps; its errno is ENODATA (61) for a medium error, EIO (5)
// for a driver error that names no class. The two merged 4 KiB reads are one request of
// 8,192 bytes, so both bios report it.
func TestIOError(t *testing.T) {
	eng, q, dev := newTestQueue(t, DefaultSpec(), fixed(sim.Microsecond))
	dev.err = mediumErr{}
	a := &Bio{Op: OpRead, Offset: 8192, Size: 4096}
	b := &Bio{Op: OpRead, Offset: 12288, Size: 4096}
	eng.At(0, func() { q.Submit(a); q.Submit(b) })
	eng.Run()
	var e *IOError
	require.ErrorAs(t, a.Err, &e)
	require.Same(t, a.Err, b.Err, "one request, one error")
	require.Equal(t, "critical medium error on read of 8192 bytes at sector 16: the device could not read it", e.Error())
	require.Equal(t, 61, e.Errno())
	require.ErrorIs(t, a.Err, mediumErr{})
	plain := newIOError(&Request{Op: OpFlush}, errors.New("broken"))
	require.Equal(t, StatusIOErr, plain.Status)
	require.Equal(t, 5, plain.Errno())
	require.Equal(t, "I/O error on a cache flush: broken", plain.Error())
}
