//go:build !js

package study

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// StudySummary is the study's part of docs/benchmarks.json: built from the
// runs file (docs/study/runs.jsonl.gz) alone, so the report can be regenerated
// without re-running anything.
type StudySummary struct {
	Status     string            `json:"status"` // "measured" or "pending"
	RunsFile   string            `json:"runsFile"`
	Options    StudyOptions      `json:"options"`
	Assignment map[string]string `json:"assignment"`
	Selection  []Selection       `json:"selection"`
	Schedules  map[string]string `json:"schedules"`
	Cells      []StudyCell       `json:"cells"`
	Wins       []StudyWin        `json:"wins"`
	Plans      []NonSmoothPlan   `json:"nonSmoothPlans"`
	Runs       int               `json:"runs"`
	RunSeconds float64           `json:"runSeconds"` // sum of every run's wall time
	Datasets   []StudyDatasetRow `json:"datasets"`
}

// StudyDatasetRow describes one dataset as run.
type StudyDatasetRow struct {
	Key, Half, Task, Note string
	N, D                  int // training rows, θ's dimension (with the intercept)
}

// StudyCell is one dataset × loss × ε × method (at one configuration),
// over the splits.
type StudyCell struct {
	Dataset  string     `json:"dataset"`
	Half     string     `json:"half"`
	Task     string     `json:"task"`
	Loss     string     `json:"loss"`
	Epsilon  float64    `json:"epsilon"`
	Method   string     `json:"method"`
	Config   string     `json:"config"`
	Splits   []int      `json:"splits"`
	Values   []float64  `json:"values"` // test metric per split
	Mean     float64    `json:"mean"`
	CI       [2]float64 `json:"ci95"` // percentile bootstrap of the mean over splits
	Excess   float64    `json:"excessMedian"`
	SecsRun  float64    `json:"secondsPerRun"`
	Schedule string     `json:"schedule,omitempty"`
	Steps    float64    `json:"stepsMean,omitempty"`
}

// StudyWin compares Algorithm 1 with the best other private method in one
// evaluation (or development) cell: paired by split.
type StudyWin struct {
	Dataset string     `json:"dataset"`
	Half    string     `json:"half"`
	Loss    string     `json:"loss"`
	Epsilon float64    `json:"epsilon"`
	Best    string     `json:"bestOther"` // the other private method with the best mean
	Diff    float64    `json:"diff"`      // mean over splits of (Algorithm 1 − best other), in "higher is better" units
	DiffCI  [2]float64 `json:"diffCI95"`
	Winner  string     `json:"winner"` // "exponential", the other method, or "tie" (interval covers 0)
	Splits  int        `json:"splits"`
}

// NonSmoothPlan is Algorithm 1's planned zeroth-order run for a non-smooth
// loss (hinge, lad) at a dataset's shape: public, from NewPlan alone.
type NonSmoothPlan struct {
	Dataset           string  `json:"dataset"`
	Loss              string  `json:"loss"`
	Epsilon           float64 `json:"epsilon"`
	Steps             int     `json:"steps"`
	ExpectedLossEvals float64 `json:"expectedLossEvals"`
	Surrogate         string  `json:"surrogate"`
}

// minStudySplits: a report cell needs this many splits (issue 20: ≥ 20
// random 80/20 splits; a table from one split is what the issue rejected).
const minStudySplits = 20

// higherIsBetter converts a metric to "higher is better".
func higherIsBetter(task string, v float64) float64 {
	if task == TaskRegression {
		return -v
	}
	return v
}

