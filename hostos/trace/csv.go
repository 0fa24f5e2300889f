package trace

import "fmt"

// parseMSR reads one line of the MSR Cambridge CSV (SNIA IOTTA "MSR Cambridge Traces"
// field list): Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime, with the
// timestamp in Windows filetime ticks (100 ns), Type "Read" or "Write", offset and size
// in bytes. The hostname and response time are not used (the response time must still be a
// number).
func (r *Reader) parseMSR(line []byte) (bool, error) {
	r.fs.splitComma(line)
	if r.isPreamble() {
		return false, nil
	}
	if r.fs.n != 7 {
		return false, fmt.Errorf("%d columns, want 7 (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)", r.fs.n)
	}
	if err := r.timeField(0); err != nil {
		return false, err
	}
	if err := r.deviceField(2, "disk"); err != nil {
		return false, err
	}
	switch t := r.fs.get(3); {
	case equalFold(t, "read"):
		r.cur.op = Read
	case equalFold(t, "write"):
		r.cur.op = Write
	default:
		return false, fmt.Errorf("type %q: unknown op (want Read or Write)", t)
	}
	var err error
	if r.cur.off, err = r.uintField(4, "offset"); err != nil {
		return false, err
	}
	if r.cur.size, err = r.uintField(5, "size"); err != nil {
		return false, err
	}
	if _, err = r.uintField(6, "response time"); err != nil {
		return false, err
	}
	r.cur.flags = 0
	return true, nil
}

// parseSPC reads one line of the UMass/SPC trace format (SPC "Trace File Format
// Specification" as used by the UMass Trace Repository): ASU,LBA,Size,Opcode,Timestamp,
// then optional fields that are ignored. LBA is in 512 B sectors, Size in bytes, Opcode
// r/R or w/W, Timestamp in seconds with decimals. The ASU becomes the device.
func (r *Reader) parseSPC(line []byte) (bool, error) {
	r.fs.splitComma(line)
	if r.isPreamble() {
		return false, nil
	}
	if r.fs.n < 5 {
		return false, fmt.Errorf("%d columns, want at least 5 (ASU,LBA,Size,Opcode,Timestamp)", r.fs.n)
	}
	if err := r.deviceField(0, "asu"); err != nil {
		return false, err
	}
	lba, err := r.uintField(1, "lba")
	if err != nil {
		return false, err
	}
	if r.cur.off, err = mulSize(lba, 512); err != nil {
		return false, fieldErr("lba", r.fs.get(1), err)
	}
	if r.cur.size, err = r.uintField(2, "size"); err != nil {
		return false, err
	}
	switch op := r.fs.get(3); {
	case len(op) == 1 && lower(op[0]) == 'r':
		r.cur.op = Read
	case len(op) == 1 && lower(op[0]) == 'w':
		r.cur.op = Write
	default:
		return false, fmt.Errorf("opcode %q: unknown op (want r or w)", op)
	}
	r.cur.flags = 0
	return true, r.timeField(4)
}

// SCSI operation codes (SCSI Primary/Block Commands, T10 SBC-3 §5) that the vSCSI trace
// may record.
const (
	scsiRead6     = 0x08
	scsiRead10    = 0x28
	scsiRead12    = 0xa8
	scsiRead16    = 0x88
	scsiWrite6    = 0x0a
	scsiWrite10   = 0x2a
	scsiWrite12   = 0xaa
	scsiWrite16   = 0x8a
	scsiUnmap     = 0x42
	scsiSync10    = 0x35
	scsiSync16    = 0x91
	scsiTestReady = 0x00
	scsiReqSense  = 0x03
	scsiInquiry   = 0x12
	scsiModeSns6  = 0x1a
	scsiReadCap10 = 0x25
	scsiLogSense  = 0x4d
	scsiModeSns10 = 0x5a
	scsiReadCap16 = 0x9e
	scsiRepLuns   = 0xa0
)

// scsiOp maps a SCSI opcode to its request: reads, writes, UNMAP (trim) and SYNCHRONIZE
// CACHE (flush) are requests (data); commands that move no user data (TEST UNIT READY,
// INQUIRY, READ CAPACITY, MODE/LOG SENSE, REQUEST SENSE, REPORT LUNS) are known but not
// requests; anything else is unknown.
func scsiOp(code uint64) (op Op, data, known bool) {
	switch code {
	case scsiRead6, scsiRead10, scsiRead12, scsiRead16:
		return Read, true, true
	case scsiWrite6, scsiWrite10, scsiWrite12, scsiWrite16:
		return Write, true, true
	case scsiUnmap:
		return Trim, true, true
	case scsiSync10, scsiSync16:
		return Flush, true, true
	case scsiTestReady, scsiReqSense, scsiInquiry, scsiModeSns6, scsiReadCap10,
		scsiLogSense, scsiModeSns10, scsiReadCap16, scsiRepLuns:
		return 0, false, true
	}
	return 0, false, false
}

// parseVSCSI reads one line of the CloudPhysics vSCSI CSV as written by libCacheSim:
// version,time,op,size,lbn with op a SCSI opcode in hex, size in bytes and lbn in 512 B
// sectors. Reads, writes, UNMAP (trim) and SYNCHRONIZE CACHE (flush) become requests;
// commands that move no user data (TEST UNIT READY, INQUIRY, READ CAPACITY, MODE/LOG
// SENSE, REQUEST SENSE, REPORT LUNS) are ignored; any other opcode is an unknown op.
func (r *Reader) parseVSCSI(line []byte) (bool, error) {
	r.fs.splitComma(line)
	if r.isPreamble() {
		return false, nil
	}
	if r.fs.n != 5 {
		return false, fmt.Errorf("%d columns, want 5 (version,time,op,size,lbn)", r.fs.n)
	}
	if _, err := r.uintField(0, "version"); err != nil {
		return false, err
	}
	if err := r.timeField(1); err != nil {
		return false, err
	}
	opText := r.fs.get(2)
	code, err := parseHex(opText)
	if err != nil {
		return false, fieldErr("op", opText, err)
	}
	op, data, known := scsiOp(uint64(code))
	switch {
	case !known:
		return false, fmt.Errorf("op %q: unknown SCSI opcode", opText)
	case !data:
		return false, nil
	}
	r.cur.op = op
	if r.cur.size, err = r.uintField(3, "size"); err != nil {
		return false, err
	}
	lbn, err := r.uintField(4, "lbn")
	if err != nil {
		return false, err
	}
	if r.cur.off, err = mulSize(lbn, 512); err != nil {
		return false, fieldErr("lbn", r.fs.get(4), err)
	}
	r.cur.dev, r.cur.flags = 0, 0
	return true, nil
}
