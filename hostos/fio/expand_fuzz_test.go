package fio

import (
	"strings"
	"testing"
)

// FuzzExpand: fio's value expansion (${VAR}, reserved keywords, integer expressions) never
// panics or hangs, and a value without "${", "$" or a leading "(" comes back unchanged.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"4k", "${SIZE}", "(1024*1024)", "8*$mb_memory", "$pagesize", "5*1024*1024*$mb_memory/8",
		"(2^62*4)", "(1/0)", "((((1))))", "${", "(-9223372036854775807-1)/-1", "(0x10+1)", "${A}${B}"} {
		f.Add(s)
	}
	env := func(name string) (string, bool) {
		if name == "SIZE" {
			return "64m", true
		}
		return "", false
	}
	f.Fuzz(func(t *testing.T, v string) {
		if len(v) > 4096 {
			return
		}
		out, _, err := expandValue(v, env, DefaultHostFacts)
		if err == nil && !strings.ContainsAny(v, "$(") && out != v {
			t.Fatalf("%q expanded to %q", v, out)
		}
	})
}

// TestExpandByHand: fio HOWTO's examples, on the simulated host's values (4 KiB pages,
// 1024 MB, 4 CPUs): size=${SIZE} with SIZE=64m is 64m; 8*$mb_memory is 8192; an unset
// variable is the empty string; (1024*1024) is 1048576; 2^10 is 1024 (power binds
// tighter than *, and 2^3^2 = 2^9 = 512, right-associative); 7%4 is 3.
func TestExpandByHand(t *testing.T) {
	env := func(name string) (string, bool) { return map[string]string{"SIZE": "64m"}[name], name == "SIZE" }
	for in, want := range map[string]string{"${SIZE}": "64m", "8*$mb_memory": "8192", "${NOPE}": "", "(1024*1024)": "1048576",
		"(3*2^10)": "3072", "(2^3^2)": "512", "(7%4)": "3", "bs=${SIZE}x": "bs=64mx", "$ncpus": "4", "($pagesize/512)": "8",
		"(-3+10)": "7"} {
		got, _, err := expandValue(in, env, DefaultHostFacts)
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"(1/0)", "(2^63)", "(1+)", "${X", "((1)"} {
		if _, _, err := expandValue(bad, env, DefaultHostFacts); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

// TestExpandPowers: (-1)^(2^62) is 1 at once (no 2^62 multiplications), 0^0 is 1, and a
// power past 64 bits is an error.
func TestExpandPowers(t *testing.T) {
	for in, want := range map[string]int64{"(-1^4611686018427387904)": 1, "(-1^3)": -1, "(0^0)": 1, "(1^99999999999)": 1, "(0^5)": 0} {
		got, err := evalExpr(in)
		if err != nil || got != want {
			t.Errorf("%s: got %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := evalExpr("(3^41)"); err == nil {
		t.Error("3^41 overflows")
	}
}
