// Command fastdrain is the fastdrain simulator's command-line program. With no
// subcommand it runs the headline FastDrain comparison; "fastdrain --help" lists the
// others (run, figures, compare, uflip, replay, fio, sweep, flashbench, config, …).
//
// The build uses default.pgo, beside this file, for profile-guided optimization (Go's
// -pgo=auto default); docs/performance.md says how it is made.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "fastdrain:", err)
		os.Exit(1)
	}
}
