package runner

import (
	"runtime"
	"sync"

	"github.com/fastdrain-sim/fastdrain/internal/parallel"
)

// Parallel calls job(0) … job(n−1) on up to workers goroutines (0 = one per CPU). Each job
// must write only its own slot of the caller's results, so the outcome does not depend on
// workers or scheduling. progress, if set, is called after each job with the number done,
// serialised. Simulations themselves stay serial: each job runs its own engine.
func Parallel(n, workers int, progress func(done int), job func(i int)) {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var mu sync.Mutex
	done := 0
	parallel.For(n, workers, func(j int) {
		job(j)
		if progress != nil {
			mu.Lock()
			done++
			progress(done)
			mu.Unlock()
		}
	})
}

// RunAll runs independent experiments on up to workers goroutines (0 = one per CPU) and
// returns their results in the order of opts. Each run has its own engine, so results do
// not depend on workers or scheduling.
func RunAll(opts []Options, workers int, progress func(done int)) ([]*Result, []error) {
	res := make([]*Result, len(opts))
	errs := make([]error, len(opts))
	Parallel(len(opts), workers, progress, func(i int) { res[i], errs[i] = Run(opts[i]) })
	return res, errs
}
