//go:build !js

package study

import (
	"os"
	"path/filepath"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dataset"
)

// The real-data study's datasets (issue 20) and their fixed development /
// evaluation assignment. The assignment was written down here before the
// study was first run: the page's public rules (DefaultRadius's constants,
// the η rule, the intercept, the clip) are chosen on the development half
// only and reported once on the evaluation half. iris, wine and Pima are left
// out on purpose: they are reserved for an independent check of the defaults.
//
// Every feature and target range is declared from the variable's definition
// or a physical or administrative limit (documented in
// wasm/tools/bench/data/SOURCES.md), never from the data's min/max; values
// outside are clamped (dataset.Scale), and the number clamped is reported.
const (
	HalfDev            = "development"
	HalfEval           = "evaluation"
	TaskClassification = "classification"
	TaskRegression     = "regression"
)

// StudyDataset is one task on one public table.
type StudyDataset struct {
	Key         string
	Half        string // HalfDev or HalfEval
	Task        string // TaskClassification or TaskRegression
	File        string // under Dir
	Dir         string // "site" (site/data) or "bench" (wasm/tools/bench/data)
	Target      string
	Positive    string // classification: the +1 label
	Features    []string
	Ranges      map[string]dataset.Range
	TargetRange dataset.Range // regression: the declared target range
	Note        string
}

func rng16(names ...string) map[string]dataset.Range {
	m := map[string]dataset.Range{}
	for _, n := range names {
		m[n] = dataset.Range{Lo: 0, Hi: 16}
	}
	return m
}

func pixels() []string {
	var out []string
	for i := 0; i < 64; i++ {
		out = append(out, "p"+string(rune('0'+i/10))+string(rune('0'+i%10)))
	}
	return out
}

// StudyDatasets is the fixed list, development half first.
var StudyDatasets = []StudyDataset{
	// Development half.
	{Key: "breast-cancer", Half: HalfDev, Task: TaskClassification, File: "breast-cancer-wisconsin.csv", Dir: "site",
		Target: "malignant", Positive: "1", Ranges: dataset.BreastCancerRanges, Note: "malignant tumour"},
	{Key: "anes96", Half: HalfDev, Task: TaskClassification, File: "anes96.csv", Dir: "bench", Target: "vote", Positive: "1",
		Ranges: map[string]dataset.Range{"popul": {Lo: 0, Hi: 10000}, "TVnews": {Lo: 0, Hi: 7}, "selfLR": {Lo: 1, Hi: 7}, "ClinLR": {Lo: 1, Hi: 7},
			"DoleLR": {Lo: 1, Hi: 7}, "PID": {Lo: 0, Hi: 6}, "age": {Lo: 18, Hi: 100}, "educ": {Lo: 1, Hi: 7}, "income": {Lo: 1, Hi: 24}},
		Note: "expected vote Dole (1) vs Clinton, 1996 ANES"},
	{Key: "seattle-weather", Half: HalfDev, Task: TaskClassification, File: "seattle-weather.csv", Dir: "bench", Target: "sun", Positive: "1",
		Ranges: map[string]dataset.Range{"precipitation": {Lo: 0, Hi: 130}, "temp_max": {Lo: -20, Hi: 45}, "temp_min": {Lo: -20, Hi: 45}, "wind": {Lo: 0, Hi: 20}},
		Note:   "a sunny day in Seattle, 2012–2013 (the first two of the file's four years)"},
	{Key: "diabetes", Half: HalfDev, Task: TaskRegression, File: "diabetes.csv", Dir: "bench", Target: "progression",
		Ranges: map[string]dataset.Range{"age": {Lo: 0, Hi: 100}, "sex": {Lo: 1, Hi: 2}, "bmi": {Lo: 10, Hi: 60}, "bp": {Lo: 40, Hi: 160},
			"s1": {Lo: 50, Hi: 400}, "s2": {Lo: 0, Hi: 300}, "s3": {Lo: 10, Hi: 120}, "s4": {Lo: 1, Hi: 12}, "s5": {Lo: 2, Hi: 8}, "s6": {Lo: 40, Hi: 200}},
		TargetRange: dataset.Range{Lo: 0, Hi: 400}, Note: "disease progression after one year (Efron et al. 2004)"},
	{Key: "gapminder", Half: HalfDev, Task: TaskRegression, File: "gapminder.csv", Dir: "bench", Target: "life_expect",
		Ranges:      map[string]dataset.Range{"fertility": {Lo: 0, Hi: 10}, "year": {Lo: 1950, Hi: 2010}},
		TargetRange: dataset.Range{Lo: 0, Hi: 100}, Note: "life expectancy from fertility and year, countries × 5-year steps"},
	// Evaluation half.
	{Key: "penguins", Half: HalfEval, Task: TaskClassification, File: "palmer-penguins.csv", Dir: "site", Target: "sex", Positive: "MALE",
		Features: []string{"beak_length_mm", "beak_depth_mm", "flipper_length_mm", "body_mass_g"}, Ranges: dataset.PenguinRanges, Note: "male penguin"},
	{Key: "digits", Half: HalfEval, Task: TaskClassification, File: "digits.csv", Dir: "bench", Target: "digit_ge_5", Positive: "1",
		Features: pixels(), Ranges: rng16(pixels()...), Note: "handwritten digit ≥ 5, 8×8 counts in [0, 16]"},
	{Key: "flights", Half: HalfEval, Task: TaskClassification, File: "flights.csv", Dir: "bench", Target: "delayed", Positive: "1",
		Ranges: map[string]dataset.Range{"distance": {Lo: 0, Hi: 5000}, "dep_hour": {Lo: 0, Hi: 24}, "month": {Lo: 1, Hi: 12}},
		Note:   "flight delayed > 15 min (US DOT definition), 2001; the first 1000 rows of flights-2k"},
	{Key: "cars-mpg", Half: HalfEval, Task: TaskRegression, File: "cars.csv", Dir: "bench", Target: "mpg",
		Ranges: map[string]dataset.Range{"cylinders": {Lo: 2, Hi: 12}, "displacement": {Lo: 0, Hi: 500}, "horsepower": {Lo: 0, Hi: 400},
			"weight_lbs": {Lo: 1000, Hi: 6000}, "acceleration": {Lo: 0, Hi: 30}, "year": {Lo: 1970, Hi: 1982}},
		TargetRange: dataset.Range{Lo: 0, Hi: 60}, Note: "fuel economy (miles per gallon), 1970–82 cars"},
	{Key: "engel", Half: HalfEval, Task: TaskRegression, File: "engel.csv", Dir: "bench", Target: "foodexp",
		Ranges:      map[string]dataset.Range{"income": {Lo: 0, Hi: 5000}},
		TargetRange: dataset.Range{Lo: 0, Hi: 5000}, Note: "household food expenditure from income (Belgian francs, 1857); food ≤ income ≤ 5000"},
}

