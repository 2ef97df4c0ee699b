//go:build !js

// Package headless starts Debian's chromium for dpsample's browser tests
// (wasm/tools/e2e) and benchmarks (wasm/tools/bench), with one set of flags: headless,
// no sandbox (CI runs as root), and none of the background networking that a
// closed machine would refuse.
package headless

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Start launches chromium from PATH and returns a chromedp browser context
// (its first tab is started) and the function that closes the browser.
func Start() (context.Context, context.CancelFunc, error) {
	path, err := exec.LookPath("chromium")
	if err != nil {
		return nil, nil, fmt.Errorf("chromium not found on PATH (Debian: apt-get install chromium): %w", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1100, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	cancel := func() { cancelB(); cancelA() }
	if err := chromedp.Do(bctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("cannot start chromium: %w", err)
	}
	return bctx, cancel, nil
}
