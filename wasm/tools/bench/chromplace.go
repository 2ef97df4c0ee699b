//go:build !js

package main

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
)

// chromPlace is a tab on index.html whose main thread runs job lists
// through dpsample._bench (benchJS).
type chromPlace struct {
	ctx  context.Context
	done context.CancelFunc
}

// benchPlace opens a chromPlace in b.
func benchPlace(b *chrome.Browser) (*chromPlace, error) {
	ctx, done, _, err := b.Tab(10 * time.Minute)
	if err != nil {
		return nil, err
	}
	// Let the page's start-up work (first renders, the worker) settle.
	time.Sleep(2 * time.Second)
	return &chromPlace{ctx, done}, nil
}

func (c *chromPlace) run(js []job) (map[string][]float64, error) {
	arg, _ := json.Marshal(js)
	expr := "(" + strings.TrimSpace(benchJS) + ")(" + string(arg) + ")"
	return chromedp.Run(c.ctx, chromedp.Evaluate[map[string][]float64](expr, chromedp.EvalAwaitPromise))
}

func (c *chromPlace) close() { c.done() }
