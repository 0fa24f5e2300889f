package sampletraces

import (
	"os"
	"path/filepath"
	"testing"
)

// Names of the sample traces.
const (
	// TPCC is MQSim's TPC-C trace (DiskSim ASCII), in the repository.
	TPCC = "mqsim_tpcc-small.trace"
	// CloudPhysics is libCacheSim's vSCSI CSV sample, in the repository.
	CloudPhysics = "libcachesim_cloudPhysicsIO.csv"
	// Heimdall is an MSR Cambridge window in the replayer format, used only when
	// ../shared/traces is present (no licence stated upstream).
	Heimdall = "heimdall_msr.cut.per_10k.rw_40_60.1370.trace"
	// Apress is a blkparse text trace, used only when ../shared/traces is present (its
	// licence forbids commercial redistribution).
	Apress = "apress_mbpa_blktrace.txt"
)

// Root returns the repository's root directory: the nearest directory at or above the
// working directory (a test's package directory) that holds go.mod.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// Dir is the repository's folder of sample traces.
func Dir() string { return filepath.Join(Root(), "testdata", "traces") }

// Optional is the folder beside the checkout that may hold the optional samples.
func Optional() string { return filepath.Join(Root(), "..", "shared", "traces") }

// Find returns the path of the named sample: the repository's copy, else the optional
// folder's, else "" (the sample is not available).
func Find(name string) string {
	for _, d := range []string{Dir(), Optional()} {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// InRepository reports whether the named sample is one the repository carries.
func InRepository(name string) bool { return name == TPCC || name == CloudPhysics }

// Path returns the path of the named sample. A repository sample that is missing fails t; an
// optional one skips it.
func Path(t testing.TB, name string) string {
	t.Helper()
	p := Find(name)
	switch {
	case p != "":
		return p
	case InRepository(name):
		t.Fatalf("sample trace %s is missing from %s", name, Dir())
	default:
		t.Skipf("sample trace %s is not in the repository and %s is absent", name, Optional())
	}
	return ""
}