// summarizeStudy builds the summary from the runs. It returns an error if
// any reported cell has fewer than minSplits distinct splits, so no table can
// be built from a single split.
func summarizeStudy(runs []StudyRun, o StudyOptions, minSplits int) (*StudySummary, error) {
	sum := &StudySummary{Status: "measured", Options: o, Assignment: map[string]string{}, Schedules: map[string]string{}, Runs: len(runs)}
	for _, d := range StudyDatasets {
		sum.Assignment[d.Key] = d.Half
	}
	sum.Selection = SelectDefaults(runs, o)
	type key struct {
		ds, loss string
		eps      float64
		m, cfg   string
	}
	groups := map[key][]StudyRun{}
	var order []key
	shape := map[string]StudyDatasetRow{}
	for _, r := range runs {
		sum.RunSeconds += r.Seconds
		if r.Error != "" {
			continue
		}
		if r.Schedule != "" && r.Method != utility.MethodExponential {
			sum.Schedules[r.Method+" ("+r.Loss+")"] = r.Schedule
		}
		if _, ok := shape[r.Dataset]; !ok && r.Config == ConfigName(r.C, "") {
			ds, _ := LookupStudy(r.Dataset)
			shape[r.Dataset] = StudyDatasetRow{Key: r.Dataset, Half: r.Half, Task: r.Task, Note: ds.Note, N: r.N, D: r.D}
		}
		k := key{r.Dataset, r.Loss, r.Epsilon, r.Method, r.Config}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, d := range StudyDatasets {
		if row, ok := shape[d.Key]; ok {
			sum.Datasets = append(sum.Datasets, row)
		}
	}
	// Reported cells: evaluation half at the selected configurations, and the
	// development half at the selected configurations too (labelled: the
	// selection saw them).
	for i, k := range order {
		rs := groups[k]
		task := rs[0].Task
		sel, ok := selectionFor(sum.Selection, task, k.m)
		if !ok || k.cfg != sel.Config {
			continue
		}
		sort.Slice(rs, func(a, b int) bool { return rs[a].Split < rs[b].Split })
		c := StudyCell{Dataset: k.ds, Half: rs[0].Half, Task: task, Loss: k.loss, Epsilon: k.eps, Method: k.m, Config: k.cfg, Schedule: rs[0].Schedule}
		var ex []float64
		for _, r := range rs {
			c.Splits = append(c.Splits, r.Split)
			c.Values = append(c.Values, r.Metric)
			ex = append(ex, r.Excess)
			c.SecsRun += r.Seconds / float64(len(rs))
			if r.Params != nil {
				c.Steps += r.Params["steps"] / float64(len(rs))
			}
		}
		if n := distinct(c.Splits); n < minSplits {
			return nil, fmt.Errorf("study cell %s/%s/ε=%g/%s/%s has %d distinct split(s), fewer than %d: no table is built from so few", k.ds, k.loss, k.eps, k.m, k.cfg, n, minSplits)
		}
		c.Mean = stats.Mean(c.Values)
		c.CI = stats.BootstrapCI(c.Values, stats.Mean, stats.BootSeed(i, 7))
		c.Excess = stats.Median(ex)
		sum.Cells = append(sum.Cells, c)
	}
	sum.Wins = studyWins(sum)
	for _, row := range sum.Datasets {
		for _, ln := range []string{"hinge", "lad"} {
			if (ln == "hinge") != (row.Task == TaskClassification) {
				continue
			}
			for _, e := range o.Epsilons {
				sel, _ := selectionFor(sum.Selection, row.Task, utility.MethodExponential)
				pl, err := nonSmoothPlan(ln, row.N, row.D, e, o.Delta, sel.C)
				if err != nil {
					continue
				}
				pl.Dataset = row.Key
				sum.Plans = append(sum.Plans, pl)
			}
		}
	}
	return sum, nil
}

func distinct(xs []int) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// nonSmoothPlan plans Algorithm 1 for hinge or lad at n × d (public: the
// plan depends on the shape, ε, δ, C and clip only; the rows are zeros).
func nonSmoothPlan(ln string, n, d int, eps, delta, c float64) (NonSmoothPlan, error) {
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		y[i] = 1
	}
	clip := math.Sqrt(float64(d))
	pl, err := mechanism.NewPlan(mechanism.Request{Loss: ln, X: x, Y: y, Epsilon: eps, Delta: delta, Radius: c / clip, Clip: clip})
	if err != nil {
		return NonSmoothPlan{}, err
	}
	sur := "smooth-hinge"
	if ln == "lad" {
		sur = "smooth-quantile (τ = ½)"
	}
	return NonSmoothPlan{Loss: ln, Epsilon: eps, Steps: pl.Steps, ExpectedLossEvals: pl.ExpectedLossEvals, Surrogate: sur}, nil
}

