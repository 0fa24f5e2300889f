package ftl

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxPreconditionWorkers bounds the goroutines that fill a closed-form precondition: the
// work is memory-bound, and more would mostly contend for memory bandwidth.
const maxPreconditionWorkers = 8

// preconditionWorkers returns how many goroutines fill a closed-form precondition: one per
// processor the Go scheduler runs on (GOMAXPROCS), at most maxPreconditionWorkers.
func preconditionWorkers() int {
	return min(runtime.GOMAXPROCS(0), maxPreconditionWorkers)
}

// runTasks runs every task once, on up to workers goroutines that take them in order, and
// returns when all are done. The tasks must be independent (each writes its own entries);
// with one worker or one task they run in order on the calling goroutine. It is for
// building a machine only: nothing here runs under the engine.
func runTasks(tasks []func(), workers int) {
	if workers <= 1 || len(tasks) <= 1 {
		for _, t := range tasks {
			t()
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(tasks)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(tasks)); i = next.Add(1) - 1 {
				tasks[i]()
			}
		})
	}
	wg.Wait()
}
