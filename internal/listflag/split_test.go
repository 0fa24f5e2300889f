package listflag

import (
	"slices"
	"testing"
)

// TestSplit: items are trimmed and empty ones dropped, so " a, ,b," is [a b] and "" is none.
func TestSplit(t *testing.T) {
	if got := Split(" a, ,b,"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Split(\" a, ,b,\") = %q, want [a b]", got)
	}
	if got := Split(""); len(got) != 0 {
		t.Errorf("Split(\"\") = %q, want none", got)
	}
}