// studyWins pairs Algorithm 1 with the best other private method per cell.
func studyWins(sum *StudySummary) []StudyWin {
	var out []StudyWin
	find := func(ds, ln string, e float64, m string) *StudyCell {
		for i := range sum.Cells {
			c := &sum.Cells[i]
			if c.Dataset == ds && c.Loss == ln && c.Epsilon == e && c.Method == m {
				return c
			}
		}
		return nil
	}
	for i := range sum.Cells {
		a := &sum.Cells[i]
		if a.Method != utility.MethodExponential {
			continue
		}
		var best *StudyCell
		for _, m := range []string{utility.MethodDPGD, utility.MethodDPGDProjected, utility.MethodOutputPert, utility.MethodObjectivePert} {
			if c := find(a.Dataset, a.Loss, a.Epsilon, m); c != nil && (best == nil || higherIsBetter(a.Task, c.Mean) > higherIsBetter(a.Task, best.Mean)) {
				best = c
			}
		}
		if best == nil {
			continue
		}
		bv := map[int]float64{}
		for j, s := range best.Splits {
			bv[s] = best.Values[j]
		}
		var diffs []float64
		for j, s := range a.Splits {
			if v, ok := bv[s]; ok {
				diffs = append(diffs, higherIsBetter(a.Task, a.Values[j])-higherIsBetter(a.Task, v))
			}
		}
		w := StudyWin{Dataset: a.Dataset, Half: a.Half, Loss: a.Loss, Epsilon: a.Epsilon, Best: best.Method, Splits: len(diffs)}
		w.Diff = stats.Mean(diffs)
		w.DiffCI = stats.BootstrapCI(diffs, stats.Mean, stats.BootSeed(i, 11))
		switch {
		case w.DiffCI[0] > 0:
			w.Winner = utility.MethodExponential
		case w.DiffCI[1] < 0:
			w.Winner = best.Method
		default:
			w.Winner = "tie"
		}
		out = append(out, w)
	}
	return out
}

func (s *StudySummary) cell(ds, ln string, e float64, m string) *StudyCell {
	for i := range s.Cells {
		c := &s.Cells[i]
		if c.Dataset == ds && c.Loss == ln && c.Epsilon == e && c.Method == m {
			return c
		}
	}
	return nil
}

// has reports whether any cell of dataset ds and loss ln was reported.
func (s *StudySummary) has(ds, ln string) bool {
	for _, c := range s.Cells {
		if c.Dataset == ds && c.Loss == ln {
			return true
		}
	}
	return false
}

func (s *StudySummary) win(ds, ln string, e float64) *StudyWin {
	for i := range s.Wins {
		w := &s.Wins[i]
		if w.Dataset == ds && w.Loss == ln && w.Epsilon == e {
			return w
		}
	}
	return nil
}

// metricName names a task's metric.
func metricName(task string) string {
	if task == TaskClassification {
		return "test accuracy"
	}
	return "test mean absolute error (target units; lower is better)"
}

// studyTable is one dataset × loss: methods × ε, mean [95 % CI] (seconds per run).
func studyTable(s *StudySummary, ds StudyDatasetRow, ln string) string {
	head := []string{"method (config)"}
	for _, e := range s.Options.Epsilons {
		head = append(head, "ε = "+md.Sig(e))
	}
	var rows [][]string
	for _, m := range StudyMethods() {
		eps := s.Options.Epsilons
		if m == utility.MethodNonPrivate {
			eps = []float64{0}
		}
		row := []string{""}
		any := false
		for _, e := range s.Options.Epsilons {
			ee := e
			if len(eps) == 1 && eps[0] == 0 {
				ee = 0
			}
			c := s.cell(ds.Key, ln, ee, m)
			if c == nil {
				row = append(row, "n/a")
				continue
			}
			any = true
			row[0] = fmt.Sprintf("%s (%s)", m, c.Config)
			secs := md.Sig(c.SecsRun) + " s"
			if m == utility.MethodNonPrivate {
				secs = "reference fit, not timed"
			}
			row = append(row, fmt.Sprintf("%s [%s, %s] (%s)", md.Sig(c.Mean), md.Sig(c.CI[0]), md.Sig(c.CI[1]), secs))
		}
		if any {
			rows = append(rows, row)
		}
	}
	var wr []string
	wr = append(wr, "**best private**")
	for _, e := range s.Options.Epsilons {
		w := s.win(ds.Key, ln, e)
		if w == nil {
			wr = append(wr, "")
			continue
		}
		verdict := w.Winner
		if verdict == "tie" {
			verdict = "tie (Algorithm 1 vs " + w.Best + ")"
		}
		what := "Alg. 1 − " + w.Best
		if ds.Task == TaskRegression {
			what = "MAE(" + w.Best + ") − MAE(Alg. 1)"
		}
		wr = append(wr, fmt.Sprintf("%s: %s = %+.3g [%+.3g, %+.3g]", verdict, what, w.Diff, w.DiffCI[0], w.DiffCI[1]))
	}
	rows = append(rows, wr)
	return md.Table(head, rows)
}

