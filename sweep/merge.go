package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// maxListed is how many missing or duplicate points an error names before summarising.
const maxListed = 10

// Merge combines shard results into the result of the whole grid. names[i] names parts[i]
// in errors (typically its file). The parts must come from one Spec (the same kind, base
// configuration and its digest, axes and job parameters) and together hold every point
// exactly once; every problem is reported, naming the files. The merged result is the one
// an unsharded Run gives, so its JSON and CSV are byte-identical to that run's.
func Merge(parts []*Result, names []string) (*Result, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no shard results given")
	}
	if len(names) != len(parts) {
		return nil, fmt.Errorf("merge: %d names for %d results", len(names), len(parts))
	}
	var errs []error
	for i, p := range parts {
		if err := p.check(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", names[i], err))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	first := parts[0]
	for i, p := range parts[1:] {
		if d := specDiff(first.Spec, p.Spec); d != "" {
			errs = append(errs, fmt.Errorf("%s: not the same sweep as %s: %s differ", names[i+1], names[0], d))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	shardOf := map[Shard]int{}
	for i, p := range parts {
		if j, ok := shardOf[p.Shard]; ok {
			if names[i] == names[j] {
				errs = append(errs, fmt.Errorf("%s is given twice", names[i]))
			} else {
				errs = append(errs, fmt.Errorf("%s: shard %s is also in %s", names[i], p.Shard, names[j]))
			}
			continue
		}
		shardOf[p.Shard] = i
	}
	n := first.Points
	owner := make([]int, n)
	for k := range owner {
		owner[k] = -1
	}
	var dups []string
	for i, p := range parts {
		for _, w := range p.Rows {
			if j := owner[w.Point]; j >= 0 {
				dups = append(dups, fmt.Sprintf("point %d (%s) is in %s and %s", w.Point,
					first.Spec.Axes.Label(first.Spec.Axes.Point(w.Point)), names[j], names[i]))
				continue
			}
			owner[w.Point] = i
		}
	}
	if len(errs) == 0 && len(dups) > 0 { // a repeated shard already explains its duplicates
		errs = append(errs, fmt.Errorf("duplicate points: %s", listed(dups)))
	}
	var missing []int
	for k, o := range owner {
		if o < 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		errs = append(errs, missingError(parts, missing, n))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	out := &Result{Format: FormatVersion, Spec: first.Spec, Shard: Whole(), Points: n,
		Columns: append([]string(nil), first.Columns...), Rows: make([]Row, 0, n)}
	for _, p := range parts {
		out.Rows = append(out.Rows, p.Rows...)
	}
	sort.Slice(out.Rows, func(a, b int) bool { return out.Rows[a].Point < out.Rows[b].Point })
	return out, nil
}

// missingError names the missing points, and the missing shards when every part is a
// shard of the same count.
func missingError(parts []*Result, missing []int, n int) error {
	pts := make([]string, len(missing))
	for i, k := range missing {
		pts[i] = fmt.Sprint(k)
	}
	count := parts[0].Shard.Count
	same := true
	have := map[int]bool{}
	for _, p := range parts {
		same = same && p.Shard.Count == count
		have[p.Shard.Index] = true
	}
	if same && count > 1 {
		var shards []string
		for i := 0; i < count; i++ {
			if !have[i] && i < n {
				shards = append(shards, fmt.Sprintf("%d/%d", i, count))
			}
		}
		return fmt.Errorf("missing %d of %d points (shard %s not given): %s", len(missing), n,
			strings.Join(shards, ", "), listed(pts))
	}
	return fmt.Errorf("missing %d of %d points: %s", len(missing), n, listed(pts))
}

// listed joins the first maxListed items and counts the rest.
func listed(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:maxListed], "; ") + fmt.Sprintf("; … and %d more", len(items)-maxListed)
}

// specDiff names the fields in which two specs differ ("" if none), e.g. "axes, base".
func specDiff(a, b Spec) string {
	var out []string
	for _, f := range []struct {
		name string
		a, b any
	}{{"kind", a.Kind, b.Kind}, {"base configuration", a.Base, b.Base}, {"axes", a.Axes, b.Axes},
		{"flashbench parameters", a.Flashbench, b.Flashbench}, {"run parameters", a.Run, b.Run},
		{"percentiles", a.Percentiles, b.Percentiles}} {
		ja, _ := json.Marshal(f.a)
		jb, _ := json.Marshal(f.b)
		if !bytes.Equal(ja, jb) {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, ", ")
}
