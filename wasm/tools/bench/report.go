//go:build !js

package main

import (
	_ "embed"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/dpsample/dpsample/core/benchkit"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/core/sampler"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

func kib(n int) string { return fmt.Sprintf("%s (%.2f MiB)", strconv.Itoa(n), float64(n)/(1<<20)) }

// headlineTable is the table README quotes.
func headlineTable(r *Report) string {
	var rows [][]string
	for _, k := range r.Speed.Kernels {
		if k.Name == "sampler/logistic/d=10" || k.Name == "sampler/hinge/d=100" || k.Group != "sampler" {
			rows = append(rows, []string{"`" + k.Name + "`", md.Sig(k.NativeNs/1e3) + " µs/" + k.Unit, md.Sig(k.NodeRatio) + "×", md.Sig(k.ChromRatio) + "×"})
		}
	}
	t := md.Table([]string{"kernel", "native", "wasm/native (node)", "wasm/native (Chromium)"}, rows)
	t += "\n" + md.Table([]string{"site/dpsample.wasm", "raw", "gzip -9", "brotli q11", "load → interactive (Chromium, median)"},
		[][]string{{"", kib(r.Size.WasmRaw), kib(r.Size.WasmGzip), kib(r.Size.WasmBrotli), md.Sig(r.Size.LoadMedian) + " ms"}})
	if rows := sampleTargets(r); rows != nil {
		var rs [][]string
		for _, x := range rows {
			rs = append(rs, x[:])
		}
		t += "\nIssue 12's speed targets (logistic, n = 455, d = 30 — breast cancer's training shape —, δ = 1e-5, one sample; native and Chromium in the same run):\n\n" + md.Table([]string{"benchmark", "target", "measured", "verdict"}, rs)
	}
	if st := study.StudyHeadline(r.Study); st != "" {
		t += "\n" + st
	}
	if u := utilityHeadline(r); u != "" {
		t += "\n" + u
	}
	return t
}

func headline(r *Report) string { return headlineTable(r) }

// readmeHeadline is the body of README's Benchmarks section.
func readmeHeadline(r *Report) string {
	note := ""
	if r.Quick {
		note = " **(BENCH_QUICK=1 run: not for quoting.)**"
	}
	return fmt.Sprintf("Measured by `./build.sh bench` on %s at commit %s (%d CPUs, node %s, %s)%s; time per unit of work natively and the same Go kernel compiled to wasm, in node and in headless Chromium. Full report: [docs/BENCHMARKS.md](docs/BENCHMARKS.md).\n\n%s\n",
		r.Generated, r.Machine.Commit, r.Machine.CPUs, r.Machine.Node, r.Machine.Chromium, note, headlineTable(r))
}

//go:embed report.md.tmpl
var reportTemplate string

// reportTmpl renders docs/BENCHMARKS.md from a Report (report.md.tmpl):
// the prose is the template's, every table and computed phrase one of
// these functions.
var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"sig":              md.Sig,
	"sortedKeys":       func(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) },
	"speedTable":       speedTable,
	"chromVerdict":     chromVerdict,
	"rngRatio":         rngRatio,
	"sampleTargets":    func(r *Report) string { var b strings.Builder; sampleTargetsMarkdown(&b, r); return b.String() },
	"goTestTable":      goTestTable,
	"rowsMarkdown":     rowsMarkdown,
	"dpgdRowsMarkdown": dpgdRowsMarkdown,
	"expOffset":        func() float64 { return math.Exp(sampler.Offset) },
	"offset":           func() float64 { return sampler.Offset },
	"factoryRate":      func() float64 { return sampler.FactoryRate },
	"costTable":        costTable,
	"studyMarkdown": func(s *study.StudySummary) string {
		var b strings.Builder
		study.StudyMarkdown(&b, s)
		return b.String()
	},
	"utilityMarkdown": func(r *Report) string { var b strings.Builder; utilityMarkdown(&b, r); return b.String() },
	"xi":              func() float64 { return xi },
	"worstRows":       worstRows,
	"lowerTable":      lowerTable,
	"boxTable":        boxTable,
	"sizeTable":       sizeTable,
	"auditMarkdown":   auditMarkdown,
	"shortfalls":      shortfalls,
}).Parse(reportTemplate))

