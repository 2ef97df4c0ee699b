//go:build !js

package study

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dpsample/dpsample/core/baseline"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// The real-data study of issue 20: every study dataset (realdata.go) over
// StudyOptions.Splits random 80/20 splits, at every ε, for two losses per
// task, Algorithm 1 against both DP-GD schedules (core/dpgd), output and
// objective perturbation (logistic) and the non-private fit in the same ball.
// Each split runs every method once (one mechanism seed per split): the
// intervals of the report are bootstraps over splits, so they include the
// split's, the test set's and the mechanism's randomness.
//
// Preprocessing is public: features from their declared ranges to [−1, 1],
// an intercept column of ones appended (unless a configuration drops it),
// clip = √dim (no row is ever changed: ‖x‖ ≤ √dim), a regression target
// from its declared range to [−1, 1]. The radius is C = c/√dim for a
// multiplier c (G·C = c for every loss here: the largest margin or
// prediction a unit-clip row can reach), i.e. mechanism.DefaultRadius's form.
//
// Phase 1 runs the development half over the grid StudyOptions.Grid of c
// (every method) and, for Algorithm 1, the alternatives of Extras at the
// page's c. The selection (SelectDefaults) is computed from the development
// runs only; phase 2 runs the evaluation half once, every method at its
// selected configuration. Runs are appended to a JSON-lines file as they
// finish, so a stopped study resumes where it was.

// StudyOptions configure RunStudy.
type StudyOptions struct {
	Epsilons []float64           `json:"epsilons"`
	Splits   int                 `json:"splits"`
	Delta    float64             `json:"delta"`
	Grid     []float64           `json:"grid"`     // multipliers c of C = c/√dim tried on the development half
	Extras   []string            `json:"extras"`   // Algorithm 1 alternatives tried on the development half at the page's c
	Losses   map[string][]string `json:"losses"`   // task → losses
	Datasets []string            `json:"datasets"` // keys of StudyDatasets (default all)
	// TaskGrid adds multipliers for one task (classification: 16, 32 — the
	// first development runs showed the non-private fit in the ball still
	// rising at c = 8 on breast cancer, so the grid was extended before any
	// selection was made).
	TaskGrid map[string][]float64 `json:"taskGrid,omitempty"`
	// ReadAlso are further runs files (read only): runs done by another
	// process of the same study count as done, and in the selection.
	ReadAlso []string `json:"-"`
	// SplitFrom, SplitTo (inclusive; 0, 0: all) restrict this process to some
	// splits, so that processes can share one dataset.
	SplitFrom, SplitTo int `json:"-"`
}

// DefaultStudyOptions is the study of issue 20, sized for about an hour on
// one core of the shared machine.
func DefaultStudyOptions() StudyOptions {
	return StudyOptions{Epsilons: []float64{0.5, 1, 2, 5}, Splits: 20, Delta: 1e-5, Grid: []float64{1, 2, 4, 8},
		TaskGrid: map[string][]float64{TaskClassification: {16, 32}},
		Extras:   []string{ExtraEtaPaper, ExtraNoIntercept},
		Losses:   map[string][]string{TaskClassification: {"logistic", "smooth-hinge"}, TaskRegression: {"huber", "smooth-quantile"}}}
}

// Algorithm 1 alternatives of the development half.
const (
	ExtraEtaPaper    = "eta=paper"   // the paper's η rule instead of the bound-optimal one
	ExtraNoIntercept = "nointercept" // no intercept column
	ExtraClip1       = "clip=1"      // rows clipped to norm 1 (C = c, G·C = c as before)
)

// PageMultiplier is the page's rule before this study (DEFAULTS.md): C·clip
// = 4 for classification, 2 for regression.
func PageMultiplier(task string) float64 {
	if task == TaskClassification {
		return 4
	}
	return 2
}

// StudyRun is one method's release on one split.
type StudyRun struct {
	Dataset  string             `json:"dataset"`
	Half     string             `json:"half"`
	Task     string             `json:"task"`
	Loss     string             `json:"loss"`
	Split    int                `json:"split"`
	Epsilon  float64            `json:"epsilon"` // 0 for the non-private fit
	Config   string             `json:"config"`  // "c=4" or "c=4|eta=paper" …
	C        float64            `json:"c"`       // the multiplier
	Radius   float64            `json:"radius"`
	Method   string             `json:"method"`
	N        int                `json:"n"`
	D        int                `json:"d"`
	Metric   float64            `json:"metric"` // test accuracy, or test MAE in target units
	Score    float64            `json:"score"`  // accuracy, or −MAE/half-range (higher is better)
	Excess   float64            `json:"excess"` // training loss − min over the ball (same C)
	Seconds  float64            `json:"seconds"`
	Params   map[string]float64 `json:"params,omitempty"`
	Schedule string             `json:"schedule,omitempty"`
	Error    string             `json:"error,omitempty"`
}

