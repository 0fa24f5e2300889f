package sampletraces

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRepositoryTraces checks that the traces the default tier needs are in the repository
// itself, so go test ./... passes in a clone with nothing beside it.
func TestRepositoryTraces(t *testing.T) {
	for _, name := range []string{TPCC, CloudPhysics} {
		p := filepath.Join(Dir(), name)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if got := Find(name); got != p {
			t.Errorf("Find(%s) = %q, want the repository's copy %q", name, got, p)
		}
	}
	if _, err := os.Stat(filepath.Join(Root(), "go.mod")); err != nil {
		t.Errorf("Root() = %s holds no go.mod: %v", Root(), err)
	}
}
