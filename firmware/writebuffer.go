package firmware

// writeBuffer is the write-buffer manager's state beside the buffer's bookkeeping
// (package buffer): the slots promised to writes whose data is on its way, the writes
// waiting for room, the flushes waiting for the flash, and the hint's prediction.
type writeBuffer struct {
	reserved    int       // buffer slots promised to writes whose data is in flight
	hold        int       // slots withheld from writes: the buffer's all after a mount until the reserves are back (mount.go)
	roomWaiters int       // writes waiting for buffer room
	roomQ       []*worker // writes waiting for buffer room, longest first
	freeLooks   []*roomLook
	flushers    int       // flushes waiting for the flash
	flushQ      []*worker // flushes waiting for the buffer to empty, longest first
	// The hint's prediction (hint.go): pages of hinted writes received whose slots are not
	// yet reserved, and pages the latest hinted write announced after itself.
	victimOut, announcedAfter int64
}
