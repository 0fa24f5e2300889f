package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiff pins the report on a hand-made pair: a changed number (1.5 → 1.50 counts, the
// text differs), a changed string, a key only in want, a key only in got, an array one
// element shorter (its common elements still compared), and a type change.
func TestDiff(t *testing.T) {
	want := `{"a": 1.5, "s": "x", "gone": true, "arr": [1, 2, 3], "o": {"k": [1]}, "same": [{"z": 0}]}`
	got := `{"a": 1.50, "s": "y", "new": null, "arr": [1, 5], "o": {"k": {"n": 1}}, "same": [{"z": 0}]}`
	d, err := Diff([]byte(want), []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	exp := []string{
		"$.a: want 1.5, got 1.50",
		"$.arr: want 3 elements, got 2",
		"$.arr[1]: want 2, got 5",
		"$.gone: missing (want true)",
		"$.new: unexpected (got null)",
		"$.o.k: want an array of 1 elements, got an object of 1 keys",
		`$.s: want "x", got "y"`,
	}
	if strings.Join(d, "\n") != strings.Join(exp, "\n") {
		t.Fatalf("Diff =\n%s\nwant\n%s", strings.Join(d, "\n"), strings.Join(exp, "\n"))
	}
	if d, err := Diff([]byte(want), []byte(want)); err != nil || len(d) != 0 {
		t.Fatalf("a document differs from itself: %v %v", d, err)
	}
	if _, err := Diff([]byte(want), []byte("{")); err == nil || !strings.HasPrefix(err.Error(), "output:") {
		t.Fatalf("bad output: %v", err)
	}
}

// TestCheckUpdate writes a golden file with update, then passes against it.
func TestCheckUpdate(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "x.json")
	Check(t, p, []byte(`{"v": 1}`), true)
	b, err := os.ReadFile(p)
	if err != nil || string(b) != `{"v": 1}` {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	Check(t, p, []byte("{\n  \"v\": 1\n}\n"), false) // same document, other layout
}
