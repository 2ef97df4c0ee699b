//go:build !js

package study

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// TestStudyDatasets: every study dataset loads from the repository with a
// declared range for every feature (and the target), both halves hold both
// tasks, and iris, wine and Pima are not among them.
func TestStudyDatasets(t *testing.T) {
	halves := map[string]map[string]int{HalfDev: {}, HalfEval: {}}
	files := map[string]bool{}
	for _, d := range StudyDatasets {
		for _, bad := range []string{"iris", "wine", "pima"} {
			if strings.Contains(strings.ToLower(d.Key+d.File), bad) {
				t.Errorf("%s: %s is reserved for the independent check", d.Key, bad)
			}
		}
		tab, clampedY, err := d.Load("../../../..")
		if err != nil {
			t.Fatalf("%s: %v", d.Key, err)
		}
		if len(tab.X) < 100 {
			t.Errorf("%s: %d rows", d.Key, len(tab.X))
		}
		t.Logf("%s (%s, %s): %d rows × %d features, %d feature cells and %d targets clamped by the declared ranges", d.Key, d.Half, d.Task, len(tab.X), len(tab.Columns), tab.Clamped, clampedY)
		halves[d.Half][d.Task]++
		if d.Dir == "bench" {
			files[d.File] = true
		}
	}
	for h, m := range halves {
		if m[TaskClassification] == 0 || m[TaskRegression] == 0 {
			t.Errorf("%s half: %v", h, m)
		}
	}
	if len(files) < 8 {
		t.Errorf("%d study datasets beside the built-ins, want ≥ 8", len(files))
	}
}

// fakeRuns makes runs of one dataset, loss, ε and method at config cfg over
// splits 0 … k−1 with the given scores.
func fakeRuns(ds, half, task, cfg string, c float64, m string, k int, score float64) []StudyRun {
	var out []StudyRun
	for sp := 0; sp < k; sp++ {
		v := score + 0.001*float64(sp%3)
		out = append(out, StudyRun{Dataset: ds, Half: half, Task: task, Loss: "logistic", Split: sp, Epsilon: 1, Config: cfg, C: c,
			Method: m, N: 100, D: 3, Metric: v, Score: v})
	}
	return out
}

// TestStudyTableNeedsSplits: a report table cannot be built from a single
// Split (issue 20): summarizeStudy refuses it; with 20 splits the same cell
// is reported with an interval. The guard is what refuses: at minSplits = 1
// (a deliberately broken report) the single split goes through.
func TestStudyTableNeedsSplits(t *testing.T) {
	o := DefaultStudyOptions()
	o.Epsilons = []float64{1}
	mk := func(k int) []StudyRun {
		var rs []StudyRun
		for _, m := range []string{utility.MethodExponential, utility.MethodDPGD} {
			rs = append(rs, fakeRuns("breast-cancer", HalfDev, TaskClassification, "c=4", 4, m, k, 0.9)...)
			rs = append(rs, fakeRuns("penguins", HalfEval, TaskClassification, "c=4", 4, m, k, 0.8)...)
		}
		return rs
	}
	if _, err := summarizeStudy(mk(1), o, minStudySplits); err == nil || !strings.Contains(err.Error(), "split") {
		t.Errorf("a single split was accepted: %v", err)
	}
	if _, err := summarizeStudy(mk(1), o, 1); err != nil {
		t.Errorf("the broken guard (minSplits = 1) still refuses: %v", err)
	}
	s, err := summarizeStudy(mk(20), o, minStudySplits)
	if err != nil {
		t.Fatal(err)
	}
	c := s.cell("penguins", "logistic", 1, utility.MethodExponential)
	if c == nil || len(c.Splits) != 20 || !(c.CI[0] < c.Mean && c.Mean < c.CI[1]) {
		t.Errorf("cell %+v", c)
	}
	var b strings.Builder
	StudyMarkdown(&b, s)
	if !strings.Contains(b.String(), "20 random 80/20 splits") {
		t.Error("the section does not state its splits")
	}
}