// markdown is docs/BENCHMARKS.md for r.
func markdown(r *Report) string {
	var b strings.Builder
	if err := reportTmpl.Execute(&b, r); err != nil {
		panic(err) // the template and its functions are fixed: an error is a bug (TestReportGolden)
	}
	return b.String()
}

// speedTable is §1's kernel table.
func speedTable(r *Report) string {
	var rows [][]string
	for _, k := range r.Speed.Kernels {
		rows = append(rows, []string{"`" + k.Name + "`", k.Unit, strconv.Itoa(k.Iters),
			md.Sig(k.NativeNs), md.Sig(k.NodeNs), md.Sig(k.ChromiumNs), md.Sig(k.NodeRatio), md.Sig(k.ChromRatio)})
	}
	return md.Table([]string{"kernel", "unit", "iterations/call", "native ns/unit", "node ns/unit", "Chromium ns/unit", "node/native", "Chromium/native"}, rows)
}

// chromVerdict is §1's target (sampler kernels in Chromium ≤ 2× native):
// "met" or "missed", and the range of the sampler kernels' ratios.
func chromVerdict(r *Report) (v struct {
	Verdict     string
	Best, Worst float64
}) {
	v.Worst, v.Best = 0.0, math.Inf(1)
	for _, k := range r.Speed.Kernels {
		if k.Group == "sampler" {
			v.Worst, v.Best = math.Max(v.Worst, k.ChromRatio), math.Min(v.Best, k.ChromRatio)
		}
	}
	v.Verdict = "met"
	if v.Worst > 2 {
		v.Verdict = "missed"
	}
	return v
}

// rngRatio is the rng kernel's Chromium/native ratio (NaN without one).
func rngRatio(r *Report) float64 {
	x := math.NaN()
	for _, k := range r.Speed.Kernels {
		if k.Group == "rng" {
			x = k.ChromRatio
		}
	}
	return x
}

// goTestTable is §1's `go test -bench` table.
func goTestTable(r *Report) string {
	var rows [][]string
	for _, g := range r.Speed.GoTest {
		rows = append(rows, []string{"`" + g.Name + "`", md.Sig(g.NativeNs), md.Sig(g.WasmNs), md.Sig(g.Ratio)})
	}
	return md.Table([]string{"benchmark", "native ns/op", "wasm (node) ns/op", "ratio"}, rows)
}

// costTable is §2's table.
func costTable(r *Report) string {
	var rows [][]string
	for _, c := range r.Cost {
		rows = append(rows, []string{strconv.Itoa(c.N), strconv.Itoa(c.D), md.Sig(c.Eta), md.Sig(c.Mu), md.Sig(c.TV), c.Mode,
			strconv.Itoa(c.Steps), strconv.FormatFloat(c.StepsFormula, 'f', 0, 64), strconv.FormatFloat(c.StepsApprox, 'f', 0, 64), md.Sig(c.Lambda), md.Sig(c.LambdaFormula),
			fmt.Sprintf("%.3f ± %.3f", c.TrialsPerStep, c.TrialsSE), fmt.Sprintf("%.2f", c.EvalsPerStep), md.Sig(c.EvalsBound),
			strconv.FormatInt(c.Failures, 10), md.Sig(c.ExpectedEvals)})
	}
	return md.Table([]string{"n", "d", "η", "μ", "TV", "mode", "T (plan)", "T_formula", "T_approx", "λ (plan)", "λ_formula", "trials/RGO (±SE)", "evals/step", "bound", "failed RGOs", "expected evals, full run"}, rows)
}

