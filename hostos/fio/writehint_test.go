package fio

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWriteHintValues: write_hint's names are fio's, and each becomes the RWH_WRITE_LIFE_*
// value of include/uapi/linux/fcntl.h (NONE 1, SHORT 2, MEDIUM 3, LONG 4, EXTREME 5); a
// job without it sets no hint (0, RWH_WRITE_LIFE_NOT_SET).
func TestWriteHintValues(t *testing.T) {
	for v, want := range map[string]uint8{"none": 1, "short": 2, "medium": 3, "long": 4, "extreme": 5} {
		j, err := decodeINIString("[a]\nrw=randwrite\nsize=1m\nwrite_hint=" + v + "\n")
		require.NoError(t, err, v)
		require.Equal(t, want, j[0].WriteHint, v)
	}
	j, err := decodeINIString("[a]\nrw=randwrite\nsize=1m\n")
	require.NoError(t, err)
	require.Zero(t, j[0].WriteHint)
	// Inherited from [global] like any option.
	j, err = decodeINIString("[global]\nwrite_hint=extreme\n[a]\nrw=write\nsize=1m\n")
	require.NoError(t, err)
	require.Equal(t, uint8(5), j[0].WriteHint)
}

// TestWriteHintBadValue: a value fio does not know names the option and the values.
func TestWriteHintBadValue(t *testing.T) {
	_, err := decodeINIString("[a]\nrw=write\nwrite_hint=hot\n")
	require.ErrorContains(t, err, "write_hint")
	require.ErrorContains(t, err, `"hot" is not one of none, short, medium, long, extreme`)
}

// TestWriteHintDirectRefused: with direct=1 fio sets the hint with F_SET_FILE_RW_HINT,
// which Linux fails with EINVAL (the per-open-file hint is gone), so fio fails the job;
// the same holds for the passthrough engine, which is direct whatever direct says.
func TestWriteHintDirectRefused(t *testing.T) {
	_, err := decodeINIString("[a]\nrw=write\nsize=1m\ndirect=1\nwrite_hint=short\n")
	require.ErrorContains(t, err, "write_hint")
	require.ErrorContains(t, err, "F_SET_FILE_RW_HINT")
	require.ErrorContains(t, err, "direct=0")
}
