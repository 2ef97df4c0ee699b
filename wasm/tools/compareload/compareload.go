//go:build !js

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dpsample/dpsample/wasm/tools/internal/chrome"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// The page's start-up marks compareLoad reads, in the order they happen.
var loadMarks = []struct{ key, label string }{
	{"wasmEnd", "module downloaded (responseEnd)"},
	{"dpsample:module-compiled", "module compiled"},
	{"dpsample:go-start", "Go started"},
	{"ready", "UI ready (dpsampleUIReady)"},
}

// compareLoad times cold loads of index.html with each of modules as
// site/dpsample.wasm, in one headless Chromium, interleaved (round r loads
// module 0, 1, …, then round r+1), so that a machine whose speed drifts —
// this 2-core one moves by ±15 % within the hour — slows every module alike.
// Each module is served as ./build.sh build serves it: with a brotli (quality
// 11) and a gzip (−9) sibling, negotiated by the dev server. The page and
// everything else come from root, through a mirror whose site/dpsample.wasm*
// are swapped between loads (root itself is not written to).
//
// It prints, per module and mark, the median and quartiles over the loads,
// and for each module after the first the median of its paired differences
// to the first (round by round) with a distribution-free confidence interval
// (signTestCI).
func compareLoad(root string, modules []string, loads int, out io.Writer) error {
	if len(modules) < 2 || loads < 1 {
		return fmt.Errorf("-compare-load: want two or more modules and -loads ≥ 1, got %d modules and %d loads", len(modules), loads)
	}
	type variant struct{ raw, br, gz []byte }
	vs := make([]variant, len(modules))
	for i, m := range modules {
		raw, err := os.ReadFile(m)
		if err != nil {
			return err
		}
		gz, br, err := chrome.Compressed(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		vs[i] = variant{raw, br, gz}
	}
	mirror, err := os.MkdirTemp("", "dpsample-compare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(mirror)
	if err := mirrorRoot(root, mirror); err != nil {
		return err
	}
	use := func(v variant) error {
		site := filepath.Join(mirror, "site")
		// Siblings after the original: the dev server skips one older than it.
		for _, f := range []struct {
			ext string
			b   []byte
		}{{"", v.raw}, {".br", v.br}, {".gz", v.gz}} {
			if err := os.WriteFile(filepath.Join(site, "dpsample.wasm"+f.ext), f.b, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	b, err := chrome.Start(mirror)
	if err != nil {
		return err
	}
	defer b.Close()
	res := make([]map[string][]float64, len(modules))
	for i := range res {
		res[i] = map[string][]float64{}
	}
	for r := range loads {
		for i := range modules {
			if err := use(vs[i]); err != nil {
				return err
			}
			ctx, done, _, err := b.Tab(2 * time.Minute)
			if err != nil {
				return fmt.Errorf("%s, load %d: %w", modules[i], r+1, err)
			}
			m, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(() => {
  const o = { ready: window.__readyAt };
  for (const e of performance.getEntries()) {
    if (e.entryType === "mark") o[e.name] = e.startTime;
    if (e.entryType === "resource" && /\/dpsample\.wasm$/.test(e.name)) o.wasmEnd = e.responseEnd;
  }
  return o;
})()`))
			done()
			if err != nil {
				return err
			}
			for _, k := range loadMarks {
				v, ok := m[k.key]
				if !ok {
					return fmt.Errorf("%s, load %d: the page has no %q mark", modules[i], r+1, k.key)
				}
				res[i][k.key] = append(res[i][k.key], v)
			}
		}
	}
	fmt.Fprintf(out, "cold loads of index.html, %d per module, interleaved, one headless Chromium (%s), dev server with .br/.gz; ms from navigation start\n", loads, b.Version)
	for i, m := range modules {
		fmt.Fprintf(out, "\n[%d] %s: %d B raw, %d B brotli, %d B gzip\n", i, m, len(vs[i].raw), len(vs[i].br), len(vs[i].gz))
		for _, k := range loadMarks {
			x := res[i][k.key]
			fmt.Fprintf(out, "  %-34s median %6.0f  quartiles %6.0f–%.0f\n", k.label, stats.Median(x), stats.Quantile(x, 0.25), stats.Quantile(x, 0.75))
		}
	}
	for i := 1; i < len(modules); i++ {
		fmt.Fprintf(out, "\n[%d] − [0], paired by round:\n", i)
		for _, k := range loadMarks {
			d := make([]float64, loads)
			for r := range d {
				d[r] = res[i][k.key][r] - res[0][k.key][r]
			}
			lo, hi, level := stats.SignTestCI(d, 0.05)
			fmt.Fprintf(out, "  %-34s median %+6.0f  %.0f %% CI [%+.0f, %+.0f]\n", k.label, stats.Median(d), 100*level, lo, hi)
		}
	}
	return nil
}

// mirrorRoot fills dst with symbolic links to root's entries, except site/,
// which becomes a directory of links to root/site's entries without
// dpsample.wasm and its siblings (compareLoad writes those).
func mirrorRoot(root, dst string) error {
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	link := func(from, to string, skip func(string) bool) error {
		es, err := os.ReadDir(from)
		if err != nil {
			return err
		}
		for _, e := range es {
			if skip(e.Name()) {
				continue
			}
			if err := os.Symlink(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
				return err
			}
		}
		return nil
	}
	if err := link(abs, dst, func(n string) bool { return n == "site" }); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(dst, "site"), 0o755); err != nil {
		return err
	}
	return link(filepath.Join(abs, "site"), filepath.Join(dst, "site"), func(n string) bool {
		switch n {
		case "dpsample.wasm", "dpsample.wasm.br", "dpsample.wasm.gz", "dpsample.wasm.sha256":
			return true
		}
		return false
	})
}
