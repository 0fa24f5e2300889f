package enum

import "fmt"

// Name returns names[v], the configuration name of a value of a closed set whose values
// are the indexes of names (iota constants), or typ(v) for a value outside it.
func Name[T ~uint8](names []string, typ string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}

// Parse returns the value whose configuration name is s in a closed set whose values are
// the indexes of names, and false when s names none of them.
func Parse[T ~uint8](names []string, s string) (T, bool) {
	for i, n := range names {
		if s == n {
			return T(i), true
		}
	}
	return 0, false
}
