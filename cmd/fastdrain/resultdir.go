package main

import (
	"path/filepath"
	"strings"

	"github.com/fastdrain-sim/fastdrain/report"
)

// Results never replace earlier results silently. Two rules, by what the directory is:
//
//   - run, compare (the main job), figures and uflip write a directory of results under
//     --out (default results/) that the command names itself. Each run gets a directory of
//     its own, named for the command, preset, variant or scenario and simulated duration
//     (results/compare/fastdrain-tlc-10s), with -2, -3, … added when that name is taken.
//     These are the commands a user repeats with other flags, one README example after
//     another; refusing would stop the second, and a time stamp in the name would make
//     the path differ between two runs of the same command in fresh clones.
//   - sweep and merge write files whose paths the user or a batch script names and other
//     commands read back (merge's shard-*-of-N.json): those paths must stay predictable,
//     so an existing file is replaced only by the same sweep (a retried array task writes
//     the same bytes) or with --force; otherwise the command refuses before it runs.

// runDir creates and returns this run's own directory under --out/COMMAND, named name
// (report.NewResultDir: -2, -3, … when taken), or "" when the command writes no files.
func (o *outputFlags) runDir(name string) (string, error) {
	d := o.dir()
	if d == "" {
		return "", nil
	}
	return report.NewResultDir(d, name)
}

// fileStem is a file's name without its directory and extension, for a results directory's
// name: testdata/traces/mqsim_tpcc-small.trace → mqsim_tpcc-small.
func fileStem(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
