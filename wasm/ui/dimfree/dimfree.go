//go:build js && wasm

// Package dimfree is the page's "dimfree" view (<dp-dimension-free>):
// rank, not dimension.
package dimfree

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"syscall/js"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/internal/jsio"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// unprojVerdict is what the benchmark's dimension-free experiment (docs/
// BENCHMARKS.md §3b, measured again for issue 33 with DP-GD on its
// converging public schedule) found for unprojected DP-GD against Algorithm 1.
const unprojVerdict = "In dpsample's benchmark report, where its schedule ran T = 50 to 54 steps of size 4, its median excess was " +
	"below Algorithm 1's in both cells at n = 1000 and above it in 18 of 19 logistic cells at n = 120, where a few large noisy " +
	"steps carry θ far from the optimum (with the earlier fixed schedule of 100 small steps, which does not converge, it was " +
	"the other way round at n = 120). Press Run to see where this page's settings fall."

type dimFreeView struct {
	id                        string
	n, k, eps, delta, c, maxD kit.NumberField
	trials                    kit.NumberField
	formErr, note             kit.Elem
	run                       *kit.Runner
	fig                       kit.Elem
	points                    []baseline.DimFreePoint
	bound                     float64
	opts                      baseline.DimFreeOptions
}

// Build fills root, a <section data-view="dimfree">, with the view (ui.go's
// table of views).
func Build(root kit.Elem) {
	v := &dimFreeView{id: kit.IdPrefix(root, "dimfree")}
	id := v.id
	kit.AppendAll(root,
		kit.Text("h2", "Dimension-free: rank, not dimension"),
		kit.Text("p", "Synthetic logistic-regression data whose n feature rows span only k dimensions, embedded in ℝ^d. "+
			"Theorem 2.2: the exponential mechanism's excess risk is at most about GC·√(k·ln(1/δ))/(nε), whatever d is. "+
			"Two baselines run at the same (ε, δ), calibrated by the same accountant, on the public schedule of dpsample's noisy gradient "+
			"descent (DP-GD: the step set by the loss's curvature, the number of steps by n and ε, a schedule whose noise-free run "+
			"converges): DP-GD projected onto the ball ‖θ‖ ≤ C, which pays for d, and unprojected DP-GD, which, like Algorithm 1, "+
			"does not depend on d.", "class", "lede"))
	v.n = kit.NewNumberField(id+"-n", "n (rows)", kit.Attr(root, "n", "1000"), "1", "synthetic records")
	v.k = kit.NewNumberField(id+"-rank", "k (rank)", kit.Attr(root, "rank", "1"), "1", "k = 1 is sampled exactly; k ≥ 2 is slower")
	v.eps = kit.NewNumberField(id+"-epsilon", "ε (epsilon)", kit.Attr(root, "epsilon", "1"), "any", "privacy loss")
	v.delta = kit.NewNumberField(id+"-delta", "δ (delta)", kit.Attr(root, "delta", "1e-5"), "any", "in (0, 1)")
	v.c = kit.NewNumberField(id+"-radius", "C (radius)", kit.Attr(root, "radius", "2.5"), "any", "public bound on ‖θ*‖")
	v.maxD = kit.NewNumberField(id+"-maxd", "largest d", kit.Attr(root, "max-d", "1024"), "1", "d runs over k, 4k, 16k, … up to this")
	v.trials = kit.NewNumberField(id+"-trials", "runs per d", kit.Attr(root, "trials", "2"), "1", "averaged; bars show ± 1 s.e.")
	form := kit.El("div", "class", "controls")
	kit.AppendAll(form, v.n.Wrap, v.k.Wrap, v.eps.Wrap, v.delta.Wrap, v.c.Wrap, v.maxD.Wrap, v.trials.Wrap)
	v.formErr = kit.El("div", "id", id+"-err", "class", "error", "role", "alert")
	v.run = kit.NewRunner(id, "Run")
	v.fig = kit.El("figure", "id", id+"-plot", "class", "plot")
	v.note = kit.El("p", "id", id+"-note", "class", "detail")
	lines := kit.El("ul", "id", id+"-lines", "class", "detail")
	kit.AppendAll(lines,
		kit.Text("li", "Algorithm 1 (blue): θ drawn from exp(−η·(L(θ) + μ‖θ‖²/2)). The directions the data do not span carry only the "+
			"regulariser's Gaussian, which the loss cannot see, so its excess depends on k, not d — for any convex Lipschitz loss."),
		kit.Text("li", "Projected DP-GD (orange): T noisy gradient steps, each projected back onto ‖θ‖ ≤ C (Bassily–Smith–Thakurta). "+
			"The projection folds the noise outside the data's span back into the loss: it can win at small d and loses more the "+
			"larger d is."),
		kit.Text("li", "Unprojected DP-GD (pink, dashed): the same noisy steps without the projection (Song et al. 2021). For a linear "+
			"model the noise outside the span never reaches the loss, so it is dimension-free too; what decides whether it beats "+
			"Algorithm 1 is n·ε, not d. "+unprojVerdict+
			" Its guarantee needs the linear-model structure and its θ may leave the ball; Algorithm 1's holds for any convex Lipschitz loss."),
		kit.Text("li", "Green line: Theorem 2.2's bound GC·√(k·ln(1/δ))/(nε) with constant 1 — the same at every d."))
	kit.AppendAll(root, form, v.formErr, v.run.Wrap, v.fig, lines, v.note)
	kit.On(v.run.Run, "click", false, func(kit.Event) { go v.start() })
	kit.OnResize(v.draw)
	if o, err := v.read(); err == nil { // the x range of the empty plot
		v.opts = o
	}
	v.draw()
}

