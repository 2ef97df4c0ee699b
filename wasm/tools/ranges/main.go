//go:build !js

// Command ranges prints the studies of core/domain's private ranges on the
// study's tables (wasm/tools/internal/study's StudyDatasets) and exits:
//
//	go run ./wasm/tools/ranges -ranges development > docs/study/ranges-development.md
//	go run ./wasm/tools/ranges -ranges-model development > docs/study/ranges-model-development.md
//	go run ./wasm/tools/ranges -categories-model > docs/study/categories-penguins.md
//
// -ranges is the private ranges study (issues 28 and 40: core/domain's
// constants and the page's budget, ranges.go), -ranges-model the downstream
// check of issue 40 (models on private vs declared ranges, rangesmodel.go),
// -categories-model the check of issue 42 (DP-GD on penguins with and
// without one-hot text features, categoriesmodel.go). Every draw is seeded,
// so a run prints the same bytes until core/domain, core/dpgd or the
// sampler change. "evaluation" only to report the chosen constants once.
// These were modes of wasm/tools/bench until issue 46; the bench forwards
// its old flags here.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

func main() {
	root := flag.String("root", ".", "repository root")
	ranges := flag.String("ranges", "", `print the private ranges study (core/domain's constants) on one half of the study's tables ("development"; "evaluation" only to report the chosen constants once) and exit`)
	rangesReps := flag.Int("ranges-reps", 50, "with -ranges: seeded draws per table and configuration")
	rangesModel := flag.String("ranges-model", "", `print the downstream check of issue 40 (DP-GD and Algorithm 1 at ε = 1 on private vs declared ranges, full size and 250 and 100 training rows) on one half of the study's tables and exit`)
	rangesModelSplits := flag.Int("ranges-model-splits", 10, "with -ranges-model and -categories-model: public 80/20 splits per table and size")
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
		err = runRangesModel(*root, *rangesModel, *rangesModelSplits, os.Stdout)
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
