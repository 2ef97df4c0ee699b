//go:build !js

package utility

import (
	"context"
	"sync"
)

// runPool is the worker pool of the utility study (UtilityBench) and of the
// latent check (LatentDirect): workers goroutines run do(ctx, i) for the jobs
// i = 0 … n−1, fed in order. do runs concurrently and returns its result as
// commit, which runs under the pool's lock (commits are serialised, in the
// order the jobs finish), after do's error, if any, is recorded. The first
// error cancels ctx for the jobs still running and stops the feed; runPool
// returns it, or else ctx's own error (the caller's cancellation).
func runPool(ctx context.Context, workers, n int, do func(ctx context.Context, i int) (commit func(), err error)) error {
	var mu sync.Mutex
	var firstErr error
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				commit, err := do(cctx, i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				if commit != nil {
					commit()
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range n {
		select {
		case ch <- i:
		case <-cctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
