package sysmem

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Files read, in order; tests point them elsewhere.
var (
	meminfo  = "/proc/meminfo"
	cgroupV2 = "/sys/fs/cgroup/memory.max"
	cgroupV1 = "/sys/fs/cgroup/memory/memory.limit_in_bytes"
)

// unlimited is the threshold above which a cgroup limit means "none" (v1 reports
// 0x7FFFFFFFFFFFF000 for no limit).
const unlimited = 1 << 62

// Limit returns the memory the process may use, in bytes, and where the figure comes from
// ("MemTotal in /proc/meminfo", "the cgroup limit in /sys/fs/cgroup/memory.max"), or an
// error if neither the physical memory nor a cgroup limit can be read (not Linux).
func Limit() (int64, string, error) {
	total, terr := memTotal(meminfo)
	best, from := total, "MemTotal in "+meminfo
	for _, f := range []string{cgroupV2, cgroupV1} {
		if n, ok := cgroupLimit(f); ok && (terr != nil || n < best) {
			best, from, terr = n, "the cgroup limit in "+f, nil
		}
	}
	if terr != nil {
		return 0, "", terr
	}
	return best, from, nil
}

// memTotal parses the MemTotal line of a meminfo file ("MemTotal:  24683584 kB").
func memTotal(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("sysmem: the machine's memory is unknown: %w", err)
	}
	return parseMemTotal(path, b)
}

func parseMemTotal(path string, b []byte) (int64, error) { return parseKB(path, b, "MemTotal") }

// procStatus is the process's status file (proc(5)); tests point it elsewhere.
var procStatus = "/proc/self/status"

// ProcStatus returns a memory field of this process's /proc/self/status ("VmHWM": the peak
// resident set; "VmRSS": the resident set now), in bytes, or an error if the file or the
// field cannot be read (not Linux).
func ProcStatus(field string) (int64, error) {
	b, err := os.ReadFile(procStatus)
	if err != nil {
		return 0, fmt.Errorf("sysmem: %w", err)
	}
	return parseKB(procStatus, b, field)
}

// parseKB parses the line "FIELD:  N kB" of a /proc file (meminfo, status) into bytes.
func parseKB(path string, b []byte, field string) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			break
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 || kb > unlimited>>10 {
			break
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("sysmem: %s has no %s line of the form \"%s: N kB\"", path, field, field)
}

// cgroupLimit reads a cgroup memory limit file: a byte count, or "max" (no limit).
func cgroupLimit(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n >= unlimited {
		return 0, false
	}
	return n, true
}