// worstRows is §4's worst-case accusation rate of the proven code per n,
// against ξ and ξ/n.
func worstRows(r *Report) string {
	var out []string
	for _, c := range r.Lower.Codes {
		if c.Mode != fingerprint.Tardos {
			continue
		}
		rel := func(x, y float64) string {
			if x > y {
				return ">"
			}
			return "≤"
		}
		out = append(out, fmt.Sprintf("n = %d: %s (%s ξ, %s ξ/n)", c.N, md.Sig(c.WorstGaussian), rel(c.WorstGaussian, xi), rel(c.WorstGaussian, xi/float64(c.N))))
	}
	return strings.Join(out, "; ")
}

// lowerTable is §4's table of the codes.
func lowerTable(r *Report) string {
	var rows [][]string
	for _, c := range r.Lower.Codes {
		rows = append(rows, []string{strconv.Itoa(c.N), string(c.Mode), strconv.Itoa(c.Length), strconv.Itoa(c.Trials),
			fmt.Sprintf("%s [%s, %s]", md.Sig(c.Traced), md.Sig(c.TracedCI[0]), md.Sig(c.TracedCI[1])),
			fmt.Sprintf("%d of %d, [%s, %s]", c.RemovedHits, c.Trials, md.Sig(c.RemovedCI[0]), md.Sig(c.RemovedCI[1])), md.Sig(c.RemovedExact),
			fmt.Sprintf("%s ± %s", md.Sig(c.Ghost), md.Sig(c.GhostSE)), md.Sig(c.WorstGaussian), md.Sig(c.WorstExact)})
	}
	return md.Table([]string{"n", "code", "length D", "trials", "completeness", "removed user accused [95 % CI]", "removed user, exact", "ghost accused (±SE)", "worst case Φ̄(√k)", "worst case, exact"}, rows)
}

// boxTable is §4's box exponential mechanism table.
func boxTable(r *Report) string {
	var rows [][]string
	for _, x := range r.Lower.Box {
		rows = append(rows, []string{md.Sig(x.S), strconv.Itoa(x.Trials), fmt.Sprintf("%.5f ± %.5f", x.Measured, x.SE), fmt.Sprintf("%.5f", x.Expected), fmt.Sprintf("%.2f", x.Z)})
	}
	return md.Table([]string{"s", "trials", "excess/D (±SE)", "closed form", "z"}, rows)
}

// sizeTable is §5's table.
func sizeTable(r *Report) string {
	var loads []string
	for _, v := range r.Size.LoadMs {
		loads = append(loads, md.Sig(v))
	}
	enc := r.Size.WireEncoding
	if enc == "" {
		enc = "identity"
	}
	return md.Table([]string{"raw bytes", "gzip bytes", "brotli bytes", "load → interactive (median)", "all loads (ms)", ".wasm on the wire (encoding)", "all responses on the wire"},
		[][]string{{kib(r.Size.WasmRaw), kib(r.Size.WasmGzip), kib(r.Size.WasmBrotli), md.Sig(r.Size.LoadMedian) + " ms", strings.Join(loads, ", "),
			fmt.Sprintf("%s (%s)", kib(int(r.Size.WireWasm)), enc), kib(int(r.Size.WireTotal))}})
}

// sampleTargets are issue 12's speed targets with this run's numbers:
// {what, target, measured, met}.
func sampleTargets(r *Report) [][4]string {
	t := r.Speed.Sample
	if t.Steps1 == 0 {
		return nil
	}
	v := func(ok bool) string { return map[bool]string{true: "met", false: "**missed**"}[ok] }
	return [][4]string{
		{"T at ε = 1 (mechanism.NewPlan, " + t.Method + ")", "≤ 500 steps", strconv.Itoa(t.Steps1), v(t.Steps1 <= 500)},
		{"one sample at ε = 1, native", "≤ 0.5 s", md.Sig(t.Native1) + " s", v(t.Native1 <= 0.5)},
		{"one sample at ε = 1, Chromium (same run)", "≤ 2 s", md.Sig(t.Chrom1) + " s", v(t.Chrom1 <= 2)},
		{"one sample at ε = 5, native (T = " + strconv.Itoa(t.Steps5) + ")", "≤ 2 s", md.Sig(t.Native5) + " s", v(t.Native5 <= 2)},
		{"first-order step, Chromium / native", "≤ 2 (aim)", md.Sig(t.StepRatio) + "× (native " + md.Sig(t.StepNativeUs) + " µs/step)", v(t.StepRatio <= 2)},
	}
}

