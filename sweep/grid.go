package sweep

import (
	"errors"
	"fmt"
	"strings"
)

// MaxPoints is the largest grid a Spec may describe.
const MaxPoints = 1 << 20

// Axis is one swept configuration key and the values it takes, in order. The key is a
// dotted configuration path as --set takes it (e.g. "flash.channels"); each value is the
// text of a YAML scalar.
type Axis struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// Grid is the list of axes; its points are their cartesian product, the first axis
// varying slowest.
type Grid []Axis

// Point is one grid point.
type Point struct {
	Index  int      // position in grid order, 0-based
	Values []string // one value per axis, in axis order
}

// ParseAxis parses the flag form "key=v1,v2,…" of an axis, e.g. "flash.channels=4,8,16".
func ParseAxis(s string) (Axis, error) {
	key, vals, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return Axis{}, fmt.Errorf("--axis %q: want key=value1,value2,…", s)
	}
	a := Axis{Key: key}
	for _, v := range strings.Split(vals, ",") {
		a.Values = append(a.Values, strings.TrimSpace(v))
	}
	if err := a.validate(); err != nil {
		return Axis{}, fmt.Errorf("--axis %q: %w", s, err)
	}
	return a, nil
}

// validate reports the first problem of one axis on its own.
func (a Axis) validate() error {
	if a.Key == "" {
		return errors.New("empty key")
	}
	if strings.ContainsAny(a.Key, " =:{}[],#&*!|>'\"%@`") || strings.Contains(a.Key, "..") ||
		strings.HasPrefix(a.Key, ".") || strings.HasSuffix(a.Key, ".") {
		return fmt.Errorf("bad key %q: want a dotted configuration path such as flash.channels", a.Key)
	}
	if len(a.Values) == 0 {
		return fmt.Errorf("axis %s: no values", a.Key)
	}
	seen := make(map[string]bool, len(a.Values))
	for i, v := range a.Values {
		switch {
		case v == "":
			return fmt.Errorf("axis %s: value %d is empty", a.Key, i+1)
		case seen[v]:
			return fmt.Errorf("axis %s: value %q is listed twice", a.Key, v)
		}
		seen[v] = true
	}
	return nil
}

// Validate reports every problem with the grid: bad keys, empty or repeated values, a key
// swept twice, and a grid larger than MaxPoints.
func (g Grid) Validate() error {
	var errs []error
	keys := map[string]bool{}
	size := 1
	for i, a := range g {
		if err := a.validate(); err != nil {
			errs = append(errs, fmt.Errorf("axes[%d]: %w", i, err))
		}
		if keys[a.Key] {
			errs = append(errs, fmt.Errorf("axes[%d]: key %s is swept by an earlier axis", i, a.Key))
		}
		keys[a.Key] = true
		if n := len(a.Values); n > 0 && size <= MaxPoints {
			size *= n
		}
	}
	if size > MaxPoints {
		errs = append(errs, fmt.Errorf("axes: the grid has more than %d points", MaxPoints))
	}
	return errors.Join(errs...)
}

// Size returns the number of points: the product of the axes' lengths (1 for no axes).
func (g Grid) Size() int {
	n := 1
	for _, a := range g {
		n *= len(a.Values)
	}
	return n
}

// Point returns point k (0 ≤ k < Size()). Its values are the digits of k in the mixed
// radix of the axis lengths, the last axis the least significant.
func (g Grid) Point(k int) Point {
	if k < 0 || k >= g.Size() {
		panic(fmt.Sprintf("sweep: point %d out of a grid of %d", k, g.Size()))
	}
	p := Point{Index: k, Values: make([]string, len(g))}
	for i := len(g) - 1; i >= 0; i-- {
		n := len(g[i].Values)
		p.Values[i] = g[i].Values[k%n]
		k /= n
	}
	return p
}

// Sets returns the point's overrides in --set form, "key=value", one per axis.
func (g Grid) Sets(p Point) []string {
	out := make([]string, len(g))
	for i, a := range g {
		out[i] = a.Key + "=" + p.Values[i]
	}
	return out
}

// Keys returns the axis keys in order.
func (g Grid) Keys() []string {
	out := make([]string, len(g))
	for i, a := range g {
		out[i] = a.Key
	}
	return out
}

// Label returns the point's overrides joined by ", " for messages, e.g.
// "flash.channels=4, flash.ways=2".
func (g Grid) Label(p Point) string { return strings.Join(g.Sets(p), ", ") }
