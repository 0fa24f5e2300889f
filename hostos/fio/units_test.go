package fio

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"4096": 4096, "4k": 4096, "4K": 4096, "4kb": 4096, "4KB": 4096, "4KiB": 4096, "4kib": 4096,
		"1m": 1 << 20, "1MiB": 1 << 20, "1g": 1 << 30, "2G": 2 << 30, "1t": 1 << 40, "3 k": 3072,
		"512b": 512, "0": 0,
	} {
		got, err := ParseSize(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "k", "4x", "-4k", "1.5k", "99999999999p", "4 kk"} {
		_, err := ParseSize(in)
		require.Error(t, err, in)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]sim.Time{
		"30": 30 * sim.Second, "0": 0, "500ms": 500 * sim.Millisecond, "500msec": 500 * sim.Millisecond,
		"1.5s": 1500 * sim.Millisecond, "2sec": 2 * sim.Second, "250us": 250 * sim.Microsecond,
		"250usec": 250 * sim.Microsecond, "2m": 120 * sim.Second, "2min": 120 * sim.Second,
		"1.5min": 90 * sim.Second, "1h": 3600 * sim.Second, "1d": 86400 * sim.Second,
		"10ns": 10 * sim.Nanosecond,
	} {
		got, err := ParseDuration(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "s", "5x", "-1", "-1s", "1.5", "99999999999d"} {
		_, err := ParseDuration(in)
		require.Error(t, err, in)
	}
}

func TestParseBoolAndRW(t *testing.T) {
	for in, want := range map[string]bool{"1": true, "true": true, "0": false, "False": false} {
		got, err := ParseBool(in)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err := ParseBool("yes")
	require.Error(t, err)
	for in, want := range map[string]RW{"read": Read, "write": Write, "randread": RandRead,
		"randwrite": RandWrite, "rw": ReadWrite, "readwrite": ReadWrite, "randrw": RandRW} {
		got, err := ParseRW(in)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	for in, want := range map[string]RW{"trim": Trim, "randtrim": RandTrim, "trimwrite": TrimWrite, "randtrimwrite": RandTrimWrite} {
		got, err := ParseRW(in)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	// fio matches whole words: "r" is not read (exitwhat.fio's rw=r fails in fio too).
	_, err = ParseRW("r")
	require.ErrorContains(t, err, `"r" is not one of`)
}
