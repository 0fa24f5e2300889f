package fio

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestZoneAppendOptions: fio's Zone Append (io_uring_cmd, cmd_type=nvme, zonemode=zbd,
// write_mode=zone_append on /dev/ng0nN) decodes with writefua read; every other use of
// the engine or of its options is refused or named as a mistake, with the field.
func TestZoneAppendOptions(t *testing.T) {
	const good = "[a]\nioengine=io_uring_cmd\ncmd_type=nvme\nfilename=/dev/ng0n2\nzonemode=zbd\nwrite_mode=zone_append\nrw=randwrite\nbs=4k\niodepth=8\nwritefua=1\n"
	js, err := decodeINI([]byte(good), "za.fio", DecodeOptions{Include: os.ReadFile})
	require.NoError(t, err)
	require.True(t, js[0].appends())
	require.True(t, js[0].WriteFUA)
	require.True(t, js[0].queued(), "passthrough keeps iodepth in flight without direct=1")

	for _, c := range []struct{ edit, want string }{
		{"write_mode=zone_append\n", "ioengine=io_uring_cmd without write_mode=zone_append"},
		{"write_mode=zone_append\n|write_mode=write\n", "write_mode=write: io_uring_cmd (NVMe passthrough) is modelled for Zone Append only"},
		{"write_mode=zone_append\n|write_mode=append\n", `write_mode: "append" is not one of`},
		{"cmd_type=nvme\n|cmd_type=ublk\n", `cmd_type: "ublk" is not a command type`},
		{"zonemode=zbd\n", "write_mode: zone_append needs zonemode=zbd"},
		{"filename=/dev/ng0n2\n|filename=/dev/nvme0n2\n", "filename: io_uring_cmd needs the namespace's generic character device"},
		{"rw=randwrite\n|rw=randrw\n", "rw: randrw: io_uring_cmd reads and trims are not modelled"},
		{"writefua=1\n|verify=crc32c\n", "verify: with write_mode=zone_append is not modelled"},
		{"ioengine=io_uring_cmd\n|ioengine=io_uring\n", "write_mode: an option of io_uring_cmd, not of ioengine=io_uring"},
		{"writefua=1\n|readfua=1\n", "readfua=1: io_uring_cmd reads are not modelled"},
		{"writefua=1\n|pi_act=1\n", "protection information and metadata"},
	} {
		doc := good
		from, to, _ := strings.Cut(c.edit, "|")
		doc = strings.Replace(doc, from, to, 1)
		_, err := decodeINI([]byte(doc), "za.fio", DecodeOptions{Include: os.ReadFile})
		require.ErrorContains(t, err, c.want, c.edit)
		require.ErrorContains(t, err, "za.fio:", c.edit)
	}
	const other = "[a]\nioengine=io_uring\ndirect=1\nfilename=/dev/ng0n1\nrw=write\n"
	_, err = decodeINI([]byte(other), "ng.fio", DecodeOptions{Include: os.ReadFile})
	require.ErrorContains(t, err, "filename: /dev/ng0n1 is an NVMe generic character device, which only ioengine=io_uring_cmd uses")
}
