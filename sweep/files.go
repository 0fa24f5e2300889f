package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GuardFile checks, before shard sh of sweep s runs, that its result file in dir
// (sweep.json or shard-I-of-N.json) either does not exist or holds the same shard of the
// same sweep (CheckReplace): results never replace another sweep's silently.
func GuardFile(dir string, s Spec, sh Shard) error {
	if _, err := os.Stat(filepath.Join(dir, (&Result{Shard: sh}).FileBase()+".json")); err != nil {
		return nil
	}
	sealed, err := Seal(s)
	if err != nil {
		return err
	}
	return GuardSealed(dir, sealed, sh)
}

// GuardSealed is GuardFile for a sweep already sealed (Seal; a merged Result's Spec): the
// result file of shard sh in dir, if there is one, must hold the same shard of the same
// sweep (CheckReplace).
func GuardSealed(dir string, sealed Spec, sh Shard) error {
	p := filepath.Join(dir, (&Result{Shard: sh}).FileBase()+".json")
	if _, err := os.Stat(p); err != nil {
		return nil
	}
	if err := CheckReplace(p, sealed, sh); err != nil {
		return fmt.Errorf("%w: give another --out, or --force to replace it", err)
	}
	return nil
}

// MergeFiles reads the shard files at paths (ReadFile) and joins them (Merge); every file
// that cannot be read is reported.
func MergeFiles(paths []string) (*Result, error) {
	var parts []*Result
	var errs []error
	for _, a := range paths {
		r, err := ReadFile(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		parts = append(parts, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return Merge(parts, paths)
}

// Heading is the line before a sweep's table: the kind of its points, the base, the grid
// (each axis's key and size) and how many points shard sh ran (rows).
func (s Spec) Heading(sh Shard, rows int) string {
	name := s.Base.Preset
	if name == "" {
		name = "defaults"
	}
	if s.Base.Variant != "" {
		name += "/" + s.Base.Variant
	}
	axes := make([]string, len(s.Axes))
	for i, a := range s.Axes {
		axes[i] = fmt.Sprintf("%s (%d)", a.Key, len(a.Values))
	}
	return fmt.Sprintf("sweep of %s points on %s: %d grid points (%s), shard %s runs %d",
		s.Kind, name, s.Size(), strings.Join(axes, " × "), sh, rows)
}
