package blk

// Passthrough requests (NVMe passthrough through io_uring_cmd on the namespace's generic
// character device /dev/ngXnY: drivers/nvme/host/ioctl.c, nvme_uring_cmd_io). The kernel
// allocates a request of op REQ_OP_DRV_OUT (a command with data to the device) carrying
// the user's NVMe command (nvme_alloc_user_request, blk_mq_alloc_request), maps the user
// buffer onto it (blk_rq_map_user_io) and executes it (blk_execute_rq_nowait). Such a
// request differs from a bio's in every rule the block layer keeps for bios:
//
//   - It never passes submit_bio: no zone write plugging (the plugs are bios'), no
//     writeback throttling, no merging and no splitting (a buffer larger than the
//     queue's max_hw_sectors fails to map, EINVAL).
//   - blk_mq_insert_request puts it on the hardware queue's dispatch list, past the I/O
//     scheduler, as a flush (here: the queue's bypass list, with zone resets).
//   - Its tag comes from the queue's requests without the scheduler's async depth limit
//     (blk_mq_alloc_request skips limit_depth for passthrough), as a sync request's.
//   - Its result is the command's completion dword (nvme_req(req)->result), which
//     io_uring_cmd returns to the program (a Zone Append's ALBA, Bio.Result).
//
// The only passthrough command modelled is Zone Append (OpZoneAppend), as fio's
// io_uring_cmd engine sends it (write_mode=zone_append with zonemode=zbd; fio pull
// request #2103): the data goes to the zone's write pointer, chosen by the device, so a
// zone may have several appends in flight at once where a zone's writes go one at a time.

// checkPassthrough panics on a malformed passthrough bio: a model bug in the caller, which
// must check the size against MaxRequestBytes (EINVAL) itself.
func (q *Queue) checkPassthrough(b *Bio) {
	switch {
	case q.zones == nil:
		q.panicf("zone append on a queue without zones")
	case b.Offset < 0 || b.Offset%q.zones.size != 0:
		q.panicf("zone append at %d, not a zone's start (zones of %d bytes)", b.Offset, q.zones.size)
	case b.Size <= 0 || b.Size%512 != 0 || b.Size > q.maxReq || b.Size > q.zones.size:
		q.panicf("zone append of %d bytes: not a positive multiple of 512 within the %d-byte maximum request and the zone", b.Size, q.maxReq)
	case b.parts > 0:
		q.panicf("zone append at %d submitted again before it completed", b.Offset)
	}
}
