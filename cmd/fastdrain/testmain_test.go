package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/cliflags"
)

// TestMain points --out's default at a temporary directory, so that commands the tests run
// without --out or --no-files write there and not into the package.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fastdrain-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cliflags.DefaultOut = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
