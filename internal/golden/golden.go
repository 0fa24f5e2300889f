package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// MaxListed is how many differences a failure lists before it only counts the rest.
const MaxListed = 40

// Diff returns the differences between two JSON documents, one line per differing leaf or
// shape, in document order (object keys sorted): "path: want W, got G", "path: missing"
// (in got), "path: unexpected" (only in got), "path: want N elements, got M" (the common
// elements are still compared). Numbers are compared as their text, exactly: the
// simulator's output is deterministic, so any change is a change. Paths look like
// $.apps[1].p99_ps.
func Diff(want, got []byte) ([]string, error) {
	w, err := decode(want)
	if err != nil {
		return nil, fmt.Errorf("golden file: %w", err)
	}
	g, err := decode(got)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	var out []string
	walk("$", w, g, &out)
	return out, nil
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// show prints a leaf or a summary of a container, short enough for one line.
func show(v any) string {
	switch x := v.(type) {
	case map[string]any:
		return fmt.Sprintf("an object of %d keys", len(x))
	case []any:
		return fmt.Sprintf("an array of %d elements", len(x))
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func walk(path string, w, g any, out *[]string) {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, show(w), show(g)))
			return
		}
		keys := make([]string, 0, len(wv)+len(gv))
		for k := range wv {
			keys = append(keys, k)
		}
		for k := range gv {
			if _, ok := wv[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := path + "." + k
			wk, inW := wv[k]
			gk, inG := gv[k]
			switch {
			case !inG:
				*out = append(*out, fmt.Sprintf("%s: missing (want %s)", p, show(wk)))
			case !inW:
				*out = append(*out, fmt.Sprintf("%s: unexpected (got %s)", p, show(gk)))
			default:
				walk(p, wk, gk, out)
			}
		}
	case []any:
		gv, ok := g.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, show(w), show(g)))
			return
		}
		if len(wv) != len(gv) {
			*out = append(*out, fmt.Sprintf("%s: want %d elements, got %d", path, len(wv), len(gv)))
		}
		for i := range min(len(wv), len(gv)) {
			walk(fmt.Sprintf("%s[%d]", path, i), wv[i], gv[i], out)
		}
	default:
		if show(w) != show(g) || fmt.Sprintf("%T", w) != fmt.Sprintf("%T", g) {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, show(w), show(g)))
		}
	}
}

// Check compares got, a JSON document, with the golden file at path, or (update true)
// rewrites the file with got. On a difference it fails t listing the first MaxListed
// differences and how to regenerate the file.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with go test -run %s -update)", err, t.Name())
	}
	diffs, err := Diff(want, got)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(diffs) == 0 {
		return
	}
	shown := diffs[:min(len(diffs), MaxListed)]
	more := ""
	if len(diffs) > MaxListed {
		more = fmt.Sprintf("\n  … and %d more", len(diffs)-MaxListed)
	}
	t.Errorf("%s: %d differences from the golden file:\n  %s%s\nIf the change is intended, regenerate with\n  go test ./%s -run '%s' -update\nand commit the new file with a message that says why the results changed.",
		path, len(diffs), strings.Join(shown, "\n  "), more, pkgDir(), t.Name())
}

// pkgDir names the package directory under test relative to the module root, for the
// regeneration command ("cmd/fastdrain"), or "..." when the module root is not found.
func pkgDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "..."
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			rel, err := filepath.Rel(d, wd)
			if err != nil {
				return "..."
			}
			return filepath.ToSlash(rel)
		}
		if filepath.Dir(d) == d {
			return "..."
		}
	}
}
