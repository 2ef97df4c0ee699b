//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dpsample/dpsample/core/plot"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// Utility is section 3: UtilityBench (wasm/tools/internal/utility; issue 9 part B) with
// its full preset (FullUtilityOptions; QuickUtilityOptions under
// BENCH_QUICK=1).
type Utility struct {
	Status string                 `json:"status"` // "measured"
	Preset string                 `json:"preset"`
	Report *utility.UtilityReport `json:"report"`
}

func measureUtility(root string) (Utility, error) {
	o, preset := utility.FullUtilityOptions(), "FullUtilityOptions"
	if quick {
		o, preset = utility.QuickUtilityOptions(), "QuickUtilityOptions"
	}
	if o.Real != nil {
		o.Real.DataDir = filepath.Join(root, "site", "data")
	}
	last := time.Now()
	rep, err := utility.UtilityBench(context.Background(), o, func(done, total int) {
		if time.Since(last) > 10*time.Second || done == total {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "bench: utility %d/%d runs\n", done, total)
		}
	})
	if err != nil {
		return Utility{}, err
	}
	return Utility{Status: "measured", Preset: preset, Report: &rep}, nil
}

// utilityHeadline is README's utility part: breast-cancer accuracy with the
// external reference, and the dimension-free medians at the largest d.
func utilityHeadline(r *Report) string {
	u := r.Utility.Report
	if u == nil {
		return ""
	}
	var b strings.Builder
	if s := u.Options.Synthetic; s != nil {
		var rows [][]string
		for _, g := range s.Grids {
			dHi := maxInt(g.Dims)
			for _, k := range g.Ranks {
				for _, e := range g.Epsilons {
					c := utility.FindCell(u, utility.WorkloadSynthetic, g.Loss, g.N, k, dHi, e, utility.MethodExponential)
					if c == nil || c.Error != "" {
						continue
					}
					row := []string{fmt.Sprintf("%s, n = %d, k = %d, ε = %s, d = %d", g.Loss, g.N, k, md.Sig(e), dHi)}
					for _, m := range []string{utility.MethodExponential, utility.MethodDPGD, utility.MethodDPGDProjected, utility.MethodOutputPert} {
						if c := utility.FindCell(u, utility.WorkloadSynthetic, g.Loss, g.N, k, dHi, e, m); c != nil && c.Error == "" && c.Runs > 0 {
							row = append(row, fmt.Sprintf("%s (%s s)", utility.MCI(c.ExcessMedian, c.ExcessCI), md.Sig(c.SecondsPerRun)))
						} else {
							row = append(row, "n/a")
						}
					}
					rows = append(rows, row)
				}
			}
		}
		if len(rows) > 0 {
			fmt.Fprintf(&b, "\nDimension-free experiment (synthetic rank-k GLMs, every method run in the ambient d): excess empirical risk, **median [95 %% bootstrap interval] over %d seeds**, and seconds per run, at the largest d where Algorithm 1 ran:\n\n", s.Seeds)
			b.WriteString(md.Table([]string{"workload", utility.MethodExponential + " (Algorithm 1)", utility.MethodDPGD, utility.MethodDPGDProjected, utility.MethodOutputPert}, rows))
		}
	}
	return b.String()
}

// theoryNote says what Theorem 2.2 claims against unconstrained DP-GD.
const theoryNote = "**What the theory predicts.** Theorem 2.2 bounds Algorithm 1's expected excess risk by O(GC√(k ln(1/δ))/(nε)): the bound depends on the rank k, not on d. Unconstrained DP-GD on a GLM has the same kind of guarantee. Its iterates move only along the span of the data rows plus isotropic noise, and noise outside that span never changes a GLM's loss. Song, Steinke, Thakkar and Thakurta (2021, *Evading the curse of dimensionality in unconstrained private GLMs*, AISTATS) prove an excess risk of Õ(GC√rank/(nε)) for it. So Theorem 2.2 does not claim a better rate than unprojected DP-GD, and nothing in it predicts lower risk than DP-GD at equal (ε, δ). What it claims is the dimension-free rate with only zeroth-order access to the loss and without smoothness; the paper itself contrasts it with Song et al. in those terms (§2). Against projected (constrained) DP-GD, whose worst-case excess grows like √d (Bassily–Smith–Thakurta 2014; the paper's Theorem 3.1: unavoidable for full-rank data), the dimension-free bound is a real separation. Where DP-GD is ahead, a likely reason for the constant-factor gap, not measured separately here: a sample from exp(−η·F) sits on average about k/(2η) above F's minimum on a locally quadratic F (equipartition), while DP-GD returns an average of iterates, and the two analyses' constants differ."

