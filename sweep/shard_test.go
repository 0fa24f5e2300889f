package sweep

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShardsCoverEveryPointOnce(t *testing.T) {
	// For every grid size up to 13 and n = 1 … 5 shards, each point k is in exactly one
	// shard, the one with index k mod n, and the shard lists hold ⌈(size−i)/n⌉ points.
	for size := 0; size <= 13; size++ {
		for n := 1; n <= 5; n++ {
			seen := make([]int, size)
			for i := 0; i < n; i++ {
				sh := Shard{Index: i, Count: n}
				pts := sh.Points(size)
				require.Len(t, pts, (size-i+n-1)/n, "size %d shard %s", size, sh)
				for _, k := range pts {
					require.True(t, sh.Owns(k))
					require.Equal(t, i, k%n)
					seen[k]++
				}
			}
			for k, c := range seen {
				require.Equal(t, 1, c, "size %d, %d shards: point %d", size, n, k)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"3/8", Shard{3, 8}, ""},
		{" 7/8 ", Shard{7, 8}, ""},
		{"8/8", Shard{}, "shard index 8 is not in 0 … 7"},
		{"-1/4", Shard{}, "shard index -1"},
		{"0/0", Shard{}, "shard count 0"},
		{"1", Shard{}, "want i/n"},
		{"a/b", Shard{}, "want i/n"},
		{"1/2/3", Shard{}, "want i/n"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			sh, err := ParseShard(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				require.ErrorContains(t, err, "--shard")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, sh)
			require.Equal(t, tc.want.String(), sh.String())
		})
	}
	require.Equal(t, Shard{0, 1}, Whole())
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", "8/8", "-1/2", "1/0", "x", "1/2/3", " 2 / 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.Validate() != nil || sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("ParseShard(%q) = %+v, not a valid shard", s, sh)
		}
		if back, err := ParseShard(sh.String()); err != nil || back != sh {
			t.Fatalf("%q does not round-trip: %+v %v", sh.String(), back, err)
		}
	})
}
