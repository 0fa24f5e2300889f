package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/stretchr/testify/require"
)

// The README's and the docs' examples, run as written so they cannot rot.
//
// TestDocExamples reads every fenced code block of README.md and docs/*.md, takes each line
// that runs the program ("go run ./cmd/fastdrain …", "fastdrain …"; backslash continuations
// joined, comments dropped) and runs it in-process, in document order, from a scratch
// directory that links to the repository's top-level entries, so relative paths resolve as
// in a fresh clone and outputs land in the scratch directory. A batch script's block is run
// the way its scheduler would: once per task of its "#SBATCH --array=A-B" with the Slurm
// variables set ($1 stands for the array job's id in the merge script).
//
// Two tiers (docs/testing.md). The default tier checks every command without simulating:
// the subcommand and every flag parse, the positional arguments are accepted, and every
// input file it names exists (configuration, sweep, job, plan and trace files; outputs of an
// earlier command in the same document are not inputs). It then runs the commands whose
// work is small at short settings (exampleQuick). The long tier (FASTDRAIN_LONG=1) runs every
// command. Both shorten the simulated work where the command has a knob for it
// (shortenExample: --duration 50ms, 2,000 flashbench operations, fio's --runtime 50ms, 500
// replayed requests, uFLIP counts divided by 64 over 16 MiB), so the examples' own durations
// are checked by parsing and the programs' paths by running.
func TestDocExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	files := append([]string{filepath.Join(root, "README.md")}, docs...)
	long := testtier.Long()
	total := 0
	for _, f := range files {
		ex, err := docExamples(f)
		require.NoError(t, err)
		if len(ex) == 0 {
			continue
		}
		total += len(ex)
		rel, _ := filepath.Rel(root, f)
		t.Run(rel, func(t *testing.T) {
			scratch := scratchClone(t, root)
			t.Chdir(scratch)
			for _, k := range slurmVars {
				t.Setenv(k, "") // restored when the test ends
				os.Unsetenv(k)
			}
			defer func() { require.NoError(t, report.SetPNGDPI(report.DefaultPNGDPI)) }()
			for _, e := range ex {
				for _, env := range e.tasks() {
					name := fmt.Sprintf("line %d", e.line)
					if task, ok := env["SLURM_ARRAY_TASK_ID"]; ok {
						name += " task " + task
					}
					args, redirect, err := expandExample(e.text, env)
					require.NoError(t, err, "%s:%d: %s", rel, e.line, e.text)
					if err := checkExample(args, env); err != nil {
						t.Errorf("%s:%d: %s\n%v", rel, e.line, e.text, err)
						continue
					}
					if !long && !exampleQuick(args) || onDevice(args) {
						continue
					}
					for _, k := range slurmVars {
						if v, ok := env[k]; ok {
							os.Setenv(k, v)
						} else {
							os.Unsetenv(k)
						}
					}
					short := shortenExample(args)
					t0 := time.Now()
					out, err := runExample(short, redirect)
					if err != nil && slices.Contains(short, "--target") && strings.Contains(err.Error(), "O_DIRECT") {
						t.Logf("%s:%d: the scratch directory's file system has no O_DIRECT: %v", rel, e.line, err)
						continue
					}
					if err != nil {
						t.Errorf("%s:%d (%s): %s\nran: %s\n%v\n%s", rel, e.line, name, e.text, strings.Join(short, " "), err, tail(out, 20))
						continue
					}
					t.Logf("%s:%d %s: %.1fs", rel, e.line, strings.Join(short, " "), time.Since(t0).Seconds())
				}
			}
		})
	}
	require.Greater(t, total, 30, "the README and docs hold the examples")
}

// docExample is one command line of a fenced code block.
type docExample struct {
	line  int    // of its first line in the file
	text  string // the command, continuations joined and the comment dropped
	array []int  // the Slurm array's task ids of its block (nil: not an array script)
}