func (r StudyRun) key() string {
	return fmt.Sprintf("%s|%s|%d|%g|%s|%s", r.Dataset, r.Loss, r.Split, r.Epsilon, r.Config, r.Method)
}

// ReadStudyRuns reads a results file, gzipped if its name ends in .gz
// (missing file: none).
func ReadStudyRuns(path string) ([]StudyRun, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rd io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer gz.Close()
		rd = gz
	}
	var out []StudyRun
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r StudyRun
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			continue // a line torn by an interrupted run (the run is redone on resume)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

func ConfigName(c float64, extra string) string {
	s := "c=" + fmt.Sprint(c)
	if extra != "" {
		s += "|" + extra
	}
	return s
}

// Split is one random 80/20 split of a dataset, with the intercept column.
type Split struct {
	XTr, XTe [][]float64
	YTr, YTe []float64
}

func SplitSeed(ds string, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "study-split|%s|%d", ds, i)
	return h.Sum64()
}

func RunSeed(parts ...any) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return h.Sum64()
}

// MakeSplit permutes the rows with the split's public seed and appends the
// intercept column (when intercept).
func MakeSplit(x [][]float64, y []float64, seed uint64, intercept bool) Split {
	perm := rng.Seeded(seed).Perm(len(x))
	nTr := int(math.Round(0.8 * float64(len(x))))
	var s Split
	for i, p := range perm {
		row := slices.Clone(x[p])
		if intercept {
			row = append(row, 1)
		}
		if i < nTr {
			s.XTr, s.YTr = append(s.XTr, row), append(s.YTr, y[p])
		} else {
			s.XTe, s.YTe = append(s.XTe, row), append(s.YTe, y[p])
		}
	}
	return s
}

// StudyTask is one (dataset, loss, split, configuration) with its training
// set, reference fit and test data.
type StudyTask struct {
	Dataset StudyDataset
	Loss    loss.Kind
	Split   Split
	C       float64
	Extra   string
	Clip    float64
	Radius  float64
	Set     *loss.Set
	Ref     loss.BallMin
}

// NewStudyTask clips rows to √d (1 for ExtraClip1), C = c/clip.
func NewStudyTask(ds StudyDataset, k loss.Kind, sp Split, c float64, extra string) (*StudyTask, error) {
	clip := math.Sqrt(float64(len(sp.XTr[0])))
	if extra == ExtraClip1 {
		clip = 1
	}
	return NewStudyTaskClip(ds, k, sp, c, extra, clip)
}

// NewStudyTaskClip is newStudyTask with the rows' clip given: C = c/clip.
func NewStudyTaskClip(ds StudyDataset, k loss.Kind, sp Split, c float64, extra string, clip float64) (*StudyTask, error) {
	t := &StudyTask{Dataset: ds, Loss: k, Split: sp, C: c, Extra: extra, Clip: clip, Radius: c / clip}
	set, err := loss.New(k, sp.XTr, sp.YTr, loss.Params{Clip: t.Clip})
	if err != nil {
		return nil, err
	}
	t.Set = set
	t.Ref = set.MinimizeInBall(t.Radius, studyReferenceIters(set.N(), len(sp.XTr[0])))
	return t, nil
}

// studyReferenceIters sizes the study's reference fit at about 3·10⁷
// operations (the smooth losses take 1/(β·clip²) steps; its certified gap is
// recorded with every non-private run).
func studyReferenceIters(n, d int) int {
	return int(math.Max(1000, math.Min(20000, 3e7/float64(n*d))))
}

// Evaluate returns the test metric and the score of θ.
func (t *StudyTask) Evaluate(theta []float64) (metric, score float64) {
	if t.Dataset.Task == TaskClassification {
		a := loss.Accuracy(t.clipRows(t.Split.XTe), t.Split.YTe, theta)
		return a, a
	}
	var s float64
	for i, x := range t.clipRows(t.Split.XTe) {
		s += math.Abs(stats.Dot(theta, x) - t.Split.YTe[i])
	}
	s /= float64(len(t.Split.XTe))
	return s * t.Dataset.TargetRange.Half(), -s
}

