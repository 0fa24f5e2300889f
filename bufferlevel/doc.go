// Package bufferlevel is FastDrain's buffer level (Zhang et al., IEEE CAL 2020): where the
// SSD's write buffer stands against its two watermarks, the status the firmware computes
// (firmware/buffer), the controller carries in each completion (nvmectrl.StatusCarrier) and
// the host's page cache reacts to (pagecache.Cache.SetBufferLevel). It is defined once,
// here, so that the three layers share it without importing each other; it imports nothing.
package bufferlevel
