package nvmectrl

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStatusValuesAgainstSpec: the statuses of the end of a drive's life, as the
// specifications define them and Linux's include/linux/nvme.h spells them (SCT << 8 | SC):
// Attempted Write to Read Only Range is command specific (SCT 1h) 82h (NVM Command Set
// Specification 1.0 Figure 16 and §3.2.6.1 Figure 67; NVME_SC_READ_ONLY 0x182); Unrecovered
// Read Error is media (SCT 2h) 81h and Write Fault 80h (Base Specification 2.2 Figure 106;
// NVME_SC_READ_ERROR 0x281, NVME_SC_WRITE_FAULT 0x280); Invalid Log Page is command
// specific 09h (Figure 103; NVME_SC_INVALID_LOG_PAGE 0x109). Do Not Retry is bit 14 of the
// 15-bit status (Figure 100; NVME_SC_DNR 0x4000), so the read-only status with it is
// 0x4182, and in a CQE's DW3 (status in bits 31:17, phase tag bit 16) with phase 1 it reads
// 0x4182 << 17 | 1 << 16 = 0x83040000 | 0x10000 = 0x83050000.
func TestStatusValuesAgainstSpec(t *testing.T) {
	for _, c := range []struct {
		s       Status
		sct, sc uint8
		raw     uint16
		name    string
	}{
		{StatusWriteReadOnlyRange, 1, 0x82, 0x182, "Attempted Write to Read Only Range"},
		{StatusUnrecoveredRead, 2, 0x81, 0x281, "Unrecovered Read Error"},
		{StatusWriteFault, 2, 0x80, 0x280, "Write Fault"},
		{StatusInvalidLogPage, 1, 0x09, 0x109, "Invalid Log Page"},
	} {
		require.Equal(t, c.sct, c.s.SCT(), c.name)
		require.Equal(t, c.sc, c.s.SC(), c.name)
		require.Equal(t, c.raw, uint16(c.s), c.name)
		require.Equal(t, c.s, MakeStatus(c.sct, c.sc), c.name)
		require.Equal(t, c.name, c.s.Name())
		require.False(t, c.s.DNR())
	}
	ro := StatusWriteReadOnlyRange.WithDNR()
	require.Equal(t, Status(0x4182), ro)
	require.Equal(t, "Attempted Write to Read Only Range", ro.Name(), "the name ignores the flags")
	var e CQE
	e.SetPhase(1)
	e.SetStatus(ro)
	require.Equal(t, uint32(0x83050000), binary.LittleEndian.Uint32(e[12:])&0xFFFF0000)
	require.Equal(t, ro, e.Status())
	require.Equal(t, "Unrecovered Read Error: the read data could not be recovered from the media (NVMe status 2h/81h)",
		StatusUnrecoveredRead.Describe())
	require.Equal(t, "NVMe status 7h/C3h", MakeStatus(7, 0xC3).Describe())
}

