package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Registry maps names to values of type T, typically constructors of a policy. Register is
// meant for init functions; once the program runs, the registry is only read, so lookups
// from concurrent simulations (each with its own engine) are safe.
type Registry[T any] struct {
	what  string // what the names name, for messages: "allocator"
	names []string
	vals  []T // vals[i] is registered under names[i]; names kept sorted
}

// NewRegistry returns an empty registry whose messages call its names what ("allocator").
func NewRegistry[T any](what string) *Registry[T] {
	return &Registry[T]{what: what}
}

// Register adds v under name. An empty name, a name with white space or a comma, and a name
// registered twice are programming errors and panic (as database/sql.Register does): they
// happen in init functions, before any configuration is read.
func (r *Registry[T]) Register(name string, v T) {
	if name == "" || strings.ContainsAny(name, " \t\n,") {
		panic(fmt.Sprintf("enum: %s name %q is empty or holds white space or a comma", r.what, name))
	}
	i, found := slices.BinarySearch(r.names, name)
	if found {
		panic(fmt.Sprintf("enum: %s %q registered twice", r.what, name))
	}
	r.names = slices.Insert(r.names, i, name)
	r.vals = slices.Insert(r.vals, i, v)
}

// Lookup returns the value registered under name, or an error naming the registry's kind
// and listing every registered name: `unknown allocator "lsb-first" (known: latency-aware,
// sequential, skip-to-lsb)`.
func (r *Registry[T]) Lookup(name string) (T, error) {
	if i, found := slices.BinarySearch(r.names, name); found {
		return r.vals[i], nil
	}
	var zero T
	return zero, fmt.Errorf("unknown %s %q (known: %s)", r.what, name, strings.Join(r.names, ", "))
}

// Has reports whether name is registered.
func (r *Registry[T]) Has(name string) bool {
	_, found := slices.BinarySearch(r.names, name)
	return found
}

// Names returns the registered names, sorted (so the order does not depend on the order
// in which packages' init functions ran).
func (r *Registry[T]) Names() []string { return slices.Clone(r.names) }
