package yamlcheck

import (
	"reflect"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

type inner struct {
	Count int      `yaml:"count"`
	Seed  uint64   `yaml:"seed"`
	Ratio float64  `yaml:"ratio"`
	Time  sim.Time `yaml:"time"`
	Name  string   `yaml:"name"`
}

type outer struct {
	Section inner   `yaml:"section"`
	List    []inner `yaml:"list"`
	Ptr     *inner  `yaml:"ptr"`
	Tags    []int   `yaml:"tags"`
}

func TestEditDistance(t *testing.T) {
	// kitten → sitting: substitute k→s, e→i, insert g = 3.
	for _, c := range []struct {
		a, b string
		d    int
	}{{"kitten", "sitting", 3}, {"", "abc", 3}, {"channels", "chanels", 1}, {"same", "same", 0}} {
		require.Equal(t, c.d, EditDistance(c.a, c.b), "%s/%s", c.a, c.b)
	}
}

// TestCheck: each silent acceptance of the decoder is named with its line and path; what
// the decoder handles honestly (a null list or pointer, which it sets to nil; a quoted or
// unit value, which its own parser checks; an integral float) passes.
func TestCheck(t *testing.T) {
	typ := reflect.TypeFor[outer]()
	for _, c := range []struct{ name, doc, want string }{
		{"fraction", "section:\n  count: 3.7\n", "line 2: root.section.count: 3.7 is not a whole number (the field counts whole units)"},
		{"fraction in a list", "list:\n  - {count: 1}\n  - {count: .5}\n", "line 3: root.list[1].count: .5 is not a whole number"},
		{"fraction in an int list", "tags: [1, 2.5]\n", "line 1: root.tags[1]: 2.5 is not a whole number"},
		{"infinity", "section: {count: .inf}\n", "line 1: root.section.count: .inf is not a whole number"},
		{"not a number", "section: {ratio: .nan}\n", "line 1: root.section.ratio: .nan is not a finite number"},
		{"infinite ratio", "section: {ratio: -.Inf}\n", "line 1: root.section.ratio: -.Inf is not a finite number"},
		{"negative unsigned", "section: {seed: -2.0}\n", "line 1: root.section.seed: -2.0 must not be negative"},
		{"null section", "section: ~\n", "line 1: root.section: the section is empty (null): give its keys or leave it out"},
		{"empty section", "section:\n", "line 1: root.section: the section is empty (null)"},
		{"null scalar", "section:\n  count:\n", "line 2: root.section.count: no value (null): give one or leave the key out"},
		{"null unit", "section: {time: null}\n", "line 1: root.section.time: no value (null)"},
		{"null string", "section: {name: ~}\n", "line 1: root.section.name: no value (null)"},
		{"unknown key", "section: {cuont: 1}\n", "line 1: unknown key root.section.cuont (did you mean root.section.count?)"},
		{"unknown key in a list", "list:\n  - {nmae: a}\n", "line 2: unknown key root.list[0].nmae (did you mean root.list[0].name?)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps := Check([]byte(c.doc), typ, "root")
			require.Len(t, ps, 1, "%v", ps)
			require.Contains(t, ps[0].String(), c.want)
		})
	}
	for _, ok := range []string{
		"", "~\n", "section: {count: 3, seed: 7, ratio: 0.5, time: 1.5ms, name: x}\n",
		"section: {count: 4.0}\n", "section: {count: 1e3}\n", "list: ~\nptr: ~\ntags: ~\n",
		"bad: [\n",
	} {
		require.Empty(t, Check([]byte(ok), typ, "root"), "%q", ok)
	}
}

// FuzzCheck: Check never panics on any document, and every problem it reports has a line
// and a message naming its path.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"section: {count: 3.7}\n", "section: ~\n", "list:\n  - {cuont: 1}\n",
		"a: &x {count: 1}\nsection: *x\n", "section: {<<: {count: 1.5}}\n", "tags: [1, .nan]\n"} {
		f.Add([]byte(s))
	}
	typ := reflect.TypeFor[outer]()
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, p := range Check(b, typ, "root") {
			require.Positive(t, p.Line, "%v", p)
			require.Contains(t, p.Msg, "root", "%v", p)
		}
	})
}
