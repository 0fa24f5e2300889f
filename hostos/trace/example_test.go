package trace_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastdrain-sim/fastdrain/hostos/trace"
)

// Example reads a blkparse trace: the D events become requests, the Q and m events and the
// summary are ignored, and times are relative to the first request.
func Example() {
	text := `  8,16   5        1     0.000100000 18615  Q   R 1444645666 + 256 [java]
  8,16   5        2     0.000200000 18615  D   R 1444645666 + 256 [java]
  8,16   5        0     0.000250000     0  m   N cfq18615S / dispatch_insert
  8,16   2        3     0.001200000  1199  D WFS 1950885322 + 8 [jbd2/sdb1-8]
  8,16   2        4     0.001300000  1199  D  FN [jbd2/sdb1-8]
CPU5 (8,16):
 Reads Queued:           1,      128KiB	 Writes Queued:           0,        0KiB
`
	rd, err := trace.NewReader(strings.NewReader(text), "blk.txt", trace.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("format:", rd.Format())
	for {
		req, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-6s %-5s off=%d size=%d flags=[%s]\n", req.Time, req.Op, req.Offset, req.Size, req.Flags)
	}
	st := rd.Stats()
	fmt.Printf("lines=%d requests=%d ignored=%d\n", st.Lines, st.Requests, st.Ignored)
	// Output:
	// format: blkparse
	// 0s     read  off=739658580992 size=131072 flags=[]
	// 1ms    write off=998853284864 size=4096 flags=[fua|sync]
	// 1.1ms  flush off=0 size=0 flags=[preflush]
	// lines=7 requests=3 ignored=4
}