// TestHealthLogLayout: the SMART / Health Information log page's fields at the offsets of
// Linux's struct nvme_smart_log, counted by hand from its members: critical_warning 1 byte
// at 0, temperature[2] at 1, avail_spare at 3, spare_thresh at 4, percent_used at 5,
// endu_grp_crit_warn_sumry at 6, rsvd7[25] to 31; then 16-byte counters from 32:
// data_units_read 32, data_units_written 48, host_reads 64, host_writes 80,
// ctrl_busy_time 96, power_cycles 112, power_on_hours 128, unsafe_shutdowns 144,
// media_errors 160, num_err_log_entries 176 (NVMe Base Specification 2.1 Figure 213). Each
// counter is little-endian with its high 8 bytes 0; the page is 512 bytes; it parses back.
func TestHealthLogLayout(t *testing.T) {
	h := HealthInfo{CriticalWarning: CriticalSpare | CriticalReliability | CriticalReadOnly, AvailableSpare: 7,
		AvailableSpareThreshold: 10, DataUnitsRead: 0x0102, DataUnitsWritten: 0x0304, HostReadCommands: 0x0506,
		HostWriteCommands: 0x0708, PowerCycles: 0x090A, UnsafeShutdowns: 0x0B0C, MediaErrors: 0x0D0E, ErrorLogEntries: 0x0F10}
	b := h.Marshal()
	require.Len(t, b, 512)
	require.Equal(t, byte(0x0D), b[0], "bits 0, 2 and 3: 1 + 4 + 8")
	require.Equal(t, byte(7), b[3])
	require.Equal(t, byte(10), b[4])
	for _, c := range []struct {
		off  int
		want uint64
	}{{32, 0x0102}, {48, 0x0304}, {64, 0x0506}, {80, 0x0708}, {96, 0}, {112, 0x090A}, {128, 0}, {144, 0x0B0C}, {160, 0x0D0E}, {176, 0x0F10}} {
		require.Equal(t, c.want, binary.LittleEndian.Uint64(b[c.off:]), "offset %d", c.off)
		require.Zero(t, binary.LittleEndian.Uint64(b[c.off+8:]), "offset %d high half", c.off)
	}
	require.Equal(t, h, ParseHealthLog(b[:]))
	require.Equal(t, HealthInfo{}, ParseHealthLog(b[:100]), "a short page parses as nothing")
}

// healthFW is a fake firmware that keeps SMART / Health information.
type healthFW struct {
	*fakeFW
	h HealthInfo
}

func (f healthFW) HealthInfo() HealthInfo { return f.h }

// TestGetLogPage: Get Log Page through the admin queue. The SMART / Health log (LID 02h)
// with NUMDL 127 (128 dwords, 0's based: the whole 512-byte page) lands in the host buffer
// as the firmware's HealthInfo marshals it; with offset 160 (CDW12) and NUMDL 3 (16 bytes)
// the buffer gets the Media and Data Integrity Errors counter alone; LID 01h (Error
// Information, not modelled) is Invalid Log Page; an offset of 2 (not dword aligned), and
// NUMDU 1 (2¹⁶ + 1 dwords, past the 128 KiB largest transfer), are Invalid Field in Command.
func TestGetLogPage(t *testing.T) {
	r := newRig(t, testSpec(), ArbRoundRobin)
	want := HealthInfo{CriticalWarning: CriticalReadOnly, AvailableSpare: 3, AvailableSpareThreshold: 10, MediaErrors: 42, PowerCycles: 1}
	r.c.SetFirmware(healthFW{r.fw, want})
	full, part := r.mem.Alloc(4096), r.mem.Alloc(4096)
	logPage := func(cid uint16, prp uint64, lid uint8, numdl uint32, off uint32) SQE {
		e := adminSQE(AdminGetLogPage, cid, prp, numdl<<16|uint32(lid), 0)
		e.SetDW(12, off)
		return e
	}
	huge := logPage(4, part, LogHealth, 0, 0)
	huge.SetDW(11, 1) // NUMDU
	statuses := []Status{StatusSuccess, StatusSuccess, StatusInvalidLogPage, StatusInvalidField, StatusInvalidField}
	done := r.runAdmin(t, []SQE{logPage(0, full, LogHealth, 127, 0), logPage(1, part, LogHealth, 3, 160),
		logPage(2, part, 0x01, 127, 0), logPage(3, part, LogHealth, 0, 2), huge})
	for cid, cqe := range done {
		require.Equal(t, statuses[cid], cqe.Status(), "cid %d", cid)
	}
	var page [512]byte
	r.mem.Read(full, page[:])
	require.Equal(t, want.Marshal(), page)
	var counter [16]byte
	r.mem.Read(part, counter[:])
	require.Equal(t, uint64(42), binary.LittleEndian.Uint64(counter[:8]))
	require.Zero(t, binary.LittleEndian.Uint64(counter[8:]))
	bare := New("nvme", testSpec(), r.eng, refLink(), r.mem).HealthLog()
	require.Equal(t, byte(100), bare[HealthAvailableSpare], "a controller whose firmware keeps no health reports 100 % spare")
}
