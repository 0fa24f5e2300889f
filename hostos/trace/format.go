package trace

import (
	"fmt"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// Format is a trace file format.
type Format uint8

// Supported formats. Field lists are those of the format's own documentation; see
// testdata/traces/README.md at the repository root for the samples.
const (
	// Auto asks NewReader to detect the format from the first lines (see Detect).
	Auto Format = iota
	// DiskSim is DiskSim ASCII as read by MQSim: "time_ns device lba size_sectors type",
	// whitespace-separated, 512 B sectors, type 0 = write, 1 = read.
	DiskSim
	// Replayer is the Heimdall/replayer ASCII: "time_ms device offset_bytes size_bytes
	// flag", flag 0 = write, 1 = read; the time may have decimals.
	Replayer
	// MSR is the MSR Cambridge CSV: "Timestamp,Hostname,DiskNumber,Type,Offset,Size,
	// ResponseTime" with Timestamp in Windows filetime ticks of 100 ns and Type Read/Write.
	MSR
	// SPC is the UMass/SPC CSV: "ASU,LBA,Size,Opcode,Timestamp[,optional…]" with LBA in
	// 512 B sectors, Size in bytes, Opcode r/R/w/W and Timestamp in seconds with decimals.
	SPC
	// Blkparse is Linux blkparse default text output: "maj,min cpu seq time_s pid action
	// rwbs sector + nsectors [proc]"; one action (Options.BlkparseEvent) gives requests.
	Blkparse
	// VSCSI is the CloudPhysics vSCSI CSV of libCacheSim: "version,time,op,size,lbn" with
	// op a SCSI opcode in hex (28 READ(10), 2a WRITE(10), …), size in bytes, lbn in 512 B
	// sectors and time in seconds (see nativeUnit).
	VSCSI
	// VSCSIBin is the binary vSCSI format the CloudPhysics traces are published in
	// (vscsibin.go): fixed-size little-endian records of version 1 (32 bytes) or 2 (40),
	// time in microseconds.
	VSCSIBin
	numFormats
)

var formatNames = [numFormats]string{"auto", "disksim", "replayer", "msr", "spc", "blkparse", "vscsi", "vscsi-bin"}

// formatAliases are other names people use for the same formats.
var formatAliases = map[string]Format{
	"mqsim":         DiskSim,
	"ascii":         DiskSim,
	"heimdall":      Replayer,
	"msr-cambridge": MSR,
	"umass":         SPC,
	"blktrace":      Blkparse,
	"cloudphysics":  VSCSI,
	"vscsi-binary":  VSCSIBin,
}

// String returns the format's canonical name.
func (f Format) String() string {
	if f < numFormats {
		return formatNames[f]
	}
	return fmt.Sprintf("format(%d)", uint8(f))
}

// ParseFormat returns the format with the given name or alias, ignoring case: auto, disksim
// (mqsim, ascii), replayer (heimdall), msr (msr-cambridge), spc (umass), blkparse (blktrace),
// vscsi (cloudphysics), vscsi-bin (vscsi-binary).
func ParseFormat(name string) (Format, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, s := range formatNames {
		if n == s {
			return Format(i), nil
		}
	}
	if f, ok := formatAliases[n]; ok {
		return f, nil
	}
	return Auto, fmt.Errorf("trace format %q: want one of %s", name, strings.Join(formatNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseFormat.
func (f *Format) UnmarshalText(b []byte) error {
	v, err := ParseFormat(string(b))
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// nativeUnit is the duration of one unit of the format's time column.
//
// VSCSI: the sample's time column spans 5633898 … 5641098, which its source calls a 2-hour
// trace (7200 s); libCacheSim's FAQ states
// that in cloudPhysicsIO.csv "time is in seconds", and a whole-number column with up to a
// few equal values per tick only makes sense at one-second resolution (15.8 requests/s
// rather than 15.8 M/s). Seconds it is; Options.TimeUnit overrides it.
func (f Format) nativeUnit() sim.Time {
	switch f {
	case DiskSim:
		return sim.Nanosecond
	case Replayer:
		return sim.Millisecond
	case MSR:
		return 100 * sim.Nanosecond // Windows FILETIME tick
	case SPC, Blkparse, VSCSI:
		return sim.Second
	case VSCSIBin:
		return sim.Microsecond
	}
	return sim.Second
}