func (v *dimFreeView) read() (baseline.DimFreeOptions, error) {
	var o baseline.DimFreeOptions
	var err error
	// The rules of baseline.DimensionFree (and so of the JS API), field by field.
	ints := []struct {
		f      kit.NumberField
		name   string
		dst    *int
		lo, hi int
	}{{v.n, "n", &o.N, 2, baseline.MaxN}, {v.k, "rank", &o.Rank, 1, baseline.MaxRank}, {v.trials, "trials", &o.Trials, 1, baseline.MaxTrials}}
	for _, f := range ints {
		*f.dst, err = f.f.IntIn(f.name, f.lo, f.hi)
		f.f.SetError(err)
		if err != nil {
			return o, kit.Shown(err)
		}
	}
	floats := []struct {
		f    kit.NumberField
		name string
		dst  *float64
		rule func(string, float64) error
	}{{v.eps, "epsilon", &o.Epsilon, checks.Epsilon}, {v.delta, "delta", &o.Delta, checks.Delta}, {v.c, "radius", &o.Radius, checks.Positive}}
	for _, f := range floats {
		*f.dst, err = f.f.Value(f.name)
		if err == nil {
			err = f.rule(f.name, *f.dst)
		}
		f.f.SetError(err)
		if err != nil {
			return o, kit.Shown(err)
		}
	}
	maxD, err := v.maxD.IntIn("largest d", max(o.Rank, 1), baseline.MaxD)
	v.maxD.SetError(err)
	if err != nil {
		return o, kit.Shown(err)
	}
	for d := max(o.Rank, 1); d <= maxD && len(o.Dims) < baseline.MaxDims; d *= 4 {
		o.Dims = append(o.Dims, d)
	}
	return o, nil
}

func (v *dimFreeView) start() {
	v.formErr.SetTextContent("")
	o, err := v.read()
	if err != nil {
		var shown kit.ShownError
		if !errors.As(err, &shown) {
			v.formErr.SetTextContent(err.Error())
		}
		return
	}
	v.points, v.opts = nil, o
	v.bound = o.Radius * math.Sqrt(float64(o.Rank)*math.Log(1/o.Delta)) / (float64(o.N) * o.Epsilon)
	v.draw()
	opts, release := v.run.Start("Running in the worker…")
	defer release()
	total := float64(len(o.Dims))
	var runErr error
	for i, d := range o.Dims {
		one := o
		one.Dims = []int{d}
		v.run.Status.SetTextContent(fmt.Sprintf("d = %d (%d of %d)…", d, i+1, len(o.Dims)))
		// Progress of this d, mapped into the whole run.
		inner := opts.Get("onProgress")
		po := js.Global().Get("Object").New()
		f := js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) > 0 && a[0].Type() == js.TypeObject && a[0].Get("total").Float() > 0 {
				frac := a[0].Get("done").Float() / a[0].Get("total").Float()
				v.run.Bar.SetValue((float64(i) + frac) / total)
			}
			return nil
		})
		po.Set("onProgress", f)
		po.Set("signal", opts.Get("signal"))
		_ = inner
		res, err := runDimFree(one, po)
		f.Release()
		if err != nil {
			runErr = err
			break
		}
		v.points = append(v.points, res.Points...)
		v.draw()
	}
	v.run.Done(runErr, "Done.")
	if runErr != nil && !jsio.IsAbort(runErr) {
		v.formErr.SetTextContent(runErr.Error())
	}
}