func utilityMarkdown(b *strings.Builder, r *Report) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	u := r.Utility.Report
	if u == nil {
		p("**Pending.**\n\n")
		return
	}
	o := u.Options
	p("From `UtilityBench(ctx, %s())` (wasm/tools/internal/utility over the baselines of core/baseline), %.0f s. ", r.Utility.Preset, u.Seconds)
	p("All methods at the same (ε, δ = %g) under replace-one neighbours, accounted with the exact Gaussian-DP curve where the method allows it; every hyper-parameter is fixed a priori from public quantities (docs/DEFAULTS.md gives the reasoning):\n\n", u.Hyper.Delta)
	for _, l := range [][2]string{{"accountant", u.Hyper.Accountant}, {"exponential mechanism (Algorithm 1)", u.Hyper.ExponentialRule},
		{"DP-GD", u.Hyper.GDRule}, {"output perturbation", u.Hyper.OutputMuRule},
		{"objective perturbation", u.Hyper.ObjectiveRule}, {"excess risk", u.Hyper.ReferenceRule}, {"dimension-free computation", u.Hyper.DimensionFree}} {
		p("- **%s**: %s\n", l[0], l[1])
	}
	for _, n := range u.Hyper.Notes {
		p("- %s\n", n)
	}
	p("\n")
	methods := o.Methods
	if len(methods) == 0 {
		methods = utility.AllMethods()
	}
	p("**Findings of this run** (each sentence is computed from the tables below):\n\n")
	if o.Synthetic != nil {
		p("- Dimension-free experiment, over every synthetic cell where Algorithm 1 ran in d:\n")
		for _, m := range []string{utility.MethodDPGD, utility.MethodDPGDProjected, utility.MethodOutputPert, utility.MethodObjectivePert} {
			p("  %s\n", utility.Compare(u, m, nil).Sentence())
		}
		p("- %s\n", utility.InvariantFindings(u))
		if f := utility.LatentFindings(u); f != "" {
			p("- %s\n", f)
		}
	}
	p("\n%s\n\n", theoryNote)
	if note := utility.ScheduleNote(u); note != "" {
		p("%s\n\n", note)
	}
	if s := o.Synthetic; s != nil {
		p("### 3b. Dimension-free experiment in the ambient d (issue 16 part 1)\n\n")
		p("Synthetic rank-k GLMs: n rows in a k-dimensional subspace (a random orthonormal basis U per d), C = %g, clip = %g, δ = %g, %d seeds per cell. Every method works on the d-dimensional rows: Algorithm 1 through `mechanism.Sample` with the public rank k declared (sampler auto: the first-order sampler for logistic, the zeroth-order proximal sampler for hinge and lad), both DP-GD variants (on core/dpgd's public schedule, stated under each table), output perturbation (SDCA in d, noise in all d) and objective perturbation (Newton in d with a d×d Hessian, where n·d² ≤ %.2g). `%s` is the old shortcut (Algorithm 1 on the k-dim latent data, lifted) and is shown only as a cross-check at d ≤ %d. ", s.Radius, o.Clip, o.Delta, s.Seeds, s.ObjectiveMaxWork, utility.MethodExpLatent, s.LatentMaxD)
		p("Cells: **median [95 %% percentile-bootstrap interval] of the excess empirical risk (seconds per run)**. Algorithm 1 cells whose planned work (expected record evaluations × d) exceeds %.2g were not run; they show n/a and the list below gives their T.\n\n", s.MaxWork)
		p("The grid was cut to fit the bench's time budget on this shared 2-core machine. Measured before the run, under the same load: one hinge sample (zeroth-order sampler, T ∝ n²s²) took 54 s at n = 120, d = 1000, ε = 1 (T = 4.4·10⁵) and 74 s at n = 1000, d = 10 (T = 3.8·10⁷); the planned T at n = 1000 for hinge and lad is 9.4·10⁶ / 3.8·10⁷ / 1.5·10⁸ steps at ε = 0.5 / 1 / 2, so n = 1000 runs logistic only; a logistic sample at n = 120, d = 10⁴ took 9–11 s with the bench's two workers. The cells run:\n\n")
		for _, g := range s.Grids {
			p("- %s, n = %d: ranks %v, d ∈ %v, ε ∈ %v\n", g.Loss, g.N, g.Ranks, g.Dims, g.Epsilons)
		}
		p("\n")
		for _, g := range utility.MergedGrids(s) {
			for _, k := range g.Ranks {
				for _, e := range g.Epsilons {
					head := []string{"method"}
					for _, d := range g.Dims {
						head = append(head, "d = "+strconv.Itoa(d))
					}
					var rows [][]string
					for _, m := range methods {
						row := []string{m}
						any := false
						for _, d := range g.Dims {
							c := utility.FindCell(u, utility.WorkloadSynthetic, g.Loss, g.N, k, d, e, m)
							switch {
							case c == nil:
								row = append(row, "")
							case c.Error != "":
								row = append(row, "n/a")
							default:
								row = append(row, fmt.Sprintf("%s (%s s)", utility.MCI(c.ExcessMedian, c.ExcessCI), md.Sig(c.SecondsPerRun)))
								any = true
							}
						}
						if any {
							rows = append(rows, row)
						}
					}
					p("**%s, n = %d, rank %d, ε = %s**\n\n%s\n", g.Loss, g.N, k, md.Sig(e), md.Table(head, rows))
					if ln := utility.ScheduleLine(u, g, k, e); ln != "" {
						p("%s\n\n", ln)
					}
				}
			}
		}
		for _, ln := range utility.SyntheticLosses(s) {
			p("![excess risk against d, %s](bench/utility-synthetic-%s.svg)\n\n", ln, ln)
		}
		p("**Who wins, cell by cell** (every synthetic cell where Algorithm 1 ran in d; a cell is one loss, n, rank, d and ε):\n\n")
		for _, m := range []string{utility.MethodDPGD, utility.MethodDPGDProjected, utility.MethodOutputPert, utility.MethodObjectivePert} {
			p("%s\n", utility.Compare(u, m, nil).Sentence())
		}
		p("\n")
		p("**Growth with d**: median risk at the largest d over the median at the smallest d, 95 %% bootstrap interval (the two samples resampled independently). There is no target column: in exact arithmetic every method's risk law except projected DP-GD's is the same at every d (the rows lie in span(U), every regulariser and every noise is isotropic, and only θ's component in span(U) changes the loss), so for those rows the ratio checks the implementation and should be 1 up to noise; projected DP-GD's projection onto ‖θ‖ ≤ C couples the span with d − k noise coordinates.\n\n")
		var rows [][]string
		for _, d := range u.Ratios {
			rows = append(rows, []string{d.Loss, strconv.Itoa(d.N), strconv.Itoa(d.Rank), md.Sig(d.Epsilon), d.Method, fmt.Sprintf("%d → %d", d.DLow, d.DHigh), md.Sig(d.Low), md.Sig(d.High), utility.MCI(d.Ratio, d.RatioCI), map[bool]string{true: "yes", false: "no"}[d.Invariant]})
		}
		p("%s\n", md.Table([]string{"loss", "n", "rank", "ε", "method", "d", "median (d low)", "median (d high)", "ratio [95 % CI]", "same law at every d by construction"}, rows))
	}
	var errs []string
	for _, c := range u.Cells {
		if c.Error != "" {
			errs = append(errs, fmt.Sprintf("%s/%s/n=%d/k=%d/d=%d/ε=%g/%s: %s", c.Workload, c.Loss, c.N, c.Rank, c.D, c.Epsilon, c.Method, c.Error))
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		p("Cells marked n/a, and methods left out of a table where no cell applies (every Algorithm 1 cell left out, and one example per other reason):\n\n")
		seen := map[string]bool{}
		for _, e := range errs {
			msg := e[strings.Index(e, ": ")+2:]
			if strings.HasPrefix(msg, "not run: the plan") || !seen[msg] {
				seen[msg] = true
				p("- %s\n", e)
			}
		}
		p("\n")
	}
}