func sampleTargetsMarkdown(b *strings.Builder, r *Report) {
	rows := sampleTargets(r)
	if rows == nil {
		return
	}
	t := r.Speed.Sample
	fmt.Fprintf(b, "**Issue 12's speed targets** (logistic, n = %d, d = %d, C = %g, δ = 1e-5, one sample; `mechanism/…` and `firstorder/…` kernels above, native, node and Chromium timed in this same run; under node one sample at ε = 1 took %s s and at ε = 5 %s s in Chromium %s s). The kernels run on synthetic data of breast cancer's training shape (`benchkit.GLM`: features on the unit sphere) because core/benchkit cannot read files; T depends only on n, d, ε, δ, C and clip, so it is breast cancer's T; the per-sample time of Algorithm 1 on the real breast-cancer rows is in §3a's seconds table.\n\n",
		benchkit.SampleN, benchkit.SampleD, benchkit.SampleRadius, md.Sig(t.Node1), md.Sig(t.Node5), md.Sig(t.Chrom5))
	var rs [][]string
	for _, x := range rows {
		rs = append(rs, x[:])
	}
	b.WriteString(md.Table([]string{"benchmark", "target", "measured", "verdict"}, rs) + "\n")
}

// shortfalls lists the targets missed in this run, with the reason.
func shortfalls(r *Report) []string {
	var out []string
	for _, x := range sampleTargets(r) {
		if x[3] != "met" {
			out = append(out, fmt.Sprintf("Issue 12 speed target missed: %s: %s (target %s).", x[0], x[2], x[1]))
		}
	}
	var slow []string
	for _, k := range r.Speed.Kernels {
		if k.Group == "sampler" && k.ChromRatio > 2 {
			slow = append(slow, fmt.Sprintf("`%s` %s×", k.Name, md.Sig(k.ChromRatio)))
		}
	}
	if len(slow) > 0 {
		out = append(out, "Sampler in Chromium above the 2× target: "+strings.Join(slow, ", ")+". Its Gaussian proposals (ChaCha8 + ziggurat) and exp/log1p run as generic Go in wasm but as SIMD/assembly natively; see §1.")
	}
	for _, c := range r.Cost {
		if c.EvalsPerStep > 1.02*c.EvalsBound {
			out = append(out, fmt.Sprintf("n = %d, d = %d: %.2f loss evaluations per step, above the plan's bound %s.", c.N, c.D, c.EvalsPerStep, md.Sig(c.EvalsBound)))
		}
		if float64(c.Steps) != c.StepsFormula {
			out = append(out, fmt.Sprintf("n = %d, d = %d: the plan's T = %d differs from T_formula = %s.", c.N, c.D, c.Steps, md.Sig(c.StepsFormula)))
		}
	}
	for _, x := range r.Lower.Box {
		if math.Abs(x.Z) > 3 {
			out = append(out, fmt.Sprintf("box exponential at s = %s: measured excess/D differs from the closed form (z = %.2f).", md.Sig(x.S), x.Z))
		}
	}
	out = append(out, utilityShortfalls(r)...)
	if len(out) == 0 {
		out = append(out, "nothing: every target of this run was met.")
	}
	return out
}