// clipRows applies the training clip to test rows (only clip = 1 changes any).
func (t *StudyTask) clipRows(x [][]float64) [][]float64 {
	if t.Extra != ExtraClip1 {
		return x
	}
	out := make([][]float64, len(x))
	for i, r := range x {
		n := math.Sqrt(stats.Dot(r, r))
		out[i] = slices.Clone(r)
		if n > t.Clip {
			for j := range out[i] {
				out[i][j] *= t.Clip / n
			}
		}
	}
	return out
}

// StudyMethods are the methods of the study, in report order.
func StudyMethods() []string {
	return []string{utility.MethodNonPrivate, utility.MethodExponential, utility.MethodDPGD, utility.MethodDPGDProjected, utility.MethodOutputPert, utility.MethodObjectivePert}
}

// Run releases one θ of method m at ε.
func (t *StudyTask) Run(ctx context.Context, m string, eps, delta float64, seed uint64) (StudyRun, error) {
	n, d := t.Set.N(), t.Set.Dim()
	out := StudyRun{Dataset: t.Dataset.Key, Half: t.Dataset.Half, Task: t.Dataset.Task, Loss: t.Loss.String(), Epsilon: eps,
		Config: ConfigName(t.C, t.Extra), C: t.C, Radius: t.Radius, Method: m, N: n, D: d}
	r := rng.Seeded(seed)
	t0 := time.Now()
	var theta []float64
	switch m {
	case utility.MethodNonPrivate:
		out.Epsilon = 0
		theta = t.Ref.Theta
		out.Params = map[string]float64{"referenceGap": t.Ref.Gap}
	case utility.MethodExponential:
		req := mechanism.Request{Loss: t.Loss.String(), X: t.Split.XTr, Y: t.Split.YTr, Epsilon: eps, Delta: delta, Radius: t.Radius,
			Clip: t.Clip, Seed: &seed}
		if t.Dataset.Task == TaskRegression {
			req.TargetRange = []float64{-1, 1}
		}
		if t.Extra == ExtraEtaPaper {
			req.EtaRule = mechanism.EtaPaper
		}
		res, err := mechanism.Sample(ctx, req, nil)
		if err != nil {
			return out, err
		}
		theta = res.Theta
		out.Params = map[string]float64{"eta": res.Plan.Eta, "mu": res.Plan.Mu, "steps": float64(res.Plan.Steps), "gdp": res.Plan.GDP}
		out.Schedule = res.Plan.Method
	case utility.MethodDPGD, utility.MethodDPGDProjected:
		sch, err := dpgd.NewSchedule(dpgd.Params{N: n, D: d, G: t.Set.G(), Curvature: t.Set.Curvature(), Radius: t.Radius,
			Epsilon: eps, Delta: delta, Projected: m == utility.MethodDPGDProjected})
		if err != nil {
			return out, err
		}
		if theta, err = dpgd.Run(ctx, t.Set, sch, r, nil); err != nil {
			return out, err
		}
		out.Params = map[string]float64{"steps": float64(sch.Steps), "step": sch.Step, "sigma": sch.Sigma, "gdp": sch.GDP}
		out.Schedule = sch.Rule
	case utility.MethodOutputPert, utility.MethodObjectivePert:
		if t.Loss != loss.Logistic {
			out.Error = m + " is run for logistic only here (SDCA's and Newton's closed forms)"
			return out, nil
		}
		g := t.Set.G()
		mu, err := baseline.OutputMu(n, d, g, t.Radius, eps, delta)
		if err != nil {
			return out, err
		}
		if m == utility.MethodOutputPert {
			p := baseline.OutputPert{Epsilon: eps, Delta: delta, Mu: mu, G: g, Tol: 0.01}
			if theta, err = baseline.OutputPerturbation(t.Set, p, r); err != nil {
				return out, err
			}
			out.Params = map[string]float64{"mu": mu}
			out.Schedule = "SDCA until the certified ‖θ − θ̂‖ ≤ 0.01·2G/(nμ), that error charged to the sensitivity"
		} else {
			lambda := baseline.ObjectiveLambda(n, mu, t.Clip, eps)
			p := baseline.ObjPert{Epsilon: eps, Delta: delta, Lambda: lambda, Clip: t.Clip}
			if theta, err = baseline.ObjectivePerturbation(t.Set, p, r); err != nil {
				return out, err
			}
			out.Params = map[string]float64{"lambda": lambda}
			out.Schedule = "Newton with backtracking to ‖∇J‖ ≤ 1e-12 (distance to the exact minimiser ≤ 1e-12/λ)"
		}
	default:
		return out, fmt.Errorf("unknown method %q", m)
	}
	out.Seconds = time.Since(t0).Seconds()
	out.Metric, out.Score = t.Evaluate(theta)
	out.Excess = t.Set.Mean(theta) - t.Ref.Loss
	return out, nil
}

