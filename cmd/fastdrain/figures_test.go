package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFiguresQuickPlatform: --quick runs on the scaled platform and says so under the
// headline; naming a preset keeps it and drops the note. One 200 ms Vanilla run each (Fig.
// 1b needs only Apache-U's).
func TestFiguresQuickPlatform(t *testing.T) {
	out, err := run("figures", "--quick", "--duration", "200ms", "--only", "fig1b", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "FastDrain paper reproduction on fastdrain-tlc-8x, 200ms simulated per experiment\n")
	require.Contains(t, out, "quick mode: fastdrain-tlc-8x is fastdrain-tlc scaled down 8× as a whole")
	out, err = run("figures", "--quick", "--preset", "fastdrain-small", "--duration", "200ms", "--only", "fig1b", "--no-files")
	require.NoError(t, err)
	require.Contains(t, out, "FastDrain paper reproduction on fastdrain-small, 200ms")
	require.NotContains(t, out, "quick mode:")
	_, err = run("figures", "--quick", "--variant", "fd", "--no-files")
	require.ErrorContains(t, err, "--variant is not allowed")
}