// tasks returns the environment of each run of the example: one per Slurm array task, or
// one plain run.
func (e docExample) tasks() []map[string]string {
	if e.array == nil {
		return []map[string]string{exampleEnv(nil, 0)}
	}
	var out []map[string]string
	for _, id := range e.array {
		out = append(out, exampleEnv(e.array, id))
	}
	return out
}

// exampleEnv is what the documents' scripts may expand: a Slurm array task's variables
// (task id of the array ids), the CPUs a task has, and $1, the merge script's argument.
func exampleEnv(array []int, id int) map[string]string {
	env := map[string]string{"SLURM_CPUS_PER_TASK": "1", "SLURM_ARRAY_JOB_ID": "4242", "1": "4242"}
	if array != nil {
		step := 1
		if len(array) > 1 {
			step = array[1] - array[0]
		}
		env["SLURM_ARRAY_TASK_ID"] = strconv.Itoa(id)
		env["SLURM_ARRAY_TASK_MIN"] = strconv.Itoa(array[0])
		env["SLURM_ARRAY_TASK_MAX"] = strconv.Itoa(array[len(array)-1])
		env["SLURM_ARRAY_TASK_STEP"] = strconv.Itoa(step)
		env["SLURM_ARRAY_TASK_COUNT"] = strconv.Itoa(len(array))
	}
	return env
}

// slurmVars are the variables a Slurm array task's environment holds that the program reads.
var slurmVars = []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP",
	"SLURM_ARRAY_TASK_COUNT", "SLURM_CPUS_PER_TASK", "SLURM_ARRAY_JOB_ID", "JOB_COMPLETION_INDEX"}

var sbatchArray = regexp.MustCompile(`^#SBATCH\s+--array=(\d+)-(\d+)(?::(\d+))?\b`)

