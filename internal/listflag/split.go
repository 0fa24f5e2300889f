package listflag

import "strings"

// Split splits a comma-separated flag value, dropping blanks around and between items.
func Split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
