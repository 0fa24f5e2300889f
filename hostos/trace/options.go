package trace

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// DeviceMode says how the trace's device numbers are mapped onto the simulated drive.
type DeviceMode uint8

// Device modes.
const (
	// Separate keeps the trace's device number in Request.Device; the replayer maps each
	// device to its own namespace. Capacity applies to each device.
	Separate DeviceMode = iota
	// Merged puts every device into one namespace (Request.Device = 0) and moves device d
	// to byte offset DeviceOffsets[d], or d·DeviceStride when d is not in the map.
	// Capacity applies to the merged namespace.
	Merged
)

// CapacityPolicy says what happens to a request that reaches past Options.Capacity.
type CapacityPolicy uint8

// Capacity policies.
const (
	// Reject makes the request an error (a counted skip in lenient mode).
	Reject CapacityPolicy = iota
	// Wrap moves the request to its start modulo the capacity; if it then still crosses
	// the end it is moved down to end exactly at the capacity, so it is never split and
	// the request count is unchanged. A request larger than the capacity is rejected.
	Wrap
)

// AlignPolicy says what happens to a request whose byte range does not start and end on
// Options.SectorSize boundaries (the Replayer, MSR, SPC and VSCSI formats give bytes).
type AlignPolicy uint8

// Alignment policies.
const (
	// RoundOut rounds the byte range outward to sector boundaries: the start down, the
	// end up. [1000, 1100) becomes [512, 1536). It is counted in Stats.Rounded.
	RoundOut AlignPolicy = iota
	// RejectUnaligned makes the request an error (a counted skip in lenient mode).
	RejectUnaligned
	// Keep passes the byte range through unchanged; the consumer must cope.
	Keep
)

// BlkEvent selects which blkparse action becomes a request.
type BlkEvent uint8

// Blkparse actions that describe whole requests. The default is D: the requests the
// device actually received, after the block layer merged bios (the sample has 15,524 Q
// events but 170 D events, matching the 170 completed requests). Q gives the bios as
// submitted, for replay through a simulated block layer that merges them itself; C gives
// completions, for reference (their times are completion times).
const (
	BlkDispatch BlkEvent = iota // "D": issued to the driver
	BlkQueue                    // "Q": queued by the submitter
	BlkComplete                 // "C": completed
)

// Options configures parsing and normalisation. The zero value is usable: zero SectorSize,
// TimeScale and MaxWarnings mean their defaults (512, 1/1, 20).
type Options struct {
	// Format is the trace format; Auto detects it from the first lines.
	Format Format `yaml:"format"`
	// Lenient skips malformed lines, counting them, instead of failing on the first.
	Lenient bool `yaml:"lenient"`
	// MaxWarnings bounds Stats.Warnings; further skips are only counted.
	MaxWarnings int `yaml:"max_warnings"`
	// TimeUnit overrides the duration of one unit of the trace's time column ("1us");
	// zero keeps the format's own unit.
	TimeUnit sim.Time `yaml:"time_unit"`
	// TimeScale multiplies every request time: "1/2" replays twice as fast, "2" half as
	// fast. Exact rational arithmetic, rounded down to the picosecond.
	TimeScale Ratio `yaml:"time_scale"`
	// Devices keeps devices apart or merges them into one namespace.
	Devices DeviceMode `yaml:"devices"`
	// DeviceOffsets is the byte offset of each device in Merged mode.
	DeviceOffsets map[int]int64 `yaml:"device_offsets"`
	// DeviceStride is the offset step of devices missing from DeviceOffsets in Merged mode.
	DeviceStride int64 `yaml:"device_stride"`
	// Capacity is the addressable size in bytes; zero means unlimited.
	Capacity int64 `yaml:"capacity"`
	// PastCapacity wraps or rejects requests that reach past Capacity.
	PastCapacity CapacityPolicy `yaml:"past_capacity"`
	// SectorSize is the logical block size requests are aligned to, in bytes.
	SectorSize int64 `yaml:"sector_size"`
	// Unaligned says what to do with byte ranges not on SectorSize boundaries.
	Unaligned AlignPolicy `yaml:"unaligned"`
	// BlkparseEvent is the blkparse action that gives requests: D, Q or C.
	BlkparseEvent BlkEvent `yaml:"blkparse_event"`
}