// docExamples returns the program's command lines in the fenced code blocks of a Markdown
// file.
func docExamples(path string) ([]docExample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []docExample
	var array []int
	in := false
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			in, array = !in, nil
			continue
		}
		if !in {
			continue
		}
		if m := sbatchArray.FindStringSubmatch(trimmed); m != nil {
			lo, _ := strconv.Atoi(m[1])
			hi, _ := strconv.Atoi(m[2])
			step := 1
			if m[3] != "" {
				step, _ = strconv.Atoi(m[3])
			}
			for id := lo; id <= hi; id += step {
				array = append(array, id)
			}
			continue
		}
		start := n
		for strings.HasSuffix(line, `\`) && sc.Scan() {
			n++
			line = strings.TrimSuffix(line, `\`) + " " + strings.TrimSpace(sc.Text())
		}
		text := strings.TrimSpace(dropComment(line))
		if isProgram(text) {
			out = append(out, docExample{line: start, text: text, array: array})
		}
	}
	return out, sc.Err()
}

// isProgram reports whether a command line runs this program.
func isProgram(text string) bool {
	return strings.HasPrefix(text, "go run ./cmd/fastdrain") || strings.HasPrefix(text, "fastdrain ")
}

// dropComment removes a shell comment: a # that starts a word outside quotes.
func dropComment(line string) string {
	var q rune
	for i, r := range line {
		switch {
		case q != 0:
			if r == q {
				q = 0
			}
		case r == '\'' || r == '"':
			q = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// expandExample splits a command line as a POSIX shell would for the forms the documents
// use: quotes, $VAR and ${VAR} from env, globs, and a "> FILE" redirection of standard
// output. It returns the program's arguments (without "go run ./cmd/fastdrain" or
// "fastdrain") and the file standard output goes to ("" for none).
func expandExample(text string, env map[string]string) (args []string, redirect string, err error) {
	var words []string
	var cur strings.Builder
	inWord, glob := false, false
	var globs []bool
	var q rune
	expand := func(s string, i int) int { // $NAME or ${NAME} at s[i]
		j := i + 1
		var name string
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				err = fmt.Errorf("unclosed ${ in %q", s)
				return len(s)
			}
			name, j = s[j+1:j+k], j+k+1
		} else {
			for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			name = s[i+1 : j]
		}
		v, ok := env[name]
		if !ok {
			err = fmt.Errorf("$%s is not set for the examples (exampleEnv)", name)
		}
		cur.WriteString(v)
		inWord = true
		return j
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
			} else {
				cur.WriteByte(c)
			}
			i++
		case q == '"':
			switch c {
			case '"':
				q = 0
				i++
			case '$':
				i = expand(text, i)
			default:
				cur.WriteByte(c)
				i++
			}
		case c == '\'' || c == '"':
			q, inWord = rune(c), true
			i++
		case c == '$':
			i = expand(text, i)
		case c == ' ' || c == '\t':
			if inWord {
				words, globs = append(words, cur.String()), append(globs, glob)
				cur.Reset()
				inWord, glob = false, false
			}
			i++
		default:
			if strings.IndexByte("*?[", c) >= 0 {
				glob = true
			}
			cur.WriteByte(c)
			inWord = true
			i++
		}
	}
	if q != 0 {
		return nil, "", fmt.Errorf("unclosed quote in %q", text)
	}
	if inWord {
		words, globs = append(words, cur.String()), append(globs, glob)
	}
	if err != nil {
		return nil, "", err
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == ">" && i+1 < len(words):
			redirect = words[i+1]
			i++
			continue
		case strings.HasPrefix(w, ">") && len(w) > 1:
			redirect = w[1:]
			continue
		case globs[i]:
			m, _ := filepath.Glob(w)
			if len(m) > 0 {
				args = append(args, m...)
				continue
			}
		}
		args = append(args, w)
	}
	switch {
	case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/fastdrain":
		args = args[3:]
	case len(args) >= 1 && args[0] == "fastdrain":
		args = args[1:]
	default:
		return nil, "", fmt.Errorf("not a fastdrain command: %q", text)
	}
	if redirect == "/dev/null" {
		redirect = os.DevNull
	}
	return args, redirect, nil
}

// inputFlags are the flags whose value is a file the command reads.
var inputFlags = []string{"config", "file", "apps", "plan"}

// checkExample parses args as the program would, without running it: the subcommand exists,
// every flag parses, the positional arguments are accepted, and every file named as an input
// exists (an output of an earlier example of the same document included, since they run in
// order; in the default tier an output of an example that was only checked may be missing,
// so merge's shard files are not checked there).
func checkExample(args []string, env map[string]string) error {
	root := newRoot()
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return err
	}
	var inputs []string
	for _, name := range inputFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			if v, err := cmd.Flags().GetStringArray(name); err == nil {
				inputs = append(inputs, v...)
			} else {
				inputs = append(inputs, f.Value.String())
			}
		}
	}
	pos := cmd.Flags().Args()
	switch cmd.CommandPath() {
	case "fastdrain replay", "fastdrain fio", "fastdrain config validate":
		inputs = append(inputs, pos...)
	case "fastdrain config import":
		if len(pos) > 1 {
			inputs = append(inputs, pos[1:]...)
		}
	}
	for _, p := range inputs {
		if strings.HasPrefix(p, "results/") {
			continue // an earlier example's output under the results root: there only when it ran
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("input file: %w", err)
		}
	}
	if strings.Contains(cmd.CommandPath(), "sweep") && slices.Contains(args, "auto") && env["SLURM_ARRAY_TASK_ID"] == "" &&
		slices.Contains(args, "--shard") {
		return fmt.Errorf("--shard auto outside a Slurm array script: the example cannot run as written")
	}
	return nil
}

// quickCommands are the commands the default tier runs: those whose work at the shortened
// settings takes well under a second (the rest build and run whole co-located machines,
// or every uFLIP micro-benchmark, and run in the long tier).
var quickCommands = []string{"fastdrain scenarios", "fastdrain version", "fastdrain config list", "fastdrain config show",
	"fastdrain config diff", "fastdrain config validate", "fastdrain config import", "fastdrain flashbench",
	"fastdrain merge", "fastdrain fio"}

// exampleQuick reports whether the default tier runs args.
func exampleQuick(args []string) bool {
	cmd, rest, err := newRoot().Find(args)
	if err != nil {
		return false
	}
	p := cmd.CommandPath()
	if p == "fastdrain sweep" {
		// A flashbench sweep of 2,000 operations a point is quick; run points are not.
		return slices.Contains(rest, "flashbench") || sweepFileKind(rest) == "flashbench"
	}
	return slices.Contains(quickCommands, p) && !(p == "fastdrain fio" && slices.Contains(rest, "fastdrain-tlc"))
}

// sweepFileKind returns the kind: of a sweep's --file, "" when there is none.
func sweepFileKind(args []string) string {
	i := slices.Index(args, "--file")
	if i < 0 || i+1 >= len(args) {
		return ""
	}
	b, err := os.ReadFile(args[i+1])
	if err != nil {
		return ""
	}
	if m := regexp.MustCompile(`(?m)^kind:\s*(\S+)`).FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return ""
}

// shortenExample returns args with the simulated work cut down where the command has a knob
// for it: --duration 50ms for everything that runs co-located applications (it overrides
// --quick and --full, which still choose their preset), 2,000 flashbench operations (500 per
// sweep point), fio's --runtime 50ms, 500 replayed requests, uFLIP's counts divided by 64
// over 16 MiB with one run per point and automatic counts capped at 200 IOs.
func shortenExample(args []string) []string {
	cmd, rest, err := newRoot().Find(args)
	if err != nil {
		return args
	}
	out := slices.Clone(args)
	set := func(flag, value string) {
		for i := 0; i < len(out); i++ {
			if out[i] == flag && i+1 < len(out) {
				out[i+1] = value
				return
			}
			if strings.HasPrefix(out[i], flag+"=") {
				out[i] = flag + "=" + value
				return
			}
		}
		out = append(out, flag, value)
	}
	switch cmd.CommandPath() {
	case "fastdrain", "fastdrain compare", "fastdrain run", "fastdrain figures":
		set("--duration", "50ms")
	case "fastdrain sweep":
		if slices.Contains(rest, "flashbench") || sweepFileKind(rest) == "flashbench" {
			set("--ops", "500")
		} else {
			set("--duration", "50ms")
		}
	case "fastdrain flashbench":
		set("--ops", "2000")
	case "fastdrain fio":
		set("--runtime", "50ms") // fio's own cap: a job without one (jesd219) writes the whole device
	case "fastdrain replay":
		set("--max", "500")
	case "fastdrain uflip":
		if slices.Contains(rest, "--target") {
			set("--target", "uflip-target.img") // in the scratch directory, never the example's path
		}
		set("--span", "16MiB")
		set("--nbrun", "1")
		if slices.Contains(rest, "--auto") {
			set("--auto-cap", "200")
		} else {
			set("--io-divisor", "64")
		}
	}
	return out
}

// onDevice reports whether an example benchmarks a real block device (uflip --target
// /dev/…): it is checked, never run.
func onDevice(args []string) bool {
	i := slices.Index(args, "--target")
	return i >= 0 && i+1 < len(args) && strings.HasPrefix(args[i+1], "/dev/")
}

// runExample runs the program in-process with args, its standard output going to the file
// redirect when set; it returns what was printed.
func runExample(args []string, redirect string) (string, error) {
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	if redirect != "" {
		if werr := os.WriteFile(redirect, out.Bytes(), 0o644); werr != nil && err == nil {
			err = werr
		}
	}
	return out.String() + errOut.String(), err
}

// scratchClone returns a new directory that links to every top-level entry of the
// repository, so the documents' relative paths resolve there and their outputs stay there.
func scratchClone(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() == ".git" || e.Name() == "results" {
			continue
		}
		require.NoError(t, os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())))
	}
	return dir
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
