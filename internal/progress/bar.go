package progress

import (
	"io"
	"os"

	"github.com/cheggaaa/pb/v3"
	"github.com/mattn/go-isatty"
)

// Bar returns a progress callback of total jobs and its finish function: a bar drawn on
// stderr when it is a terminal, a line logged every Every when it is a file or a pipe
// (Log), and nil when it is neither (a test's buffer).
func Bar(stderr io.Writer, total int) (func(int), func()) {
	f, ok := stderr.(*os.File)
	if !ok {
		return nil, func() {}
	}
	if !isatty.IsTerminal(f.Fd()) {
		return Log(f, total, Every)
	}
	bar := pb.New(total)
	bar.SetWriter(f)
	bar.Start()
	return func(done int) { bar.SetCurrent(int64(done)) }, func() { bar.Finish() }
}

// Growing is Bar for a command that learns its total only as the work starts: a callback
// taking the count done and the total, and its finish function; nil when Bar shows nothing.
func Growing(stderr io.Writer) (func(done, total int), func()) {
	tick, finish := Bar(stderr, 1)
	if tick == nil {
		return nil, finish
	}
	var known int
	return func(done, total int) {
		if known == 0 {
			known = total
			finish()
			tick, finish = Bar(stderr, total)
		}
		tick(done)
	}, func() { finish() }
}