// TestSelectDefaultsDevOnly: the selection reads the development half only
// (an evaluation half that favours another c does not move it), takes the
// best mean, and adopts an Algorithm 1 alternative only if it beats the
// plain rule at the page's c.
func TestSelectDefaultsDevOnly(t *testing.T) {
	o := DefaultStudyOptions()
	var rs []StudyRun
	for _, c := range []float64{1, 2, 4, 8} {
		score := 0.8
		if c == 2 {
			score = 0.9
		}
		rs = append(rs, fakeRuns("breast-cancer", HalfDev, TaskClassification, ConfigName(c, ""), c, utility.MethodExponential, 20, score)...)
		eval := 0.5
		if c == 8 {
			eval = 0.99
		}
		rs = append(rs, fakeRuns("penguins", HalfEval, TaskClassification, ConfigName(c, ""), c, utility.MethodExponential, 20, eval)...)
	}
	rs = append(rs, fakeRuns("breast-cancer", HalfDev, TaskClassification, ConfigName(4, ExtraEtaPaper), 4, utility.MethodExponential, 20, 0.85)...)
	rs = append(rs, fakeRuns("breast-cancer", HalfDev, TaskClassification, ConfigName(4, ExtraNoIntercept), 4, utility.MethodExponential, 20, 0.7)...)
	sel, ok := selectionFor(SelectDefaults(rs, o), TaskClassification, utility.MethodExponential)
	if !ok || sel.C != 2 || sel.Config != "c=2|eta=paper" {
		t.Errorf("selection %+v, want c = 2 with eta=paper (beats c=4 plain 0.80; nointercept does not)", sel)
	}
}

// TestRunStudyResumes: a small study (one development dataset, 2 splits)
// writes its runs; running it again redoes nothing.
func TestRunStudyResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the mechanism")
	}
	o := StudyOptions{Epsilons: []float64{1}, Splits: 2, Delta: 1e-5, Grid: []float64{2}, Datasets: []string{"gapminder"},
		Losses: map[string][]string{TaskRegression: {"huber"}}}
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	logf := func(string, ...any) {}
	rep, err := RunStudy(context.Background(), "../../../..", path, o, logf)
	if err != nil {
		t.Fatal(err)
	}
	// 2 splits × (non-private + Algorithm 1 + 2 DP-GD + output and objective
	// perturbation, recorded as not run for huber) at one c and ε.
	if len(rep.Runs) != 2*6 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	for _, r := range rep.Runs {
		if r.Method == utility.MethodDPGD && (r.Schedule == "" || r.Params["steps"] < 50) {
			t.Errorf("dp-gd run without its schedule: %+v", r)
		}
		if r.Method == utility.MethodExponential && !(r.Metric > 0) {
			t.Errorf("exponential run %+v", r)
		}
	}
	before, _ := os.ReadFile(path)
	if _, err := RunStudy(context.Background(), "../../../..", path, o, logf); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if len(after) != len(before) {
		t.Errorf("the resumed study wrote %d more bytes", len(after)-len(before))
	}
}

// TestDefaultRadiusIsTheStudys: mechanism.DefaultRadius's constants are the
// multipliers the study selected for Algorithm 1 on the development half
// (docs/study/runs.jsonl), so the page, the API and the bench share the one
// rule the study chose; a changed constant or a re-run study that selects
// another c fails here.
func TestDefaultRadiusIsTheStudys(t *testing.T) {
	s, err := LoadStudy("../../../..", filepath.Join("docs", "study", "runs.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != "measured" {
		t.Skip("no study runs file")
	}
	for task, k := range map[string]loss.Kind{TaskClassification: loss.Logistic, TaskRegression: loss.Huber} {
		sel, ok := selectionFor(s.Selection, task, utility.MethodExponential)
		if !ok {
			t.Fatalf("%s: no selection", task)
		}
		for _, clip := range []float64{1, 3} {
			if got := mechanism.DefaultRadius(k, clip, nil); math.Abs(got-sel.C/clip) > 1e-12 {
				t.Errorf("%s: DefaultRadius(clip %g) = %g, the study selected C = %g/clip", task, clip, got, sel.C)
			}
		}
	}
}