// LookupStudy returns the study dataset with the given key.
func LookupStudy(key string) (StudyDataset, bool) {
	for _, d := range StudyDatasets {
		if d.Key == key {
			return d, true
		}
	}
	return StudyDataset{}, false
}

// Path is the table's file under the repository root: site/data, or the
// bench's own data for Dir "bench".
func (s StudyDataset) Path(root string) string {
	dir := filepath.Join(root, "site", "data")
	if s.Dir == "bench" {
		dir = filepath.Join(root, "wasm", "tools", "bench", "data")
	}
	return filepath.Join(dir, s.File)
}

// Load parses and scales the table: features to [−1, 1] from the declared
// ranges, the regression target to [−1, 1] from its declared range (clamped),
// classification labels to ±1 from the declared positive label.
func (s StudyDataset) Load(root string) (*dataset.Table, int, error) {
	text, err := os.ReadFile(s.Path(root))
	if err != nil {
		return nil, 0, checks.Errorf("study.dataDir", "a directory holding %s (%v)", s.File, err)
	}
	opt := dataset.Options{Target: s.Target, Drop: "missing", Features: s.Features}
	if s.Task == TaskClassification {
		opt.TargetType, opt.Positive = dataset.TargetLabel, s.Positive
	} else {
		opt.TargetType = "numeric"
	}
	t, err := dataset.Parse(string(text), opt)
	if err != nil {
		return nil, 0, err
	}
	if err := t.Scale(s.Ranges); err != nil {
		return nil, 0, err
	}
	clampedY := 0
	for i, y := range t.Y {
		switch s.Task {
		case TaskClassification:
			if y == 0 {
				t.Y[i] = -1
			}
		default:
			v := s.TargetRange.ToScaled(y)
			t.Y[i] = min(1, max(-1, v))
			if t.Y[i] != v {
				clampedY++
			}
		}
	}
	return t, clampedY, nil
}
