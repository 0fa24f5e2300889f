package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// The binary vSCSI format, in which the CloudPhysics traces are published: fixed-size
// little-endian records, one per SCSI command, as dumped by CloudPhysics' collector and read
// by libCacheSim (traceReader/include/vscsi.h, vscsi.c; the C structs with natural
// alignment). Two versions, told apart by the high byte of each record's ver field (1 or 2;
// the first two records must agree, as libCacheSim tests):
//
//	v1, 32 bytes: sn u32 @0, len u32 @4, nSG u32 @8, cmd u16 @12, ver u16 @14, lbn u64 @16, ts u64 @24
//	v2, 40 bytes: cmd u16 @0, ver u16 @2, sn u32 @4, len u32 @8, nSG u32 @12, lbn u64 @16, ts u64 @24, rt u64 @32
//
// len is the transfer in bytes, lbn the first 512-byte block, cmd the SCSI opcode (mapped
// as in the CSV form, parseVSCSI), ts microseconds (libCacheSim divides by 10⁶ for
// seconds). Error positions are record numbers (1-based) in place of line numbers.
const (
	vscsiV1Size = 32
	vscsiV2Size = 40
)

// vscsiVersion returns the binary vSCSI version of head (1 or 2), or 0 if its first two
// records are not both of one version.
func vscsiVersion(head []byte) int {
	// is reports whether records 0 and 1 of size bytes hold version want in their ver
	// field at offset at.
	is := func(want uint16, size, at int) bool {
		if len(head) < size+at+2 {
			return false
		}
		return binary.LittleEndian.Uint16(head[at:])>>8 == want && binary.LittleEndian.Uint16(head[size+at:])>>8 == want
	}
	switch {
	case is(2, vscsiV2Size, 2):
		return 2
	case is(1, vscsiV1Size, 14):
		return 1
	}
	return 0
}

// readRecord reads the next binary vSCSI record into r.cur; ok is false for commands that
// move no user data. It returns io.EOF after the last whole record.
func (r *Reader) readRecord() (ok bool, err error) {
	size := vscsiV1Size
	if r.vscsiVer == 2 {
		size = vscsiV2Size
	}
	b := r.rec[:size]
	n, err := io.ReadFull(r.br, b)
	if err == io.EOF {
		return false, io.EOF
	}
	r.line++
	if err == io.ErrUnexpectedEOF {
		return false, fmt.Errorf("truncated record: %d of its %d bytes", n, size)
	}
	if err != nil {
		return false, err
	}
	var cmd, ver uint16
	var length uint32
	var lbn, ts uint64
	if r.vscsiVer == 2 {
		cmd, ver = binary.LittleEndian.Uint16(b[0:]), binary.LittleEndian.Uint16(b[2:])
		length = binary.LittleEndian.Uint32(b[8:])
	} else {
		cmd, ver = binary.LittleEndian.Uint16(b[12:]), binary.LittleEndian.Uint16(b[14:])
		length = binary.LittleEndian.Uint32(b[4:])
	}
	lbn, ts = binary.LittleEndian.Uint64(b[16:]), binary.LittleEndian.Uint64(b[24:])
	if int(ver>>8) != r.vscsiVer {
		return false, fmt.Errorf("version %d in a version-%d trace", ver>>8, r.vscsiVer)
	}
	r.cur.tsText = strconv.AppendUint(r.cur.tsText[:0], ts, 10)
	if ts > math.MaxInt64 {
		return false, fieldErr("time", r.cur.tsText, errors.New("out of range"))
	}
	r.cur.ts = stamp{whole: int64(ts)}
	op, data, known := scsiOp(uint64(cmd))
	switch {
	case !known:
		return false, fmt.Errorf("op 0x%02x: unknown SCSI opcode", cmd)
	case !data:
		return false, nil
	}
	r.cur.op = op
	if lbn > math.MaxInt64/512 {
		return false, fmt.Errorf("lbn %d: out of range", lbn)
	}
	r.cur.size, r.cur.off = int64(length), int64(lbn)*512
	r.cur.dev, r.cur.flags = 0, 0
	return true, nil
}
