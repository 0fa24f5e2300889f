package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Every is how often a long command logs its progress when standard error is a file
// or a pipe rather than a terminal (nohup, CI, a Slurm job's output file).
const Every = 30 * time.Second

// Log returns a progress callback and a finish function that log one line to w
// every `every` of wall time: jobs done out of total, time elapsed and, once a job has
// finished, about how long the rest will take at the rate so far. A command that ends before
// the first tick logs nothing; one that logged lines ends with a last line. The wall clock
// is read here, outside the model: the results do not depend on it.
func Log(w io.Writer, total int, every time.Duration) (func(int), func()) {
	start := time.Now()
	var mu sync.Mutex
	done, lines := 0, 0
	line := func(now time.Time) {
		el := now.Sub(start)
		msg := fmt.Sprintf("progress: %d of %d done, %s elapsed", done, total, roundWall(el))
		if done > 0 && done < total {
			left := time.Duration(float64(el) / float64(done) * float64(total-done))
			msg += fmt.Sprintf(", about %s left", roundWall(left))
		}
		fmt.Fprintln(w, msg)
		lines++
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				mu.Lock()
				line(now)
				mu.Unlock()
			}
		}
	}()
	update := func(n int) {
		mu.Lock()
		done = n
		mu.Unlock()
	}
	var once sync.Once
	finish := func() {
		once.Do(func() {
			close(stop)
			wg.Wait()
			mu.Lock()
			if lines > 0 {
				line(time.Now())
			}
			mu.Unlock()
		})
	}
	return update, finish
}

// roundWall rounds a wall-clock duration for a log line: whole seconds, or whole minutes
// past an hour.
func roundWall(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}