// StudyMarkdown writes the study's section.
func StudyMarkdown(b *strings.Builder, s *StudySummary) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	if s == nil || s.Status != "measured" {
		p("**Pending**: run `go run ./wasm/tools/study -study docs/study/runs.jsonl` (resumable; about 100 minutes of wall time on this shared machine with several processes, see -study-split-range), gzip it to docs/study/runs.jsonl.gz, then `./build.sh bench` reads it.\n\n")
		return
	}
	o := s.Options
	p("Issue 20's study, built from `%s` (%d runs, %.0f s of run time in all; regenerated without re-running by every `./build.sh bench`, or by `go run ./wasm/tools/bench -render`). ", s.RunsFile, s.Runs, s.RunSeconds)
	p("Every dataset is run over **%d random 80/20 splits** (one mechanism seed per split and method); every interval is a **95 %% percentile bootstrap of the mean over splits**, so it covers the split, the test set and the mechanism together (the test sets of different splits overlap, so the intervals are, if anything, a little narrow). δ = %g, ε ∈ %v, replace-one neighbours, the exact Gaussian-DP accountant for Algorithm 1, both DP-GD variants and output perturbation; objective perturbation uses its own pointwise bound (ObjPert). No method here is pure ε-DP. The runs are seeded for reproducibility (not private releases).\n\n", o.Splits, o.Delta, o.Epsilons)
	p("**Preprocessing (public).** Features mapped from declared ranges (from each variable's definition or a physical limit; wasm/tools/bench/data/SOURCES.md) to [−1, 1], values outside clamped; an intercept column of ones; clip = √dim, so no row is ever changed; a regression target mapped from its declared range to [−1, 1]. C = c/√dim = c/clip for a multiplier c (`mechanism.DefaultRadius`'s form: a unit of c is one logit, or half the target range, of score reachable by a row of norm clip).\n\n")
	p("**Losses.** Classification: logistic and smooth-hinge (h = 1); regression: huber (h = 1) and smooth-quantile (τ = ½, h = 1, a smooth LAD), all through Algorithm 1's exact first-order sampler. On the development half the second loss of each task ran at the page's previous c only (time budget), so its development tables are left out; on the evaluation half both losses run at the selected configurations. The non-smooth hinge and LAD are the paper's case, but its zeroth-order sampler's planned work at these n is out of reach for 20 splits × 4 ε (table below, T from `mechanism.NewPlan` at the chosen C); their smooth surrogates stand in (smooth-hinge is within h/2 = 0.5 of the hinge, smooth-quantile within h/8 of |r|/2).\n\n")
	var rows [][]string
	for _, pl := range s.Plans {
		rows = append(rows, []string{pl.Dataset, pl.Loss, md.Sig(pl.Epsilon), fmt.Sprint(pl.Steps), md.Sig(pl.ExpectedLossEvals), pl.Surrogate})
	}
	if len(rows) > 0 {
		p("<details><summary>Planned zeroth-order runs for the non-smooth losses (not run)</summary>\n\n%s\n</details>\n\n", md.Table([]string{"dataset", "loss", "ε", "T (zeroth-order)", "expected loss evaluations", "run instead"}, rows))
	}
	p("**Schedules** (recorded per run in the runs file, `schedule`):\n\n")
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range s.Schedules {
			if !yield(k) {
				return
			}
		}
	}) {
		p("- %s: %s\n", k, s.Schedules[k])
	}
	p("- exponential (Algorithm 1): `mechanism.Sample`, sampler auto (the exact first-order sampler for these smooth losses), default η rule, half of δ for the sampler's TV.\n\n")
	p("**Datasets and the fixed development / evaluation assignment** (`StudyDatasets` in wasm/tools/internal/study/realdata.go, written before the first run; iris, wine and Pima are left out, reserved for an independent check of the defaults):\n\n")
	rows = nil
	for _, d := range s.Datasets {
		rows = append(rows, []string{d.Key, d.Half, d.Task, fmt.Sprint(d.N), fmt.Sprint(d.D), d.Note})
	}
	p("%s\n", md.Table([]string{"dataset", "half", "task", "n (training)", "d (with intercept)", "what"}, rows))
	p("#### Defaults chosen on the development half\n\n")
	p("Rule (`SelectDefaults`, fixed in code before the run): per task and method, the multiplier c (classification %v, regression %v) with the highest mean development score (accuracy; −MAE/half-range for regression) over the development datasets, ε and splits of the task's first loss (logistic, huber); Algorithm 1's alternatives %v are adopted if they beat the plain rule at the page's previous c (4 classification, 2 regression). The evaluation half then runs every method once, at its own selected configuration. The non-private row of every table is the fit in the ball of its own selected c (the best ceiling the development half found), not necessarily Algorithm 1's ball.\n\n", o.GridFor(TaskClassification), o.GridFor(TaskRegression), o.Extras)
	rows = nil
	for _, sel := range s.Selection {
		var cs, extras []string
		for _, c := range o.GridFor(sel.Task) {
			if v, ok := sel.Scores[ConfigName(c, "")]; ok {
				cs = append(cs, fmt.Sprintf("c=%g: %.4f", c, v))
			}
		}
		for cfg, v := range sel.Scores {
			if strings.Contains(cfg, "|") {
				extras = append(extras, fmt.Sprintf("%s: %.4f", cfg, v))
			}
		}
		sort.Strings(extras)
		cs = append(cs, extras...)
		rows = append(rows, []string{sel.Task, sel.Method, "**" + sel.Config + "**", strings.Join(cs, "; ")})
	}
	p("%s\n", md.Table([]string{"task", "method", "selected", "mean development score per configuration"}, rows))
	for _, half := range []string{HalfEval, HalfDev} {
		if half == HalfEval {
			p("#### Evaluation half (reported once, at the development-chosen configurations)\n\n")
		} else {
			p("#### Development half (the selection saw these: optimistic for the chosen configurations)\n\n")
		}
		for _, d := range s.Datasets {
			if d.Half != half {
				continue
			}
			for _, ln := range o.Losses[d.Task] {
				if !s.has(d.Key, ln) {
					continue // a development second loss runs at the page's c only, never at the selection
				}
				p("**%s, %s** (%s; n = %d, d = %d): %s, mean [95 %% CI over splits] (seconds per run)\n\n%s\n", d.Key, ln, d.Note, d.N, d.D, metricName(d.Task), studyTable(s, d, ln))
			}
		}
	}
	p("**Who wins** (Algorithm 1 against the best other private method at each cell, paired by split; a win needs the 95 %% interval of the mean difference to exclude 0; a positive difference favours Algorithm 1):\n\n")
	for _, half := range []string{HalfEval, HalfDev} {
		cnt := map[string]int{}
		tot := 0
		for _, w := range s.Wins {
			if w.Half == half {
				tot++
				if w.Winner == utility.MethodExponential {
					cnt["exp"]++
				} else if w.Winner == "tie" {
					cnt["tie"]++
				} else {
					cnt["other"]++
				}
			}
		}
		p("- %s half: Algorithm 1 wins %d of %d cells, loses %d, ties %d.\n", half, cnt["exp"], tot, cnt["other"], cnt["tie"])
	}
	p("\n")
	head := []string{"dataset (half), loss"}
	for _, e := range o.Epsilons {
		head = append(head, "ε = "+md.Sig(e))
	}
	rows = nil
	for _, half := range []string{HalfEval, HalfDev} {
		for _, d := range s.Datasets {
			if d.Half != half {
				continue
			}
			for _, ln := range o.Losses[d.Task] {
				if !s.has(d.Key, ln) {
					continue
				}
				if s.win(d.Key, ln, o.Epsilons[0]) == nil {
					continue // Algorithm 1 not run at the selection here
				}
				row := []string{fmt.Sprintf("%s (%s), %s", d.Key, d.Half[:3], ln)}
				for _, e := range o.Epsilons {
					if w := s.win(d.Key, ln, e); w != nil {
						name := map[string]string{utility.MethodExponential: "**Algorithm 1**", "tie": "tie"}[w.Winner]
						if name == "" {
							name = w.Winner
						}
						row = append(row, fmt.Sprintf("%s (%+.3g)", name, w.Diff))
					} else {
						row = append(row, "")
					}
				}
				rows = append(rows, row)
			}
		}
	}
	p("%s\n", md.Table(head, rows))
}

