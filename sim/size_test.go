package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want Size
	}{
		{"0", 0},
		{"4096", 4096},
		{"4096B", 4096},
		{"512MiB", 512 << 20},
		{"512 MiB", 512 << 20},
		{"4KiB", 4096},
		{"1.5KiB", 1536},
		{"0.5GiB", 1 << 29},
		{"2GiB", 2 << 30},
		{"1TiB", 1 << 40},
		{"1kB", 1000},
		{"1.25GB", 1_250_000_000},
		{"3MB", 3_000_000},
		{"2TB", 2_000_000_000_000},
		{".5KiB", 512},
		{"1.000B", 1},
		{"  8KiB  ", 8192},
		{"8388607TiB", 8388607 << 40},
	}
	for _, tc := range tests {
		got, err := ParseSize(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
	for _, bad := range []string{"", "KiB", "1KB", "1.5B", "0.3KiB", "-1KiB", "1e3", "1..2MiB",
		".", "12 34", "1MiBB", "8388608TiB", "9223372036854775808", "1.0000000001kB"} {
		_, err := ParseSize(bad)
		require.Error(t, err, "%q", bad)
	}
}

func TestSizeString(t *testing.T) {
	for _, tc := range []struct {
		in   Size
		want string
	}{{0, "0B"}, {1000, "1000B"}, {4096, "4KiB"}, {1536, "1536B"}, {512 * MiB, "512MiB"},
		{3 * GiB, "3GiB"}, {2 * TiB, "2TiB"}, {-4, "-4B"}} {
		require.Equal(t, tc.want, tc.in.String())
	}
}

// FuzzParseSize checks that the parser never panics, never returns a negative size, and
// that what it accepts prints as a string that parses back to the same size.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"512MiB", "1.5KiB", "4096", "1.25GB", "0.5GiB", "1KB", "-1B",
		".5kB", "9223372036854775807B", "8388607.99999TiB", " 3 MB "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSize(s)
		if err != nil {
			return
		}
		if v < 0 {
			t.Fatalf("ParseSize(%q) = %d, negative", s, v)
		}
		back, err := ParseSize(v.String())
		if err != nil || back != v {
			t.Fatalf("ParseSize(%q) = %d prints %q, which parses to %d, %v", s, v, v.String(), back, err)
		}
	})
}
