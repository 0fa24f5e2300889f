package sweep

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGridOrderFirstAxisSlowest(t *testing.T) {
	// 2 × 3 = 6 points, like `for a in [1,2] { for b in [x,y,z] { … } }`.
	g := Grid{{Key: "a", Values: []string{"1", "2"}}, {Key: "b", Values: []string{"x", "y", "z"}}}
	require.NoError(t, g.Validate())
	require.Equal(t, 6, g.Size())
	want := [][]string{{"1", "x"}, {"1", "y"}, {"1", "z"}, {"2", "x"}, {"2", "y"}, {"2", "z"}}
	for k, w := range want {
		p := g.Point(k)
		require.Equal(t, k, p.Index)
		require.Equal(t, w, p.Values, "point %d", k)
	}
	require.Equal(t, []string{"a=2", "b=y"}, g.Sets(g.Point(4)))
	require.Equal(t, "a=2, b=y", g.Label(g.Point(4)))
	require.Equal(t, []string{"a", "b"}, g.Keys())
	require.Panics(t, func() { g.Point(6) })
	require.Panics(t, func() { g.Point(-1) })
}

func TestGridSizes(t *testing.T) {
	// Sizes are products of the axis lengths: none → 1; 3 × 4 × 5 = 60.
	require.Equal(t, 1, Grid{}.Size())
	g := Grid{{Key: "a", Values: []string{"1", "2", "3"}}, {Key: "b", Values: []string{"1", "2", "3", "4"}},
		{Key: "c", Values: []string{"1", "2", "3", "4", "5"}}}
	require.Equal(t, 60, g.Size())
	// The last point is the last value of every axis; point 59 − 1 = 58 is c's fourth value.
	require.Equal(t, []string{"3", "4", "5"}, g.Point(59).Values)
	require.Equal(t, []string{"3", "4", "4"}, g.Point(58).Values)
	// 20 = 1·20 + 0·5 + 0 → a's second value, b's first, c's first.
	require.Equal(t, []string{"2", "1", "1"}, g.Point(20).Values)
}

func TestGridValidate(t *testing.T) {
	big := make([]string, 1025)
	for i := range big {
		big[i] = fmt.Sprint(i)
	}
	for _, tc := range []struct {
		name string
		g    Grid
		errs []string
	}{
		{"ok", Grid{{Key: "flash.channels", Values: []string{"4", "8"}}}, nil},
		{"empty key", Grid{{Key: "", Values: []string{"1"}}}, []string{"axes[0]: empty key"}},
		{"bad key", Grid{{Key: "flash..ways", Values: []string{"1"}}}, []string{"axes[0]: bad key \"flash..ways\""}},
		{"no values", Grid{{Key: "a"}}, []string{"axes[0]: axis a: no values"}},
		{"empty value", Grid{{Key: "a", Values: []string{"1", ""}}}, []string{"axis a: value 2 is empty"}},
		{"repeated value", Grid{{Key: "a", Values: []string{"1", "1"}}}, []string{"axis a: value \"1\" is listed twice"}},
		{"key twice", Grid{{Key: "a", Values: []string{"1"}}, {Key: "a", Values: []string{"2"}}},
			[]string{"axes[1]: key a is swept by an earlier axis"}},
		{"too big", Grid{{Key: "a", Values: big}, {Key: "b", Values: big}}, []string{"more than 1048576 points"}},
		{"every problem", Grid{{Key: "", Values: []string{"1"}}, {Key: "b"}},
			[]string{"axes[0]: empty key", "axes[1]: axis b: no values"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.g.Validate()
			if tc.errs == nil {
				require.NoError(t, err)
				return
			}
			for _, e := range tc.errs {
				require.ErrorContains(t, err, e)
			}
		})
	}
}

func TestParseAxis(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Axis
		err  string
	}{
		{"flash.channels=4,8,16", Axis{Key: "flash.channels", Values: []string{"4", "8", "16"}}, ""},
		{" flash.onfi.interface = nv-ddr2 , nv-ddr3 ", Axis{Key: "flash.onfi.interface", Values: []string{"nv-ddr2", "nv-ddr3"}}, ""},
		{"dram.capacity=64MiB", Axis{Key: "dram.capacity", Values: []string{"64MiB"}}, ""},
		{"flash.channels", Axis{}, "want key=value1,value2"},
		{"=1,2", Axis{}, "want key=value1,value2"},
		{"a=1,,2", Axis{}, "value 2 is empty"},
		{"a=", Axis{}, "value 1 is empty"},
		{"a=1,1", Axis{}, "listed twice"},
		{"a b=1", Axis{}, "bad key"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			a, err := ParseAxis(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				require.ErrorContains(t, err, "--axis")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, a)
		})
	}
}

func FuzzParseAxis(f *testing.F) {
	for _, s := range []string{"flash.channels=4,8,16", "a=1", "a=", "=", "a.b.c=x,y,z", "a=1,1", "a==b", "a,b=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAxis(s)
		if err != nil {
			return
		}
		// An accepted axis is a valid one-axis grid whose points are its values in order.
		g := Grid{a}
		if err := g.Validate(); err != nil {
			t.Fatalf("ParseAxis(%q) accepted an invalid axis: %v", s, err)
		}
		for k, v := range a.Values {
			if got := g.Point(k).Values[0]; got != v {
				t.Fatalf("point %d = %q, want %q", k, got, v)
			}
		}
	})
}

func BenchmarkGridPoint(b *testing.B) {
	g := Grid{{Key: "a", Values: []string{"1", "2", "3", "4"}}, {Key: "b", Values: []string{"1", "2", "3"}},
		{Key: "c", Values: []string{"1", "2"}}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = g.Point(i % 24)
	}
}

func ExampleGrid_Point() {
	g := Grid{{Key: "flash.channels", Values: []string{"4", "8"}}, {Key: "flash.ways", Values: []string{"2", "4"}}}
	sh := Shard{Index: 1, Count: 3}
	for k := 0; k < g.Size(); k++ {
		fmt.Println(k, g.Label(g.Point(k)), "shard", k%3, sh.Owns(k))
	}
	// Output:
	// 0 flash.channels=4, flash.ways=2 shard 0 false
	// 1 flash.channels=4, flash.ways=4 shard 1 true
	// 2 flash.channels=8, flash.ways=2 shard 2 false
	// 3 flash.channels=8, flash.ways=4 shard 0 false
}
