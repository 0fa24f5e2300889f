package firmware

import (
	"fmt"
	"slices"
	"strings"
)

// registry holds the implementations of one seam by configuration name. Registration
// happens in init functions (the built-ins here, others in the programs that link them),
// before any configuration is read.
type registry[T any] struct {
	what  string // e.g. "eviction policy"
	field string // the configuration field that names one, e.g. "firmware.buffer.policy"
	m     map[string]T
}

// register adds name; an empty or duplicate name is a programming error and panics.
func (r *registry[T]) register(name string, v T) {
	if name == "" || strings.TrimSpace(name) != name {
		panic(fmt.Sprintf("firmware: register %s %q: the name must be non-empty, without surrounding spaces", r.what, name))
	}
	if r.m == nil {
		r.m = map[string]T{}
	}
	if _, dup := r.m[name]; dup {
		panic(fmt.Sprintf("firmware: %s %q registered twice", r.what, name))
	}
	r.m[name] = v
}

// lookup returns name's implementation, or an error naming the field and listing the
// known names.
func (r *registry[T]) lookup(name string) (T, error) {
	v, ok := r.m[name]
	if !ok {
		return v, fmt.Errorf("%s: %s %q is not registered (known: %s)", r.field, r.what, name, strings.Join(r.names(), ", "))
	}
	return v, nil
}

// names returns the registered names, sorted.
func (r *registry[T]) names() []string {
	out := make([]string, 0, len(r.m))
	for n := range r.m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
