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
)

// Utility is section 3: UtilityBench (study.go; issue 9 part B) with
// its full preset (FullUtilityOptions; QuickUtilityOptions under
// BENCH_QUICK=1).
type Utility struct {
	Status string         `json:"status"` // "measured"
	Preset string         `json:"preset"`
	Report *UtilityReport `json:"report"`
}

func utility(root string) (Utility, error) {
	o, preset := FullUtilityOptions(), "FullUtilityOptions"
	if quick {
		o, preset = QuickUtilityOptions(), "QuickUtilityOptions"
	}
	if o.Real != nil {
		o.Real.DataDir = filepath.Join(root, "site", "data")
	}
	last := time.Now()
	rep, err := UtilityBench(context.Background(), o, func(done, total int) {
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

// pm formats mean ± std, printing float residue (|x| < 10⁻¹²) as 0.
func pm(m, s float64) string {
	z := func(x float64) float64 {
		if math.Abs(x) < 1e-12 {
			return 0
		}
		return x
	}
	return fmt.Sprintf("%s ± %s", sig(z(m)), sig(z(s)))
}

// utilityHeadline is README's utility table: at the largest d, the mean
// excess risk of each method on every synthetic (loss, rank), and the
// exponential mechanism's dimension-free ratio.
func utilityHeadline(r *Report) string {
	u := r.Utility.Report
	if u == nil || u.Options.Synthetic == nil {
		return ""
	}
	s := u.Options.Synthetic
	e := s.Epsilons[0]
	if containsF(s.Epsilons, 1) {
		e = 1
	}
	dHi := maxInt(s.Dims)
	methods := []string{MethodExponential, MethodDPGD, MethodDPGDProjected, MethodOutputPert}
	head := []string{"synthetic, ε = " + sig(e) + ", d = " + strconv.Itoa(dHi)}
	head = append(head, methods...)
	head = append(head, "exponential: risk(d="+strconv.Itoa(dHi)+")/risk(d="+strconv.Itoa(minInt(s.Dims))+")")
	var rows [][]string
	for _, ln := range s.Losses {
		for _, k := range s.Ranks {
			row := []string{fmt.Sprintf("%s, rank %d", ln, k)}
			for _, m := range methods {
				if c := findCell(u, WorkloadSynthetic, ln, k, dHi, e, m); c != nil && c.Error == "" {
					row = append(row, pm(c.ExcessMean, c.ExcessStd))
				} else {
					row = append(row, "n/a")
				}
			}
			ratio := ""
			for _, d := range u.Ratios {
				if d.Loss == ln && d.Rank == k && d.Epsilon == e && d.Method == MethodExponential {
					ratio = pm(d.Ratio, d.RatioSE)
				}
			}
			rows = append(rows, append(row, ratio))
		}
	}
	return "Excess empirical risk (mean ± std over seeds) against the baselines at equal (ε, δ):\n\n" + table(head, rows)
}

func utilityMarkdown(b *strings.Builder, r *Report) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	u := r.Utility.Report
	if u == nil {
		p("**Pending.**\n\n")
		return
	}
	o := u.Options
	p("From `UtilityBench(ctx, %s())` (issue 9 part B, wasm/tools/bench/study.go over the baselines of core/baseline), %.0f s. ", r.Utility.Preset, u.Seconds)
	p("All methods at the same (ε, δ = %g) under replace-one neighbours, accounted with the exact Gaussian-DP curve where the method allows it; every hyper-parameter is fixed a priori from public quantities:\n\n", u.Hyper.Delta)
	for _, l := range [][2]string{{"accountant", u.Hyper.Accountant}, {"exponential mechanism (Algorithm 1)", u.Hyper.ExponentialRule},
		{"DP-GD", fmt.Sprintf("T = %d; %s", u.Hyper.GDSteps, u.Hyper.GDRule)}, {"output perturbation", u.Hyper.OutputMuRule},
		{"objective perturbation", u.Hyper.ObjectiveRule}, {"excess risk", u.Hyper.ReferenceRule}, {"dimension-free computation", u.Hyper.DimensionFree}} {
		p("- **%s**: %s\n", l[0], l[1])
	}
	for _, n := range u.Hyper.Notes {
		p("- %s\n", n)
	}
	p("\n")
	methods := o.Methods
	if len(methods) == 0 {
		methods = AllMethods()
	}
	if s := o.Synthetic; s != nil {
		p("### Synthetic rank-k GLMs (n = %d, C = %g, %d seeds): excess empirical risk, mean ± std\n\n", s.N, s.Radius, s.Seeds)
		for _, ln := range s.Losses {
			for _, k := range s.Ranks {
				for _, e := range s.Epsilons {
					head := []string{"method"}
					for _, d := range s.Dims {
						head = append(head, "d = "+strconv.Itoa(d))
					}
					var rows [][]string
					for _, m := range methods {
						row := []string{m}
						any := false
						for _, d := range s.Dims {
							c := findCell(u, WorkloadSynthetic, ln, k, d, e, m)
							switch {
							case c == nil:
								row = append(row, "")
							case c.Error != "":
								row = append(row, "n/a")
							default:
								row = append(row, pm(c.ExcessMean, c.ExcessStd))
								any = true
							}
						}
						if any {
							rows = append(rows, row)
						}
					}
					p("**%s, rank %d, ε = %g**\n\n%s\n", ln, k, e, table(head, rows))
				}
			}
		}
		for _, ln := range s.Losses {
			p("![excess risk against d, %s](bench/utility-synthetic-%s.svg)\n\n", ln, ln)
		}
		p("Dimension-free check: risk(d = %d) / risk(d = %d) at fixed rank (target ≤ %g for the exponential mechanism):\n\n", maxInt(s.Dims), minInt(s.Dims), DimFreeTarget)
		var rows [][]string
		for _, d := range u.Ratios {
			meets := ""
			if d.Target > 0 {
				meets = map[bool]string{true: "yes", false: "**no**"}[d.Meets]
			}
			rows = append(rows, []string{d.Loss, strconv.Itoa(d.Rank), sig(d.Epsilon), d.Method, sig(d.Low), sig(d.High), pm(d.Ratio, d.RatioSE), meets})
		}
		p("%s\n", table([]string{"loss", "rank", "ε", "method", "risk(d low)", "risk(d high)", "ratio ± SE", "≤ 1.3"}, rows))
	}
	if rl := o.Real; rl != nil {
		p("### Real datasets: test accuracy on a fixed 80/20 split (C = %g, %d seeds), mean ± std\n\n", rl.Radius, rl.Seeds)
		for _, ds := range rl.Datasets {
			head := []string{"method"}
			for _, e := range rl.Epsilons {
				head = append(head, "ε = "+sig(e))
			}
			var rows, erows [][]string
			note := ""
			for _, m := range methods {
				row, erow := []string{m}, []string{m}
				any := false
				for _, e := range rl.Epsilons {
					c := findCell(u, ds, "", 0, 0, e, m)
					switch {
					case c == nil:
						row, erow = append(row, ""), append(erow, "")
					case c.Error != "":
						row, erow = append(row, "n/a"), append(erow, "n/a")
					default:
						row = append(row, pm(c.AccuracyMean, c.AccuracyStd))
						erow = append(erow, pm(c.ExcessMean, c.ExcessStd))
						any = true
						if c.Method == MethodExponential && c.EffectiveEpsilon > 0 && c.EffectiveEpsilon < c.Epsilon {
							note += fmt.Sprintf(" ε = %s ran at ε′ = %s;", sig(c.Epsilon), sig(c.EffectiveEpsilon))
						}
					}
				}
				if any {
					rows, erows = append(rows, row), append(erows, erow)
				}
			}
			p("**%s** — test accuracy\n\n%s\n", ds, table(head, rows))
			p("**%s** — excess empirical risk (training)\n\n%s\n", ds, table(head, erows))
			if note != "" {
				p("The exponential mechanism's sampler was capped at %d steps, so it ran at a smaller ε′ (still (ε, δ)-DP, handicapped):%s\n\n", rl.ExpStepBudget, strings.TrimSuffix(note, ";"))
			}
		}
		p("![test accuracy against ε](bench/utility-real.svg)\n\n")
	}
	var errs []string
	for _, c := range u.Cells {
		if c.Error != "" {
			errs = append(errs, fmt.Sprintf("%s/%s/k=%d/d=%d/ε=%g/%s: %s", c.Workload, c.Loss, c.Rank, c.D, c.Epsilon, c.Method, c.Error))
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		p("Cells marked n/a, and methods left out of a table where no cell applies (one example per reason):\n\n")
		seen := map[string]bool{}
		for _, e := range errs {
			msg := e[strings.Index(e, ": ")+2:]
			if !seen[msg] {
				seen[msg] = true
				p("- %s\n", e)
			}
		}
		p("\n")
	}
}

func findCell(u *UtilityReport, workload, ln string, k, d int, e float64, m string) *UtilityCell {
	for i := range u.Cells {
		c := &u.Cells[i]
		if c.Workload == workload && c.Epsilon == e && c.Method == m && (ln == "" || c.Loss == ln) && (k == 0 || c.Rank == k) && (d == 0 || c.D == d) {
			return c
		}
	}
	return nil
}

func utilityShortfalls(r *Report) []string {
	u := r.Utility.Report
	if u == nil {
		return []string{"Utility vs baselines is pending."}
	}
	var out []string
	for _, d := range u.Ratios {
		if d.Target > 0 && !d.Meets {
			within := ""
			if d.Ratio-d.RatioSE <= d.Target {
				within = " — within one standard error of the target, so not a clear miss at this number of seeds"
			}
			out = append(out, fmt.Sprintf("Dimension-free ratio of the exponential mechanism, %s rank %d, ε = %g: %s ± %s (target ≤ %g)%s.", d.Loss, d.Rank, d.Epsilon, sig(d.Ratio), sig(d.RatioSE), d.Target, within))
		}
	}
	capped := map[string][]string{}
	var names []string
	for _, c := range u.Cells {
		if c.Method == MethodExponential && c.EffectiveEpsilon > 0 && c.EffectiveEpsilon < c.Epsilon {
			if _, ok := capped[c.Workload]; !ok {
				names = append(names, c.Workload)
			}
			capped[c.Workload] = append(capped[c.Workload], fmt.Sprintf("ε = %g → ε′ = %s", c.Epsilon, sig(c.EffectiveEpsilon)))
		}
	}
	for _, n := range names {
		out = append(out, fmt.Sprintf("%s: the exponential mechanism's proximal sampler needs more than %d steps (T grows like n²s², §2), so it ran at a smaller ε′ (%s): still (ε, δ)-DP, but handicapped against the baselines, which is why it trails them on real data.", n, u.Options.Real.ExpStepBudget, strings.Join(capped[n], ", ")))
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
		methods = AllMethods()
	}
	if s := u.Options.Synthetic; s != nil && len(s.Epsilons) > 0 {
		e := s.Epsilons[len(s.Epsilons)/2]
		if containsF(s.Epsilons, 1) {
			e = 1
		}
		for _, ln := range s.Losses {
			pl := plot.Plot{Title: fmt.Sprintf("synthetic %s, ε = %g, n = %d (solid k = %d, dashed k = %d)", ln, e, s.N, s.Ranks[0], s.Ranks[len(s.Ranks)-1]),
				XLabel: "d", YLabel: "excess empirical risk", XLog: true, YLog: true}
			for _, m := range methods {
				if m == MethodNonPrivate {
					continue
				}
				for ri, k := range []int{s.Ranks[0], s.Ranks[len(s.Ranks)-1]} {
					if ri == 1 && len(s.Ranks) == 1 {
						break
					}
					var xs, ys []float64
					for _, d := range s.Dims {
						if c := findCell(u, WorkloadSynthetic, ln, k, d, e, m); c != nil && c.Error == "" && c.Runs > 0 {
							xs, ys = append(xs, float64(d)), append(ys, c.ExcessMean)
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
					pl.Series = append(pl.Series, plot.Series{Name: name, X: xs, Y: ys, Kind: kind, Dashed: ri == 1, Color: methodColor(m)})
				}
			}
			out["utility-synthetic-"+ln+".svg"] = pl.SVG()
		}
	}
	if rl := u.Options.Real; rl != nil {
		pl := plot.Plot{Title: "real data: test accuracy (solid " + rl.Datasets[0] + dashedName(rl.Datasets) + ")", XLabel: "ε", YLabel: "test accuracy", XLog: true}
		for _, m := range methods {
			for di, ds := range rl.Datasets {
				var xs, ys []float64
				for _, e := range rl.Epsilons {
					if c := findCell(u, ds, "", 0, 0, e, m); c != nil && c.Error == "" && len(c.Accuracy) > 0 {
						xs, ys = append(xs, e), append(ys, c.AccuracyMean)
					}
				}
				name := ""
				if di == 0 {
					name = m
				}
				if len(xs) == 0 {
					continue
				}
				pl.Series = append(pl.Series, plot.Series{Name: name, X: xs, Y: ys, Dashed: di > 0, Color: methodColor(m)})
			}
		}
		out["utility-real.svg"] = pl.SVG()
	}
	return out
}

func dashedName(ds []string) string {
	if len(ds) < 2 {
		return ""
	}
	return ", dashed " + ds[1]
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

func minInt(xs []int) int {
	m := math.MaxInt
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// methodColor gives every method one colour in every plot (Okabe–Ito, as
// core/plot's palette); the two samplings of Algorithm 1 share theirs.
func methodColor(m string) string {
	switch m {
	case MethodExponential, MethodExpDirect:
		return "#D55E00"
	case MethodDPGD:
		return "#0072B2"
	case MethodDPGDProjected:
		return "#56B4E9"
	case MethodOutputPert:
		return "#009E73"
	case MethodObjectivePert:
		return "#CC79A7"
	}
	return "#000000"
}
