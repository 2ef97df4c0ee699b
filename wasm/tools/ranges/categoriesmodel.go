//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
	"github.com/dpsample/dpsample/wasm/tools/internal/utility"
)

// The categorical features' check of issue 42: DP-GD (logistic, ε = 1,
// δ = 10⁻⁵, the page's radius rule C·clip = 4) on penguins with its numeric
// features alone, and with a text column one-hot coded — from a typed list,
// or from the categories describe({csv}) finds on the training rows at ε = 1
// (seeded: a study). One-hot columns keep their 0/1 (range [−1, 1] is the
// identity), so a block has norm 1, and the clip counts a block as one
// column: clip = √(numeric columns + blocks + 1). Splits are the study's.
//
// go run ./wasm/tools/bench -categories-model prints the table.

// categoriesCase is one target with its candidate text features.
type categoriesCase struct {
	name, target, positive string
	text                   []string
}

func runCategoriesModel(root string, splits int, w io.Writer) error {
	text, err := os.ReadFile(filepath.Join(root, "site", "data", "palmer-penguins.csv"))
	if err != nil {
		return err
	}
	numeric := []string{"beak_length_mm", "beak_depth_mm", "flipper_length_mm", "body_mass_g"}
	cases := []categoriesCase{
		{"penguins: sex (male)", "sex", "MALE", []string{"island", "species"}},
		{"penguins: Adelie", "species", "Adelie", []string{"island"}},
	}
	fmt.Fprintf(w, "DP-GD with and without one-hot text features (issue 42): penguins, logistic, ε = 1, δ = 1e-5, %d splits; categories typed, or found by describe({csv}) at ε = 1 on the training rows.\n\n", splits)
	fmt.Fprintln(w, "| target | features | categories | accuracy | non-private |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, cs := range cases {
		for _, variant := range []string{"numeric only", "typed", "found privately"} {
			var acc, np float64
			found := map[string]int{}
			for sp := 0; sp < splits; sp++ {
				feats := append([]string(nil), numeric...)
				cats := map[string][]string{}
				if variant != "numeric only" {
					feats = append(feats, cs.text...)
				}
				// The split's training and test rows, as text (complete rows only).
				lines := strings.Split(strings.TrimSpace(string(text)), "\n")
				header, body := lines[0], lines[1:]
				var complete []string
				for _, l := range body {
					if !strings.Contains(l, ",NA") && !strings.Contains(l, ",,") && !strings.HasSuffix(l, ",") {
						complete = append(complete, l)
					}
				}
				sp0 := study.MakeSplit(indexRows(len(complete)), make([]float64, len(complete)), study.SplitSeed("categories-"+cs.target, sp), false)
				var train, test []string
				for _, r := range sp0.XTr {
					train = append(train, complete[int(r[0])])
				}
				for _, r := range sp0.XTe {
					test = append(test, complete[int(r[0])])
				}
				for _, c := range cs.text {
					if variant == "typed" {
						cats[c] = typedCategories[c]
					}
				}
				if variant == "found privately" {
					cols, rows, err := dataset.ReadCells(header+"\n"+strings.Join(train, "\n")+"\n", dataset.HeaderPresent)
					if err != nil {
						return err
					}
					dc := make([]domain.Cells, len(cols))
					for j, c := range cols {
						dc[j] = domain.Cells{Name: c.Name, Nums: c.Nums, Labels: c.Labels}
					}
					p, err := domain.NewCellsPlan(rows, len(dc), 1, 1e-5)
					if err != nil {
						return err
					}
					seed := study.RunSeed("categories-describe", cs.target, sp)
					res, err := domain.DescribeCells(dc, p, &seed)
					if err != nil {
						return err
					}
					for _, c := range res.Columns {
						for _, t := range cs.text {
							if c.Name == t && len(c.Categories) > 0 {
								cats[t] = c.Categories
								found[fmt.Sprintf("%s: %d", t, len(c.Categories))]++
							}
						}
					}
					var kept []string
					for _, f := range feats {
						if _, isText := typedCategories[f]; !isText || cats[f] != nil {
							kept = append(kept, f)
						}
					}
					feats = kept
				}
				opt := dataset.Options{Target: cs.target, TargetType: dataset.TargetLabel, Positive: cs.positive, Features: feats, Categories: cats, Drop: "missing"}
				tr, err := dataset.Parse(header+"\n"+strings.Join(train, "\n")+"\n", opt)
				if err != nil {
					return err
				}
				te, err := dataset.Parse(header+"\n"+strings.Join(test, "\n")+"\n", opt)
				if err != nil {
					return err
				}
				ranges := map[string]dataset.Range{}
				for _, c := range tr.Columns {
					if r, ok := dataset.PenguinRanges[c]; ok {
						ranges[c] = r
					} else {
						ranges[c] = dataset.Range{Lo: -1, Hi: 1} // a one-hot column keeps its 0/1
					}
				}
				for _, t := range []*dataset.Table{tr, te} {
					if err := t.Scale(ranges); err != nil {
						return err
					}
					for i, y := range t.Y {
						if y == 0 {
							t.Y[i] = -1
						}
					}
				}
				s := study.Split{XTr: withOne(tr.X), YTr: tr.Y, XTe: withOne(te.X), YTe: te.Y}
				blocks := len(cats)
				clip := math.Sqrt(float64(len(numeric) + blocks + 1))
				task, err := study.NewStudyTaskClip(study.StudyDataset{Key: "penguins", Task: study.TaskClassification}, loss.Logistic, s, study.PageMultiplier(study.TaskClassification), "", clip)
				if err != nil {
					return err
				}
				r1, err := task.Run(context.Background(), utility.MethodDPGD, 1, 1e-5, study.RunSeed("categories-run", cs.target, variant, sp))
				if err != nil {
					return err
				}
				r0, _ := task.Run(context.Background(), utility.MethodNonPrivate, 1, 1e-5, 0)
				acc += r1.Metric
				np += r0.Metric
			}
			note := variant
			if variant == "found privately" {
				var keys []string
				for k := range found {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				var parts []string
				for _, k := range keys {
					name, n, _ := strings.Cut(k, ": ")
					noun := " labels"
					if n == "1" {
						noun = " label"
					}
					parts = append(parts, fmt.Sprintf("%s: %s%s in %d of %d splits", name, n, noun, found[k], splits))
				}
				if len(parts) == 0 {
					parts = []string{"none found"}
				}
				note += " (" + strings.Join(parts, "; ") + ")"
			}
			feat := "numeric"
			if variant != "numeric only" {
				feat += " + " + strings.Join(cs.text, ", ")
			}
			fmt.Fprintf(w, "| %s | %s | %s | %.3f | %.3f |\n", cs.name, feat, note, acc/float64(splits), np/float64(splits))
		}
	}
	return nil
}

// typedCategories are penguins' labels, as a person who knows the study
// would type them.
var typedCategories = map[string][]string{
	"island":  {"Biscoe", "Dream", "Torgersen"},
	"species": {"Adelie", "Chinstrap", "Gentoo"},
}

func indexRows(n int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = []float64{float64(i)}
	}
	return out
}

func withOne(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, r := range x {
		out[i] = append(append([]float64(nil), r...), 1)
	}
	return out
}
