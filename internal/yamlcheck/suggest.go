package yamlcheck

import (
	"reflect"
	"sort"
	"strings"
)

// suggest returns " (did you mean …?)" with the known keys nearest to key, " (known here:
// …)" with every key of a small section when none is near, or "".
func suggest(key, path string, fields map[string]reflect.Type) string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for name := range fields {
		if d := EditDistance(key, name); d <= max(2, len(key)/3) {
			cs = append(cs, cand{name, d})
		}
	}
	if len(cs) == 0 { // no near spelling: a key that contains the typed one, or the reverse
		for name := range fields {
			if strings.Contains(name, key) || strings.Contains(key, name) {
				cs = append(cs, cand{name, EditDistance(key, name)})
			}
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].name < cs[j].name })
	if len(cs) == 0 {
		var all []string
		for name := range fields {
			all = append(all, join(path, name))
		}
		sort.Strings(all)
		if len(all) > 12 {
			return ""
		}
		return " (known here: " + strings.Join(all, ", ") + ")"
	}
	var names []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		names = append(names, join(path, c.name))
	}
	return " (did you mean " + strings.Join(names, " or ") + "?)"
}

// EditDistance is the Levenshtein distance between a and b.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
