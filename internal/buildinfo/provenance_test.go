package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoBuildWork: the executables go run and go test build into the go command's work
// directory, and nothing else.
func TestGoBuildWork(t *testing.T) {
	require.True(t, goBuildWork("/tmp/go-build3397013841/b001/exe/fastdrain"), "go run")
	require.True(t, goBuildWork("/tmp/go-build1/b001/fastdrain.test"), "go test")
	require.False(t, goBuildWork("/tmp/go-build1/b001/exe/sub/fastdrain"))
	require.False(t, goBuildWork("/usr/local/bin/fastdrain"))
	require.False(t, goBuildWork("/home/me/go-builds/exe/fastdrain.v2"), "a directory merely named like it")
}

// TestShellQuote: the line splits back into the same arguments in a POSIX shell.
func TestShellQuote(t *testing.T) {
	args := []string{"go", "run", "./cmd/fastdrain", "run", "--set", "a=b c", "--scenario", "db-s+ungzip", "it's", "", "x*"}
	line := shellQuote(args)
	require.Equal(t, `go run ./cmd/fastdrain run --set 'a=b c' --scenario db-s+ungzip 'it'\''s' '' 'x*'`, line)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to split the line")
	}
	out, err := exec.Command(sh, "-c", "f() { for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done; }; f "+line).Output()
	require.NoError(t, err)
	var want strings.Builder
	for _, a := range args {
		want.WriteString("[" + a + "]\n")
	}
	require.Equal(t, want.String(), string(out))
}

// TestFromRepository reads a throw-away git checkout: its revision, its commit time, clean,
// then dirty with an untracked file, but not with an ignored one.
func TestFromRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-12-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-12-01T10:00:00Z",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("results/\n"), 0o644))
	git("add", ".gitignore")
	git("commit", "-q", "-m", "first")
	head := git("rev-parse", "HEAD")

	var b Info
	b.fromRepository(dir)
	require.Equal(t, Info{Revision: head, Time: "2026-12-01T10:00:00Z", FromRepository: true}, b)
	require.Equal(t, "source tree", b.From())

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "results"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "results", "x"), nil, 0o644))
	b = Info{}
	b.fromRepository(dir)
	require.False(t, b.Modified, "ignored results do not make the tree dirty")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "new.go"), nil, 0o644))
	b = Info{}
	b.fromRepository(dir)
	require.True(t, b.Modified, "an untracked source file does, as in go build's stamp")

	b = Info{}
	b.fromRepository(t.TempDir())
	require.Equal(t, Info{}, b, "not a checkout: nothing is filled in")
}
