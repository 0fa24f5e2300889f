package testtier

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long tier on: FASTDRAIN_LONG=1.
const Env = "FASTDRAIN_LONG"

// Long reports whether the long tier runs: FASTDRAIN_LONG is "1" and -short is not given.
func Long() bool { return os.Getenv(Env) == "1" && !testing.Short() }

// SkipUnlessLong skips t unless the long tier runs, saying what the test is and how to run
// it. Every long-tier test calls it first.
func SkipUnlessLong(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("long tier (%s); skipped with -short", what)
	}
	if os.Getenv(Env) != "1" {
		t.Skipf("long tier (%s); run it with %s=1", what, Env)
	}
}
