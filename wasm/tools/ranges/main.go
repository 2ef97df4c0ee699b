//go:build !js

// Command ranges prints the studies of core/domain's private ranges on the
// study's tables (wasm/tools/internal/study's StudyDatasets) and exits:
//
//	go run ./wasm/tools/ranges -ranges development > docs/study/ranges-development.md
//	go run ./wasm/tools/ranges -ranges-model development -ranges-model-splits 40 > docs/study/ranges-model-development.md
//	go run ./wasm/tools/ranges -categories-model > docs/study/categories-penguins.md
//
// -ranges is the private ranges study (issues 28, 40 and 52: core/domain's
// constants and the page's budget, before and after issue 52, ranges.go),
// -ranges-model the downstream check of issues 40 and 52 (models on private
// vs declared ranges, rangesmodel.go), -categories-model the check of issue
// 42 (DP-GD on penguins with and without one-hot text features,
// categoriesmodel.go). -ranges-columns and -ranges-summary print every
// column's figures, or one line per table and size, under the constants
// the flags set (columns.go: for choosing them; -trace follows one column).
// The development half includes a synthetic table of offset columns
// (synthetic.go). Every draw is seeded,
// so a run prints the same bytes until core/domain, core/dpgd or the
// sampler change. "evaluation" only to report the chosen constants once.
// These were modes of wasm/tools/bench until issue 46; the bench forwards
// its old flags here.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dpsample/dpsample/core/domain"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

func main() {
	root := flag.String("root", ".", "repository root")
	ranges := flag.String("ranges", "", `print the private ranges study (core/domain's constants) on one half of the study's tables ("development"; "evaluation" only to report the chosen constants once) and exit`)
	rangesReps := flag.Int("ranges-reps", 50, "with -ranges: seeded draws per table and configuration")
	rangesModel := flag.String("ranges-model", "", `print the downstream check of issue 40 (DP-GD and Algorithm 1 at ε = 1 on private vs declared ranges, full size and 250 and 100 training rows) on one half of the study's tables and exit`)
	rangesModelSplits := flag.Int("ranges-model-splits", 10, "with -ranges-model and -categories-model: public 80/20 splits per table and size")
	rangesColumns := flag.String("ranges-columns", "", `print every column's figures (width, clamped, quartile errors) at ε = 1 on one half of the study's tables and exit`)
	rangesSummary := flag.String("ranges-summary", "", `print one line per table and size (median and worst width, clamped, quartiles) at ε = 1 on one half and exit`)
	flag.StringVar(&traceCol, "trace", "", "with -ranges-summary and -ranges-columns: print every draw of this table:column on stderr")
	flag.IntVar(&traceSize, "trace-size", 0, "with -trace: the size (0: the full table)")
	// The constants of core/domain's tree (domain.Options), for the
	// column, summary and model modes: 0 keeps a default.
	var opt domain.Options
	flag.IntVar(&opt.Levels, "levels", 0, "with -ranges-columns, -ranges-summary and -ranges-model: stage 2's levels (0: the rule of n·s/√(2d); 1: one histogram)")
	flag.Float64Var(&opt.Share1, "share1", 0, "… stage 1's share of s²")
	flag.Float64Var(&opt.Level1Share, "omega", 0, "… the tree's first level's share of stage 2's μ₂²")
	flag.Float64Var(&opt.Empty, "empty", 0, "… the descent's z_e (a finer bin below z_e·σ_f looks empty)")
	flag.Float64Var(&opt.Hold, "hold", 0, "… the descent's h (below h of its parent's count and TrimAlone·σ_f a bin looks empty too)")
	flag.IntVar(&opt.Span, "span", 0, "… the descent's J (it zooms while the run spans fewer bins)")
	flag.Float64Var(&opt.Ambiguous, "ambiguous", 0, "… the descent's z_c (where it stops, a bin reaching z_c·σ_f may hold rows)")
	flag.Float64Var(&opt.Placed, "placed", 0, "… the descent's z_u (rows unplaced by the first level's run)")
	flag.IntVar(&opt.MarginFine, "margin-fine", 0, "… the margin at the finer levels, in bins (-1: none)")
	flag.Float64Var(&opt.MarginEmpty, "margin-empty", 0, "… z_m: an end whose first trimmed bin counts below z_m·σ₂ takes Margin − 1 bins of margin")
	flag.IntVar(&opt.Bins2, "bins2", 0, "… stage 2's first level's bins (the study of n ≈ 200: docs/PRIVACY.md §9)")
	flag.IntVar(&opt.Margin, "margin", 0, "… the first level's margin, in bins (-1: none)")
	flag.BoolVar(&opt.Before52, "before", false, "… the mechanism of 0.6.0 (issue 52's before)")
	categoriesModel := flag.Bool("categories-model", false, "print the check of issue 42 (DP-GD on penguins with and without one-hot text features, typed or found privately) and exit")
	flag.Parse()
	half := func(name, v string) {
		if v != study.HalfDev && v != study.HalfEval {
			fatal(fmt.Errorf("-%s: want %q or %q, got %q", name, study.HalfDev, study.HalfEval, v))
		}
	}
	var err error
	switch {
	case *categoriesModel:
		err = runCategoriesModel(*root, *rangesModelSplits, os.Stdout)
	case *rangesModel != "":
		half("ranges-model", *rangesModel)
		err = runRangesModel(*root, *rangesModel, "", *rangesModelSplits, opt, os.Stdout)
	case *rangesColumns != "":
		half("ranges-columns", *rangesColumns)
		err = runRangesColumns(*root, *rangesColumns, *rangesReps, opt, os.Stdout)
	case *rangesSummary != "":
		half("ranges-summary", *rangesSummary)
		err = runRangesSummary(*root, *rangesSummary, *rangesReps, opt, os.Stdout)
	case *ranges != "":
		half("ranges", *ranges)
		err = runRangesStudy(*root, *ranges, *rangesReps, os.Stdout)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "ranges:", err)
	os.Exit(1)
}