// StudyReport is the study in docs/benchmarks.json: the options, the
// dev/eval assignment, the selection and every run.
type StudyReport struct {
	Options    StudyOptions      `json:"options"`
	Assignment map[string]string `json:"assignment"` // dataset → half
	Selection  []Selection       `json:"selection"`
	Runs       []StudyRun        `json:"runs"`
	Seconds    float64           `json:"seconds"` // wall time of all runs (sum of their phases)
	Schedules  map[string]string `json:"schedules"`
	Private    bool              `json:"private"` // false: every run is seeded (reproducible, not private)
}

// Selection is one method's configuration chosen on the development half.
type Selection struct {
	Task   string             `json:"task"`
	Method string             `json:"method"`
	Config string             `json:"config"`
	C      float64            `json:"c"`
	Extras []string           `json:"extras,omitempty"`
	Scores map[string]float64 `json:"scores"` // config → mean development score
}

// SelectDefaults chooses, per task and method, the multiplier c with the
// highest mean development score (accuracy; −MAE/half-range), over every
// development dataset, ε and split of the task's first loss (logistic,
// huber: the only ones run over the whole grid by Algorithm 1); for Algorithm 1 each extra is then
// adopted if its mean at the page's c beats the plain configuration at that
// c. Ties go to the smaller c.
func SelectDefaults(runs []StudyRun, o StudyOptions) []Selection {
	var out []Selection
	for _, task := range []string{TaskClassification, TaskRegression} {
		for _, m := range StudyMethods() {
			sum, cnt := map[string]float64{}, map[string]int{}
			for _, r := range runs {
				if r.Half != HalfDev || r.Task != task || r.Method != m || r.Error != "" || r.Loss != o.Losses[task][0] {
					continue
				}
				sum[r.Config] += r.Score
				cnt[r.Config]++
			}
			if len(cnt) == 0 {
				continue
			}
			sel := Selection{Task: task, Method: m, Scores: map[string]float64{}}
			for cfg, s := range sum {
				sel.Scores[cfg] = s / float64(cnt[cfg])
			}
			best := math.Inf(-1)
			for _, c := range o.GridFor(task) {
				if v, ok := sel.Scores[ConfigName(c, "")]; ok && v > best {
					best, sel.C = v, c
				}
			}
			if m == utility.MethodExponential {
				pc := PageMultiplier(task)
				for _, e := range o.Extras {
					if v, ok := sel.Scores[ConfigName(pc, e)]; ok && v > sel.Scores[ConfigName(pc, "")] {
						sel.Extras = append(sel.Extras, e)
					}
				}
			}
			sel.Config = ConfigName(sel.C, strings.Join(sel.Extras, "|"))
			out = append(out, sel)
		}
	}
	return out
}

func selectionFor(sels []Selection, task, m string) (Selection, bool) {
	for _, s := range sels {
		if s.Task == task && s.Method == m {
			return s, true
		}
	}
	return Selection{}, false
}

