package sysmem

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLimit: MemTotal 24,683,584 kB is 25,275,990,016 bytes (24,683,584,000 + 24,683,584 × 24); a cgroup limit of
// 8 GiB below it wins; "max" and v1's 0x7FFFFFFFFFFFF000 mean no limit.
func TestLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	old := [3]string{meminfo, cgroupV2, cgroupV1}
	t.Cleanup(func() { meminfo, cgroupV2, cgroupV1 = old[0], old[1], old[2] })
	meminfo = write("meminfo", "MemTotal:       24683584 kB\nMemFree:        22132156 kB\n")
	cgroupV2 = write("v2", "max\n")
	cgroupV1 = write("v1", "9223372036854771712\n")
	n, from, err := Limit()
	require.NoError(t, err)
	require.Equal(t, int64(25_275_990_016), n)
	require.Equal(t, "MemTotal in "+meminfo, from)

	cgroupV2 = write("v2b", "8589934592\n")
	n, from, err = Limit()
	require.NoError(t, err)
	require.Equal(t, int64(8<<30), n)
	require.Equal(t, "the cgroup limit in "+cgroupV2, from)

	meminfo = filepath.Join(dir, "missing")
	cgroupV2 = filepath.Join(dir, "missing")
	_, _, err = Limit()
	require.ErrorContains(t, err, "the machine's memory is unknown")

	_, err = parseMemTotal("x", []byte("MemTotal: lots\n"))
	require.EqualError(t, err, `sysmem: x has no MemTotal line of the form "MemTotal: N kB"`)
}

// TestProcStatus: "VmHWM:     81234 kB" is 81,234 × 1,024 = 83,183,616 bytes; a field the
// file lacks is an error naming the file and the field.
func TestProcStatus(t *testing.T) {
	p := filepath.Join(t.TempDir(), "status")
	require.NoError(t, os.WriteFile(p, []byte("Name:\tfastdrain\nVmPeak:\t  912345 kB\nVmHWM:\t   81234 kB\nVmRSS:\t   70000 kB\n"), 0o644))
	old := procStatus
	t.Cleanup(func() { procStatus = old })
	procStatus = p
	n, err := ProcStatus("VmHWM")
	require.NoError(t, err)
	require.Equal(t, int64(83_183_616), n)
	_, err = ProcStatus("VmSwap")
	require.EqualError(t, err, "sysmem: "+p+` has no VmSwap line of the form "VmSwap: N kB"`)
}

// FuzzParseMemTotal: any meminfo text gives a positive byte count or an error naming the
// file, never a panic; a count is the kB figure × 1024.
func FuzzParseMemTotal(f *testing.F) {
	f.Add([]byte("MemTotal:       24683584 kB\nMemFree:        22132156 kB\n"))
	f.Add([]byte("MemFree: 1 kB\nMemTotal: 1 kB\n"))
	f.Add([]byte("MemTotal: 99999999999999999999 kB\n"))
	f.Add([]byte("MemTotal: -1 kB\n"))
	f.Add([]byte("MemTotal:\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := parseMemTotal("meminfo", b)
		if err != nil {
			require.ErrorContains(t, err, "meminfo has no MemTotal line")
			return
		}
		require.Positive(t, n)
		require.Zero(t, n%1024)
	})
}