// DefaultOptions returns auto-detection, strict parsing, unscaled time, separate devices,
// unlimited capacity and 512 B sectors with unaligned requests rounded out.
func DefaultOptions() Options {
	return Options{MaxWarnings: 20, TimeScale: Ratio{1, 1}, SectorSize: 512}
}

// withDefaults fills the zero fields that stand for a default.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.MaxWarnings == 0 {
		o.MaxWarnings = d.MaxWarnings
	}
	if o.TimeScale == (Ratio{}) {
		o.TimeScale = d.TimeScale
	}
	if o.SectorSize == 0 {
		o.SectorSize = d.SectorSize
	}
	return o
}

// Validate reports every problem with the options, each naming its field.
func (o Options) Validate() error {
	o = o.withDefaults()
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("trace.%s: "+format, append([]any{field}, args...)...))
	}
	if o.Format >= numFormats {
		bad("format", "%d is not a format", o.Format)
	}
	if o.MaxWarnings < 0 {
		bad("max_warnings", "%d is negative", o.MaxWarnings)
	}
	if o.TimeUnit < 0 {
		bad("time_unit", "%s is negative", o.TimeUnit)
	}
	if o.TimeScale.Num <= 0 || o.TimeScale.Den <= 0 {
		bad("time_scale", "%s is not a positive ratio", o.TimeScale)
	}
	if o.Devices > Merged {
		bad("devices", "%d is not separate or merged", o.Devices)
	}
	ss := o.SectorSize
	if ss <= 0 || ss&(ss-1) != 0 {
		bad("sector_size", "%d is not a positive power of two", ss)
	}
	// misaligned is true for a negative value or one off the sector grid; with a bad
	// sector size only the sign is checked.
	misaligned := func(v int64) bool { return v < 0 || (ss > 0 && ss&(ss-1) == 0 && v%ss != 0) }
	if misaligned(o.DeviceStride) {
		bad("device_stride", "%d is not a non-negative multiple of sector_size %d", o.DeviceStride, ss)
	}
	for _, d := range sortedKeys(o.DeviceOffsets) {
		if off := o.DeviceOffsets[d]; d < 0 || misaligned(off) {
			bad("device_offsets", "device %d at %d: want a device ≥ 0 at a non-negative multiple of sector_size %d", d, off, ss)
		}
	}
	if misaligned(o.Capacity) {
		bad("capacity", "%d is not a non-negative multiple of sector_size %d", o.Capacity, ss)
	}
	if o.PastCapacity > Wrap {
		bad("past_capacity", "%d is not reject or wrap", o.PastCapacity)
	}
	if o.Unaligned > Keep {
		bad("unaligned", "%d is not round_out, reject or keep", o.Unaligned)
	}
	if o.BlkparseEvent > BlkComplete {
		bad("blkparse_event", "%d is not D, Q or C", o.BlkparseEvent)
	}
	return errors.Join(errs...)
}

// sortedKeys returns the map's keys in increasing order, so that validation messages come
// out in a stable order.
func sortedKeys(m map[int]int64) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// Ratio is an exact positive rational number Num/Den.
type Ratio struct {
	Num, Den int64
}