// StudyHeadline is README's study part: the evaluation half at ε = 1 and 5.
func StudyHeadline(s *StudySummary) string {
	if s == nil || s.Status != "measured" {
		return ""
	}
	var b strings.Builder
	pick := []float64{}
	for _, e := range []float64{1, 5} {
		if slices.Contains(s.Options.Epsilons, e) {
			pick = append(pick, e)
		}
	}
	fmt.Fprintf(&b, "Real data (issue 20's study; evaluation half, every method at the configuration chosen on the development half; mean [95 %% bootstrap CI over %d random 80/20 splits]; δ = %g; accuracy for classification, MAE in target units for regression; full tables, the development half and the schedules in docs/BENCHMARKS.md §3a):\n\n", s.Options.Splits, s.Options.Delta)
	head := []string{"dataset, loss, ε", "non-private", "Algorithm 1", "DP-GD", "DP-GD projected", "winner (paired difference over splits; + favours Algorithm 1)"}
	var rows [][]string
	for _, d := range s.Datasets {
		if d.Half != HalfEval {
			continue
		}
		ln := s.Options.Losses[d.Task][0]
		for _, e := range pick {
			row := []string{fmt.Sprintf("%s, %s, ε = %s", d.Key, ln, md.Sig(e))}
			for _, m := range []string{utility.MethodNonPrivate, utility.MethodExponential, utility.MethodDPGD, utility.MethodDPGDProjected} {
				ee := e
				if m == utility.MethodNonPrivate {
					ee = 0
				}
				if c := s.cell(d.Key, ln, ee, m); c != nil {
					row = append(row, fmt.Sprintf("%s [%s, %s]", md.Sig(c.Mean), md.Sig(c.CI[0]), md.Sig(c.CI[1])))
				} else {
					row = append(row, "n/a")
				}
			}
			if w := s.win(d.Key, ln, e); w != nil {
				row = append(row, fmt.Sprintf("%s (%+.3g [%+.3g, %+.3g])", w.Winner, w.Diff, w.DiffCI[0], w.DiffCI[1]))
			} else {
				row = append(row, "")
			}
			rows = append(rows, row)
		}
	}
	b.WriteString(md.Table(head, rows))
	return b.String()
}

// LoadStudy summarises the study's runs file (rel to root); a missing file
// gives a "pending" summary, a file with a cell of fewer than
// minStudySplits splits an error.
func LoadStudy(root, rel string) (*StudySummary, error) {
	runs, err := ReadStudyRuns(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return &StudySummary{Status: "pending", RunsFile: rel}, nil
	}
	// A run redone after an interruption (same key) counts once.
	seen := map[string]bool{}
	uniq := runs[:0]
	for _, r := range runs {
		if !seen[r.key()] {
			seen[r.key()] = true
			uniq = append(uniq, r)
		}
	}
	runs = uniq
	s, err := summarizeStudy(runs, DefaultStudyOptions(), minStudySplits)
	if err != nil {
		return nil, err
	}
	s.RunsFile = rel
	return s, nil
}