func plots(r *Report) map[string]string {
	out := map[string]string{}
	var idx, node, chrom []float64
	for i, k := range r.Speed.Kernels {
		idx = append(idx, float64(i+1))
		node = append(node, k.NodeRatio)
		chrom = append(chrom, k.ChromRatio)
	}
	var names []string
	for i, k := range r.Speed.Kernels {
		names = append(names, fmt.Sprintf("%d=%s", i+1, k.Name))
	}
	sp := plot.Plot{Title: "wasm / native time per unit of work", XLabel: "kernel (see §1's table order)", YLabel: "ratio",
		Series: []plot.Series{{Name: "node", X: idx, Y: node, Kind: plot.Points}, {Name: "Chromium", X: idx, Y: chrom, Kind: plot.Points}},
		Rules:  []plot.Rule{{Label: "target 2×", At: 2, Horizontal: true}}, YMin: 0, XMin: 0.5, XMax: float64(len(idx)) + 0.5,
		Desc: "kernels: " + strings.Join(names, ", ")}
	out["speed-ratios.svg"] = sp.SVG()

	ss := plot.Plot{Title: "sampler step time (stochastic RGO, n = 1000)", XLabel: "d", YLabel: "µs per step", XLog: true, YLog: true}
	for _, l := range []string{"logistic", "hinge"} {
		var d, nat, nd, ch []float64
		for _, k := range r.Speed.Kernels {
			if strings.HasPrefix(k.Name, "sampler/"+l+"/d=") {
				v, _ := strconv.Atoi(strings.TrimPrefix(k.Name, "sampler/"+l+"/d="))
				d = append(d, float64(v))
				nat, nd, ch = append(nat, k.NativeNs/1e3), append(nd, k.NodeNs/1e3), append(ch, k.ChromiumNs/1e3)
			}
		}
		dash := l == "hinge"
		ss.Series = append(ss.Series,
			plot.Series{Name: l + " native", X: d, Y: nat, Dashed: dash, Color: plot.Palette[0]},
			plot.Series{Name: l + " node", X: d, Y: nd, Dashed: dash, Color: plot.Palette[1]},
			plot.Series{Name: l + " Chromium", X: d, Y: ch, Dashed: dash, Color: plot.Palette[2]})
	}
	out["sampler-speed.svg"] = ss.SVG()

	cp := plot.Plot{Title: "sampler work per step (measured)", XLabel: "case (n, d) in §2's table order", YLabel: "per step"}
	var ci, tr, ev []float64
	for i, c := range r.Cost {
		ci = append(ci, float64(i+1))
		tr = append(tr, c.TrialsPerStep)
		ev = append(ev, c.EvalsPerStep)
	}
	cp.Series = []plot.Series{{Name: "trials per RGO", X: ci, Y: tr, Kind: plot.Points}, {Name: "loss evals per step", X: ci, Y: ev, Kind: plot.Points}}
	cp.Rules = []plot.Rule{{Label: "e", At: math.E, Horizontal: true}, {Label: "2K·e", At: 4 * math.E, Horizontal: true}}
	cp.YMin, cp.XMin, cp.XMax = 0, 0.5, float64(len(ci))+0.5
	out["cost.svg"] = cp.SVG()

	bp := plot.Plot{Title: fmt.Sprintf("box exponential on the %s code, n = %d", r.Lower.BoxMode, r.Lower.BoxN), XLabel: "s = εn/(2D)", YLabel: "excess / D", XLog: true}
	var s, m, se, e []float64
	for _, x := range r.Lower.Box {
		s, m, se, e = append(s, x.S), append(m, x.Measured), append(se, x.SE), append(e, x.Expected)
	}
	bp.Series = []plot.Series{{Name: "closed form", X: s, Y: e, Dashed: true}, {Name: "measured (±SE)", X: s, Y: m, Err: se, Kind: plot.Points}}
	out["box-excess.svg"] = bp.SVG()
	for k, v := range utilityPlots(r) {
		out[k] = v
	}
	return out
}
