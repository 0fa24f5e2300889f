package blk

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// WriteCache is how the queue learns whether the device has a volatile write cache (sysfs
// queue/write_cache, "write back" or "write through"): from the device (WriteCacheAuto,
// the default) or set by hand (WriteCacheOn, WriteCacheOff, as writing the sysfs file
// does). YAML: auto, true or false.
type WriteCache uint8

// The write-cache settings.
const (
	// WriteCacheAuto takes what the driver reports: Linux's NVMe driver sets the queue's
	// write cache and FUA flags from the Identify Controller VWC bit (nvme_set_queue_limits:
	// blk_queue_write_cache(q, vwc, vwc)). A driver that reports nothing (DeviceCache) is
	// taken to have one, the host model's behaviour before the device reported it.
	WriteCacheAuto WriteCache = iota
	// WriteCacheOn is "write back": flushes and FUA reach the device.
	WriteCacheOn
	// WriteCacheOff is "write through": flushes complete at once and FUA is dropped.
	WriteCacheOff
)

// DeviceCache is implemented by a driver that reports whether its device has a volatile
// write cache (an NVMe driver: the Identify Controller VWC bit).
type DeviceCache interface {
	VolatileWriteCache() bool
}

// resolve returns whether the queue treats the device as having a volatile write cache.
func (w WriteCache) resolve(drv Driver) bool {
	switch w {
	case WriteCacheOn:
		return true
	case WriteCacheOff:
		return false
	}
	if d, ok := drv.(DeviceCache); ok {
		return d.VolatileWriteCache()
	}
	return true
}

// String returns the YAML form: auto, true or false.
func (w WriteCache) String() string {
	switch w {
	case WriteCacheAuto:
		return "auto"
	case WriteCacheOn:
		return "true"
	case WriteCacheOff:
		return "false"
	}
	return fmt.Sprintf("WriteCache(%d)", uint8(w))
}

// ParseWriteCache parses "auto", "true" or "false".
func ParseWriteCache(s string) (WriteCache, error) {
	switch s {
	case "auto":
		return WriteCacheAuto, nil
	case "true":
		return WriteCacheOn, nil
	case "false":
		return WriteCacheOff, nil
	}
	return 0, fmt.Errorf("write cache %q is not one of auto, true, false", s)
}

// MarshalText implements encoding.TextMarshaler.
func (w WriteCache) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (w *WriteCache) UnmarshalText(b []byte) error {
	v, err := ParseWriteCache(string(b))
	if err != nil {
		return err
	}
	*w = v
	return nil
}

// UnmarshalYAML implements yaml.Unmarshaler, with the line of a bad value in the error.
func (w *WriteCache) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: write_cache must be auto, true or false, not a list or map", n.Line)
	}
	if err := w.UnmarshalText([]byte(n.Value)); err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	return nil
}
