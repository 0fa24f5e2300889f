package rsschild

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Config splits a child's configuration "preset;set;set…" into the preset and its --set
// overrides, with a memory limit the large machines fit (limits.memory=64GiB).
func Config(spec string) (string, []string) {
	parts := strings.Split(spec, ";")
	return parts[0], append(parts[1:], "limits.memory=64GiB")
}

// Run runs test (a test function's name in the calling binary) in a child process with
// env=spec, and returns the "key N" lines it printed as a map; the child must succeed.
func Run(t *testing.T, test, env, spec string) map[string]int64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+spec)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got := map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if n, err := strconv.ParseInt(v, 10, 64); ok && err == nil {
			got[k] = n
		}
	}
	return got
}
