// Command fastdrain is the fastdrain simulator's command-line program.
//
// Until the full-system run exists, running it with no arguments runs flashbench on the
// default flash array.
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