// RunStudy runs (or resumes) the study, appending every run to path.
func RunStudy(ctx context.Context, root, path string, o StudyOptions, logf func(string, ...any)) (StudyReport, error) {
	start := time.Now()
	done, err := ReadStudyRuns(path)
	if err != nil {
		return StudyReport{}, err
	}
	for _, f := range o.ReadAlso {
		more, err := ReadStudyRuns(f)
		if err != nil {
			return StudyReport{}, err
		}
		done = append(done, more...)
	}
	have := map[string]bool{}
	for _, r := range done {
		have[r.key()] = true
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return StudyReport{}, err
	}
	defer f.Close()
	emit := func(r StudyRun) error {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := f.Write(append(b, '\n')); err != nil {
			return err
		}
		done = append(done, r)
		have[r.key()] = true
		return nil
	}
	datasets := o.Datasets
	if len(datasets) == 0 {
		for _, d := range StudyDatasets {
			datasets = append(datasets, d.Key)
		}
	}
	curLoss := ""
	phase := func(half string, configs func(task string, m string) []string) error {
		for _, key := range datasets {
			ds, ok := LookupStudy(key)
			if !ok {
				return fmt.Errorf("unknown study dataset %q", key)
			}
			if ds.Half != half {
				continue
			}
			tab, _, err := ds.Load(root)
			if err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			t0 := time.Now()
			for _, ln := range o.Losses[ds.Task] {
				k, err := loss.ParseKind(ln)
				if err != nil {
					return err
				}
				curLoss = ln
				for sp := 0; sp < o.Splits; sp++ {
					if o.SplitTo > 0 && (sp < o.SplitFrom || sp > o.SplitTo) {
						continue
					}
					// Which (config, method) pairs this split needs.
					type cm struct{ cfg, m string }
					var todo []cm
					for _, m := range StudyMethods() {
						for _, cfg := range configs(ds.Task, m) {
							todo = append(todo, cm{cfg, m})
						}
					}
					tasks := map[string]*StudyTask{}
					splits := map[bool]Split{}
					for _, x := range todo {
						epss := o.Epsilons
						if x.m == utility.MethodNonPrivate {
							epss = []float64{0}
						}
						for _, eps := range epss {
							probe := StudyRun{Dataset: ds.Key, Loss: ln, Split: sp, Epsilon: eps, Config: x.cfg, Method: x.m}
							if have[probe.key()] {
								continue
							}
							if err := ctx.Err(); err != nil {
								return err
							}
							c, extra := parseConfig(x.cfg)
							st := tasks[x.cfg]
							if st == nil {
								intercept := extra != ExtraNoIntercept
								s, ok := splits[intercept]
								if !ok {
									s = MakeSplit(tab.X, tab.Y, SplitSeed(ds.Key, sp), intercept)
									splits[intercept] = s
								}
								if st, err = NewStudyTask(ds, k, s, c, extra); err != nil {
									return err
								}
								tasks[x.cfg] = st
							}
							run, err := st.Run(ctx, x.m, eps, o.Delta, RunSeed(ds.Key, ln, sp, eps, x.cfg, x.m))
							if err != nil {
								return fmt.Errorf("%s: %w", probe.key(), err)
							}
							run.Split = sp
							if err := emit(run); err != nil {
								return err
							}
						}
					}
				}
				logf("study: %s %s (%s) done, %.0f s so far on this dataset, %.0f s in all", key, ln, half, time.Since(t0).Seconds(), time.Since(start).Seconds())
			}
		}
		return nil
	}
	devConfigs := func(task, m string) []string {
		if m == utility.MethodExponential && curLoss != o.Losses[task][0] {
			// The second loss of a task follows its family's rule: on the
			// development half it runs at the page's c only (time budget).
			return []string{ConfigName(PageMultiplier(task), "")}
		}
		var out []string
		for _, c := range o.GridFor(task) {
			out = append(out, ConfigName(c, ""))
		}
		if m == utility.MethodExponential {
			for _, e := range o.Extras {
				out = append(out, ConfigName(PageMultiplier(task), e))
			}
		}
		return out
	}
	if err := phase(HalfDev, devConfigs); err != nil {
		return StudyReport{}, err
	}
	sels := SelectDefaults(done, o)
	logf("study: selection on the development half: %v", sels)
	evalConfigs := func(task, m string) []string {
		s, ok := selectionFor(sels, task, m)
		if !ok {
			return nil
		}
		return []string{s.Config}
	}
	if err := phase(HalfEval, evalConfigs); err != nil {
		return StudyReport{}, err
	}
	return buildStudyReport(done, o), nil
}

// GridFor is the multipliers tried for a task on the development half.
func (o StudyOptions) GridFor(task string) []float64 {
	return append(slices.Clone(o.Grid), o.TaskGrid[task]...)
}

// parseConfig splits "c=4|eta=paper" into 4 and "eta=paper".
func parseConfig(cfg string) (float64, string) {
	parts := strings.SplitN(cfg, "|", 2)
	var c float64
	fmt.Sscanf(strings.TrimPrefix(parts[0], "c="), "%g", &c)
	if len(parts) == 2 {
		return c, parts[1]
	}
	return c, ""
}

// buildStudyReport assembles the report from the runs alone (no re-run).
func buildStudyReport(runs []StudyRun, o StudyOptions) StudyReport {
	rep := StudyReport{Options: o, Assignment: map[string]string{}, Runs: runs, Schedules: map[string]string{}}
	for _, d := range StudyDatasets {
		rep.Assignment[d.Key] = d.Half
	}
	rep.Selection = SelectDefaults(runs, o)
	for _, r := range runs {
		rep.Seconds += r.Seconds
		if r.Schedule != "" {
			rep.Schedules[r.Method+" ("+r.Loss+")"] = r.Schedule
		}
	}
	return rep
}
