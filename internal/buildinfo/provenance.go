package buildinfo

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Provenance under "go run": go build stamps the VCS revision into a binary built in a git
// checkout, but go run and go test do not, so a result made with the README's commands would
// record no revision. A binary the go command built into its work directory for go run or
// go test (…/go-build…/exe/NAME or …/NAME.test) was built from the source tree just now, so
// the revision and the dirty state are read from that tree with git, and the command line
// the user typed is the go command's own (its parent process, "go run ./cmd/fastdrain …").

// goBuildWorkPath matches an executable in the go command's work directory ($TMPDIR/go-buildN):
// go run's $WORK/b001/exe/NAME and go test's $WORK/b001/NAME.test.
var goBuildWorkPath = regexp.MustCompile(`(^|/)go-build[0-9]+/b[0-9]+/(exe/[^/]+|[^/]+\.test)$`)

// goBuildWork reports whether the executable at path was built by go run or go test into the
// go command's temporary work directory.
func goBuildWork(path string) bool { return goBuildWorkPath.MatchString(filepath.ToSlash(path)) }

// sourceDir is the directory this file was compiled from ("" when the build trimmed paths).
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(file)
}

// fromRepository fills the revision, its commit time and the dirty state from the git
// checkout dir, the way go build's stamp reads them (git status --porcelain: any change,
// untracked files included, but not ignored ones such as results/). It leaves b as it is
// when dir is not in a git checkout or git is not installed.
func (b *Info) fromRepository(dir string) {
	git := func(args ...string) (string, bool) {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		return strings.TrimSpace(string(out)), err == nil
	}
	log, ok := git("-c", "log.showsignature=false", "log", "-1", "--format=%H:%ct")
	rev, ct, found := strings.Cut(log, ":")
	if !ok || !found || rev == "" {
		return
	}
	status, ok := git("status", "--porcelain")
	if !ok {
		return
	}
	b.Revision, b.Modified, b.FromRepository = rev, status != "", true
	if s, err := strconv.ParseInt(ct, 10, 64); err == nil {
		b.Time = time.Unix(s, 0).UTC().Format(time.RFC3339)
	}
}

// CommandLine returns the command as the user typed it, each argument quoted for a POSIX
// shell where it needs to be: for a binary go run built, the go command's own line read
// from its process (Linux's /proc/PID/cmdline); else the program's arguments as given.
func CommandLine() string {
	args := os.Args
	if exe, err := os.Executable(); err == nil && goBuildWork(exe) {
		if parent := parentArgs(); len(parent) > 2 && filepath.Base(parent[0]) == "go" && parent[1] == "run" {
			args = parent
		} else if len(args) > 0 {
			args = append([]string{filepath.Base(args[0])}, args[1:]...)
		}
	}
	return shellQuote(args)
}

// parentArgs returns the parent process's arguments, or nil where they cannot be read.
func parentArgs() []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(string(bytes.TrimSuffix(b, []byte{0})), "\x00")
}

// shellQuote joins args into one line a POSIX shell splits back into the same arguments.
func shellQuote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'$\\`*?[]{}()<>|&;!#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