func utilityShortfalls(r *Report) []string {
	u := r.Utility.Report
	if u == nil {
		return []string{"Utility vs baselines is pending."}
	}
	var out []string
	if u.Options.Synthetic != nil {
		c := utility.Compare(u, utility.MethodDPGD, nil)
		if c.Cells > 0 && c.Lower*2 < c.Cells {
			out = append(out, fmt.Sprintf("Dimension-free experiment: unprojected DP-GD's median excess risk is below Algorithm 1's in %d of %d cells (§3b).", c.Cells-c.Lower, c.Cells))
		}
		skipped := 0
		for _, x := range u.Cells {
			if x.Method == utility.MethodExponential && strings.HasPrefix(x.Error, "not run") {
				skipped++
			}
		}
		if skipped > 0 {
			out = append(out, fmt.Sprintf("Dimension-free experiment: %d Algorithm 1 cells were not run (planned work above maxWork; listed with T in §3b), and n = 1000 and hinge ran on a reduced grid.", skipped))
		}
	}
	return out
}

func utilityPlots(r *Report) map[string]string {
	u := r.Utility.Report
	if u == nil {
		return nil
	}
	out := map[string]string{}
	methods := u.Options.Methods
	if len(methods) == 0 {
		methods = utility.AllMethods()
	}
	if s := u.Options.Synthetic; s != nil {
		for _, ln := range utility.SyntheticLosses(s) {
			var g *utility.SyntheticGrid
			for i := range s.Grids {
				if s.Grids[i].Loss == ln && (g == nil || len(s.Grids[i].Dims) > len(g.Dims)) {
					g = &s.Grids[i]
				}
			}
			e := g.Epsilons[0]
			if containsF(g.Epsilons, 1) {
				e = 1
			}
			pl := plot.Plot{Title: fmt.Sprintf("synthetic %s, ε = %g, n = %d, median excess (solid k = %d, dashed k = %d)", ln, e, g.N, g.Ranks[0], g.Ranks[len(g.Ranks)-1]),
				XLabel: "d", YLabel: "excess empirical risk (median)", XLog: true, YLog: true}
			for _, m := range methods {
				if m == utility.MethodNonPrivate {
					continue
				}
				for ri, k := range []int{g.Ranks[0], g.Ranks[len(g.Ranks)-1]} {
					if ri == 1 && len(g.Ranks) == 1 {
						break
					}
					var xs, ys []float64
					for _, d := range g.Dims {
						if c := utility.FindCell(u, utility.WorkloadSynthetic, ln, g.N, k, d, e, m); c != nil && c.Error == "" && c.Runs > 0 && c.ExcessMedian > 0 {
							xs, ys = append(xs, float64(d)), append(ys, c.ExcessMedian)
						}
					}
					if len(xs) == 0 {
						continue
					}
					name := ""
					if ri == 0 {
						name = m
					}
					kind := plot.Line
					if len(xs) == 1 {
						kind = plot.Points
					}
					pl.Series = append(pl.Series, plot.Series{Name: name, X: xs, Y: ys, Kind: kind, Dashed: ri == 1, Color: utility.MethodColor(m)})
				}
			}
			out["utility-synthetic-"+ln+".svg"] = pl.SVG()
		}
	}
	return out
}

func containsF(xs []float64, v float64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

func maxInt(xs []int) int {
	m := math.MinInt
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
