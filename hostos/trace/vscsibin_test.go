package trace

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// vscsiRec is one record to encode.
type vscsiRec struct {
	cmd    uint16
	length uint32
	lbn    uint64
	ts     uint64 // µs
}

// encodeVSCSI writes records in the binary layout of version ver (vscsibin.go).
func encodeVSCSI(ver int, recs []vscsiRec) []byte {
	var out bytes.Buffer
	for i, r := range recs {
		if ver == 2 {
			b := make([]byte, vscsiV2Size)
			binary.LittleEndian.PutUint16(b[0:], r.cmd)
			binary.LittleEndian.PutUint16(b[2:], 2<<8)
			binary.LittleEndian.PutUint32(b[4:], uint32(i))
			binary.LittleEndian.PutUint32(b[8:], r.length)
			binary.LittleEndian.PutUint32(b[12:], 1)
			binary.LittleEndian.PutUint64(b[16:], r.lbn)
			binary.LittleEndian.PutUint64(b[24:], r.ts)
			binary.LittleEndian.PutUint64(b[32:], 77) // response time, not read
			out.Write(b)
			continue
		}
		b := make([]byte, vscsiV1Size)
		binary.LittleEndian.PutUint32(b[0:], uint32(i))
		binary.LittleEndian.PutUint32(b[4:], r.length)
		binary.LittleEndian.PutUint32(b[8:], 1)
		binary.LittleEndian.PutUint16(b[12:], r.cmd)
		binary.LittleEndian.PutUint16(b[14:], 1<<8)
		binary.LittleEndian.PutUint64(b[16:], r.lbn)
		binary.LittleEndian.PutUint64(b[24:], r.ts)
		out.Write(b)
	}
	return out.Bytes()
}

func TestVSCSIBinary(t *testing.T) {
	// Four commands: READ(10) of 4096 B at block 8 at 1,000,000 µs; INQUIRY (ignored);
	// WRITE(10) of 8192 B at block 16 at 1,000,250 µs; SYNCHRONIZE CACHE(10) at 1,000,300 µs.
	// Times are relative to the first request: 0, 250 µs, 300 µs; offsets 8 × 512 = 4096 and
	// 16 × 512 = 8192.
	recs := []vscsiRec{{0x28, 4096, 8, 1_000_000}, {0x12, 0, 0, 1_000_100}, {0x2a, 8192, 16, 1_000_250}, {0x35, 0, 0, 1_000_300}}
	want := []Request{
		{Time: 0, Offset: 4096, Size: 4096, Op: Read, Line: 1},
		{Time: 250 * sim.Microsecond, Offset: 8192, Size: 8192, Op: Write, Line: 3},
		{Time: 300 * sim.Microsecond, Op: Flush, Line: 4},
	}
	for _, ver := range []int{1, 2} {
		data := encodeVSCSI(ver, recs)
		require.Equal(t, ver, vscsiVersion(data))
		for _, f := range []Format{Auto, VSCSIBin} {
			reqs, st, err := ReadAll(bytes.NewReader(data), "cp.vscsi", Options{Format: f})
			require.NoError(t, err, "v%d %v", ver, f)
			require.Equal(t, want, reqs, "v%d %v", ver, f)
			require.Equal(t, [4]int64{4, 3, 1, 1}, [4]int64{st.Lines, st.Requests, st.Ignored, st.Flushes})
			require.Equal(t, int64(4096), st.ReadBytes)
		}
	}
}

func TestVSCSIBinaryErrors(t *testing.T) {
	good := encodeVSCSI(2, []vscsiRec{{0x28, 4096, 8, 10}, {0x28, 4096, 16, 20}, {0x2a, 512, 1, 30}})
	// A truncated last record names its record number and the bytes it has.
	_, _, err := ReadAll(bytes.NewReader(good[:len(good)-5]), "cp.vscsi", Options{Format: VSCSIBin})
	require.EqualError(t, err, "cp.vscsi:3: truncated record: 35 of its 40 bytes")
	// Lenient mode skips it and ends the trace.
	reqs, st, err := ReadAll(bytes.NewReader(good[:len(good)-5]), "cp.vscsi", Options{Format: VSCSIBin, Lenient: true})
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	require.Equal(t, int64(1), st.Skipped)
	// An unknown opcode in record 2.
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint16(bad[vscsiV2Size:], 0xee)
	_, _, err = ReadAll(bytes.NewReader(bad), "cp.vscsi", Options{Format: VSCSIBin})
	require.EqualError(t, err, "cp.vscsi:2: op 0xee: unknown SCSI opcode")
	// A record of another version after the first two.
	binary.LittleEndian.PutUint16(bad[vscsiV2Size:], 0x28)
	binary.LittleEndian.PutUint16(bad[2*vscsiV2Size+2:], 1<<8)
	_, _, err = ReadAll(bytes.NewReader(bad), "cp.vscsi", Options{Format: VSCSIBin})
	require.EqualError(t, err, "cp.vscsi:3: version 1 in a version-2 trace")
	// Text given as binary vSCSI is refused up front.
	_, _, err = ReadAll(bytes.NewReader([]byte("0 0 0 8 1\n1 0 8 8 1\n")), "x.trace", Options{Format: VSCSIBin})
	require.ErrorContains(t, err, "x.trace: not a binary vSCSI trace")
}

// FuzzVSCSIBinary feeds arbitrary bytes to the reader as binary vSCSI and as Auto: no
// panic, and every request it returns is normalised (non-negative, in time order).
func FuzzVSCSIBinary(f *testing.F) {
	recs := []vscsiRec{{0x28, 4096, 8, 1_000_000}, {0x12, 0, 0, 1_000_100}, {0x2a, 8192, 16, 1_000_250}, {0x35, 0, 0, 1_000_300}}
	f.Add(encodeVSCSI(1, recs))
	f.Add(encodeVSCSI(2, recs))
	f.Add(encodeVSCSI(2, recs)[:70])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []Options{{Format: VSCSIBin, Lenient: true}, {Format: Auto}} {
			reqs, _, err := ReadAll(bytes.NewReader(data), "f", opt)
			if err != nil {
				continue
			}
			var prev sim.Time
			for _, r := range reqs {
				if r.Time < prev || r.Offset < 0 || r.Size < 0 {
					t.Fatalf("bad request %+v after %v", r, prev)
				}
				prev = r.Time
			}
		}
	})
}