// ParseRatio parses "3/4", "2" or a decimal such as "0.25" into a reduced Ratio.
func ParseRatio(s string) (Ratio, error) {
	str := strings.TrimSpace(s)
	var r Ratio
	if n, d, ok := strings.Cut(str, "/"); ok {
		num, err1 := parseUint([]byte(strings.TrimSpace(n)))
		den, err2 := parseUint([]byte(strings.TrimSpace(d)))
		if err1 != nil || err2 != nil {
			return Ratio{}, fmt.Errorf("ratio %q: want num/den or a decimal", s)
		}
		r = Ratio{num, den}
	} else {
		// A decimal with k fraction digits is its digits over 10^k.
		intPart, frac, _ := strings.Cut(str, ".")
		num, err := parseUint([]byte(intPart + frac))
		if err != nil || len(frac) > 18 {
			return Ratio{}, fmt.Errorf("ratio %q: want num/den or a decimal", s)
		}
		den := int64(1)
		for range len(frac) {
			den *= 10
		}
		r = Ratio{num, den}
	}
	if r.Num <= 0 || r.Den <= 0 {
		return Ratio{}, fmt.Errorf("ratio %q: must be positive", s)
	}
	g := gcd(r.Num, r.Den)
	return Ratio{r.Num / g, r.Den / g}, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// String formats the ratio as "num/den", or "num" when den is 1.
func (r Ratio) String() string {
	if r.Den == 1 {
		return itoa(r.Num)
	}
	return itoa(r.Num) + "/" + itoa(r.Den)
}

// Apply returns t·Num/Den rounded down; ok is false if the result overflows sim.Time.
func (r Ratio) Apply(t sim.Time) (scaled sim.Time, ok bool) {
	if t < 0 || r.Num <= 0 || r.Den <= 0 {
		return 0, false
	}
	return scaleTime(t, r.Num, r.Den)
}

// MarshalText implements encoding.TextMarshaler.
func (r Ratio) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseRatio.
func (r *Ratio) UnmarshalText(b []byte) error {
	v, err := ParseRatio(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// enumText is the shared text form of the small option enums.
func enumText(v uint8, names []string) ([]byte, error) {
	if int(v) < len(names) {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("value %d out of range", v)
}

func enumParse(what string, b []byte, names []string) (uint8, error) {
	s := strings.ToLower(strings.TrimSpace(string(b)))
	for i, n := range names {
		if s == strings.ToLower(n) {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("%s %q: want one of %s", what, b, strings.Join(names, ", "))
}

var (
	deviceModeNames = []string{"separate", "merged"}
	capacityNames   = []string{"reject", "wrap"}
	alignNames      = []string{"round_out", "reject", "keep"}
	blkEventNames   = []string{"D", "Q", "C"}
)

// MarshalText implements encoding.TextMarshaler ("separate", "merged").
func (m DeviceMode) MarshalText() ([]byte, error) { return enumText(uint8(m), deviceModeNames) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *DeviceMode) UnmarshalText(b []byte) error {
	v, err := enumParse("devices", b, deviceModeNames)
	if err == nil {
		*m = DeviceMode(v)
	}
	return err
}

// MarshalText implements encoding.TextMarshaler ("reject", "wrap").
func (p CapacityPolicy) MarshalText() ([]byte, error) { return enumText(uint8(p), capacityNames) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *CapacityPolicy) UnmarshalText(b []byte) error {
	v, err := enumParse("past_capacity", b, capacityNames)
	if err == nil {
		*p = CapacityPolicy(v)
	}
	return err
}

// MarshalText implements encoding.TextMarshaler ("round_out", "reject", "keep").
func (p AlignPolicy) MarshalText() ([]byte, error) { return enumText(uint8(p), alignNames) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *AlignPolicy) UnmarshalText(b []byte) error {
	v, err := enumParse("unaligned", b, alignNames)
	if err == nil {
		*p = AlignPolicy(v)
	}
	return err
}

// MarshalText implements encoding.TextMarshaler ("D", "Q", "C").
func (e BlkEvent) MarshalText() ([]byte, error) { return enumText(uint8(e), blkEventNames) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (e *BlkEvent) UnmarshalText(b []byte) error {
	v, err := enumParse("blkparse_event", b, blkEventNames)
	if err == nil {
		*e = BlkEvent(v)
	}
	return err
}

// action returns the blkparse action letter of the event.
func (e BlkEvent) action() byte { return blkEventNames[e][0] }

// roundOut returns [off, off+size) rounded outward to multiples of ss (a power of two);
// ok is false on overflow.
func roundOut(off, size, ss int64) (int64, int64, bool) {
	end := off + size
	if end < off {
		return 0, 0, false
	}
	start := off &^ (ss - 1)
	e, carry := bits.Add64(uint64(end), uint64(ss-1), 0)
	if carry != 0 || e > 1<<63-1 {
		return 0, 0, false
	}
	end = int64(e) &^ (ss - 1)
	return start, end - start, true
}
