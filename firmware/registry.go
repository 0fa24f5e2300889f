package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/enum"
)

// registry maps names to the implementations of one seam (eviction policies, scheduler
// orderings): enum.Registry, the one the FTL's seams use too, with the configuration field
// that names one in its errors.
type registry[T any] struct {
	field string // the configuration field that names one, e.g. "firmware.buffer.policy"
	r     *enum.Registry[T]
}

// newRegistry returns an empty registry of what (e.g. "buffer policy") named by field.
func newRegistry[T any](what, field string) registry[T] {
	return registry[T]{field: field, r: enum.NewRegistry[T](what)}
}

// register adds name; an empty or duplicate name is a programming error and panics.
func (r *registry[T]) register(name string, v T) { r.r.Register(name, v) }

// lookup returns name's implementation, or an error naming the field and listing the
// known names: `firmware.buffer.policy: unknown buffer policy "lifo" (known: …)`.
func (r *registry[T]) lookup(name string) (T, error) {
	v, err := r.r.Lookup(name)
	if err != nil {
		return v, fmt.Errorf("%s: %w", r.field, err)
	}
	return v, nil
}

// names returns the registered names, sorted.
func (r *registry[T]) names() []string { return r.r.Names() }