// runDimFree runs baseline.DimensionFree in the worker when the worker API
// has it (dpsample.demo.dimensionFree), else on this thread in yielding chunks.
func runDimFree(o baseline.DimFreeOptions, po js.Value) (baseline.DimFreeResult, error) {
	var res baseline.DimFreeResult
	if kit.RemoteHas("demo.dimensionFree") {
		out, err := kit.CallRemote("demo.dimensionFree", jsio.Encode(o), po)
		if err == nil {
			err = jsio.Decode(out, &res)
		}
		return res, err
	}
	rc, err := jsio.NewRunControl(po, "opts")
	if err != nil {
		return res, err
	}
	res, err = baseline.DimensionFree(rc.Ctx, o, rc.Progress)
	return res, rc.Finish(err)
}

func (v *dimFreeView) draw() {
	var ds, em, ee, bm, be, um, ue []float64
	for _, p := range v.points {
		ds = append(ds, float64(p.D))
		em, ee = append(em, p.ExpMean), append(ee, nz(p.ExpSE))
		bm, be = append(bm, p.BaseMean), append(be, nz(p.BaseSE))
		um, ue = append(um, p.UnprojMean), append(ue, nz(p.UnprojSE))
	}
	maxD := 1024.0
	if len(v.opts.Dims) > 0 {
		maxD = float64(v.opts.Dims[len(v.opts.Dims)-1])
	}
	p := &plot.Plot{Title: "Excess empirical risk vs dimension", XLabel: "ambient dimension d (log scale)",
		YLabel: "excess logistic loss (log scale)", XLog: true, YLog: true, XMin: 0.8, XMax: maxD * 1.25,
		Series: []plot.Series{
			{Name: "Algorithm 1 (exponential)", X: ds, Y: em, Err: ee, Kind: plot.Points, Color: plot.Palette[0]},
			{X: ds, Y: em, Color: plot.Palette[0]},
			{Name: "projected DP-GD", X: ds, Y: bm, Err: be, Kind: plot.Points, Color: plot.Palette[1]},
			{X: ds, Y: bm, Color: plot.Palette[1]},
			{Name: "unprojected DP-GD", X: ds, Y: um, Err: ue, Kind: plot.Points, Color: plot.Palette[3]},
			{X: ds, Y: um, Color: plot.Palette[3], Dashed: true},
		},
		Desc: "Mean excess risk of each method at each d with ± one standard error; the dashed line is Theorem 2.2's bound, which does not depend on d."}
	if v.bound > 0 {
		p.Rules = []plot.Rule{{Label: "Thm 2.2 bound", At: v.bound, Horizontal: true, Color: "#009E73"}}
		lo, hi := v.bound/30, v.bound*3
		for _, y := range append(append(append([]float64{}, em...), bm...), um...) {
			if y > 0 {
				lo, hi = math.Min(lo, y/2), math.Max(hi, y*2)
			}
		}
		p.YMin, p.YMax = lo, hi
	} else {
		p.YMin, p.YMax = 1e-3, 1
	}
	v.fig.SetInnerHTML(kit.FitWidth(v.fig, p).SVG())
	if len(v.points) > 0 {
		v.note.SetTextContent(fmt.Sprintf("n = %d, k = %d, (ε, δ) = (%g, %g), C = %g; the same data (rank %d) for every d, %s per method and d. "+
			"DP-GD's schedule: %s. "+
			"Excess risk is L(θ) − min_{‖θ‖≤C} L, the non-private reference computed on this device; synthetic data, so nothing here is sensitive. "+
			"Points with a non-positive mean (the method beat the constrained optimum, which unprojected DP-GD can since its θ may leave the ball) "+
			"are not drawn on the log axis.",
			v.opts.N, v.opts.Rank, v.opts.Epsilon, v.opts.Delta, v.opts.Radius, v.opts.Rank, kit.Count(v.opts.Trials, "run"), schedulesText(v.points)))
	} else {
		v.note.SetTextContent("Press Run: points appear as each dimension finishes.")
	}
}

// schedulesText states the public DP-GD schedules of the points: one phrase
// when every point's two variants differ only by the projection (the smooth
// rule of the logistic loss), else each variant at each d.
func schedulesText(points []baseline.DimFreePoint) string {
	one := func(s dpgd.Schedule) string {
		avg := "the average of every iterate"
		if s.Average == dpgd.AverageSuffix {
			avg = "the average of the second half"
		}
		return fmt.Sprintf("T = %d steps of size h = %.3g with noise σ = %.3g per step, %s", s.Steps, s.Step, s.Sigma, avg)
	}
	var each []string
	same := true
	for _, p := range points {
		a, b := p.ProjSchedule, p.UnprojSchedule
		b.Projected = a.Projected
		same = same && a == b && a == points[0].ProjSchedule
		each = append(each, fmt.Sprintf("d = %d: projected %s; unprojected %s", p.D, one(p.ProjSchedule), one(p.UnprojSchedule)))
	}
	if same {
		return "both variants at every d, " + one(points[0].ProjSchedule)
	}
	return strings.Join(each, "; ")
}

func nz(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}
