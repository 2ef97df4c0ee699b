//go:build !js

// Command study runs (or resumes) issue 20's real-data study, appending its
// runs to a JSON-lines file, and prints issue 43's comparison of DP-GD's
// smooth schedules on the study's tables:
//
//	go run ./wasm/tools/study -study docs/study/runs.jsonl [-study-datasets a,b] [-study-split-range 0-9] [-study-also f]
//	go run ./wasm/tools/study -dpgd-schedule development -dpgd-schedule-caps 800,400,200,100,50 > docs/study/dpgd-schedule-development.md
//	go run ./wasm/tools/study -intervals development -intervals-par 2 > docs/study/intervals-development.md
//
// The study's code (datasets, splits, tasks, selection, summary) is
// wasm/tools/internal/study; the bench (wasm/tools/bench) only reads the
// gzipped runs file, docs/study/runs.jsonl.gz, into docs/BENCHMARKS.md §3a.
// These were modes of wasm/tools/bench until issue 46; the bench forwards
// its old flags here.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/wasm/tools/internal/md"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

func main() {
	root := flag.String("root", ".", "repository root")
	runs := flag.String("study", "", "run (or resume) the real-data study of issue 20, appending its runs to this JSON-lines file, and exit")
	studyDatasets := flag.String("study-datasets", "", "with -study: a comma-separated subset of the study's datasets")
	studyAlso := flag.String("study-also", "", "with -study: comma-separated further runs files to read (runs another process did)")
	studyRange := flag.String("study-split-range", "", "with -study: only splits a-b (inclusive), to share a dataset between processes")
	studySplits := flag.Int("study-splits", 0, "with -study: the number of splits (default DefaultStudyOptions)")
	dpgdSched := flag.String("dpgd-schedule", "", `print issue 43's comparison of DP-GD's smooth schedules (before: T ∝ n·s; after: T ∝ min(n·s, K)) on one half of the study's tables ("development") and exit`)
	dpgdCaps := flag.String("dpgd-schedule-caps", "400,200,100,800", "with -dpgd-schedule: the caps K compared (the table is the first one's)")
	dpgdSplits := flag.Int("dpgd-schedule-splits", 20, "with -dpgd-schedule: the study's splits")
	dpgdPar := flag.Int("dpgd-schedule-par", 1, "with -dpgd-schedule: goroutines")
	ivStudy := flag.String("intervals", "", `issue 54: print the interval study on "development" (docs/study/intervals-development.md) and exit`)
	ivCells := flag.String("intervals-cells", "", "issue 54: run these synthetic interval cells (design:n:eps[:C·clip],…) and print a row each")
	ivRuns := flag.Int("intervals-runs", 200, "with -intervals-cells: runs per cell")
	ivPar := flag.Int("intervals-par", 1, "with -intervals-cells: goroutines")
	ivShares := flag.String("intervals-shares", "", "with -intervals-cells: the split m,g,H,J as fractions of s² (default interval.DefaultShares)")
	ivMinNS := flag.Float64("intervals-min-ns", 0, "with -intervals-cells: the gate's bound on n·s (1: measure below the gate)")
	ivErr := flag.Bool("intervals-error", false, "with -intervals-cells: also run DP-GD alone at the whole budget and report the error ratio")
	ivDev := flag.String("intervals-dev", "", "issue 54: run the interval cells on the development tables at these multiples of each table's size (e.g. 1,10) and print a row each")
	ivEps := flag.String("intervals-eps", "1,4", "with -intervals-dev: the ε of the cells")
	flag.Parse()
	switch {
	case *ivStudy != "":
		if *ivStudy != study.HalfDev {
			fatal(fmt.Errorf("-intervals: want %q (the evaluation half is not run)", study.HalfDev))
		}
		if err := intervalStudy(*root, *ivRuns, max(1, *ivPar), os.Stdout); err != nil {
			fatal(err)
		}
	case *ivDev != "":
		mults, err := parseCaps(*ivDev)
		if err != nil {
			fatal(err)
		}
		eps, err := parseCaps(*ivEps)
		if err != nil {
			fatal(err)
		}
		sh := parseShares(*ivShares)
		fmt.Println(md.Table(ivHeader, nil))
		if _, err := runIntervalDev(*root, mults, eps, *ivRuns, max(1, *ivPar), 0.95, sh, os.Stdout); err != nil {
			fatal(err)
		}
	case *ivCells != "":
		cells, err := parseIvCells(*ivCells)
		if err != nil {
			fatal(err)
		}
		sh := parseShares(*ivShares)
		fmt.Println(md.Table(ivHeader, nil))
		if _, err := runIntervalCells(cells, *ivRuns, max(1, *ivPar), 0.95, sh, *ivMinNS, *ivErr, os.Stdout); err != nil {
			fatal(err)
		}
	case *dpgdSched != "":
		if *dpgdSched != study.HalfDev && *dpgdSched != study.HalfEval {
			fatal(fmt.Errorf("-dpgd-schedule: want %q or %q, got %q", study.HalfDev, study.HalfEval, *dpgdSched))
		}
		caps, err := parseCaps(*dpgdCaps)
		if err != nil {
			fatal(err)
		}
		if err := runDPGDSchedule(*root, *dpgdSched, *dpgdSplits, caps, max(1, *dpgdPar), os.Stdout); err != nil {
			fatal(err)
		}
	case *runs != "":
		o := study.DefaultStudyOptions()
		if *studyDatasets != "" {
			o.Datasets = strings.Split(*studyDatasets, ",")
		}
		if *studySplits > 0 {
			o.Splits = *studySplits
		}
		fmt.Sscanf(*studyRange, "%d-%d", &o.SplitFrom, &o.SplitTo)
		if *studyAlso != "" {
			o.ReadAlso = strings.Split(*studyAlso, ",")
		}
		rep, err := study.RunStudy(context.Background(), *root, *runs, o, func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) })
		if err != nil {
			fatal(err)
		}
		fmt.Fprintf(os.Stderr, "study: %d runs, %.0f s of run time\n", len(rep.Runs), rep.Seconds)
	default:
		flag.Usage()
		os.Exit(2)
	}
}

// parseShares reads -intervals-shares ("m,g,H,J"; empty: the default).
func parseShares(s string) interval.Shares {
	var sh interval.Shares
	if s != "" {
		if _, err := fmt.Sscanf(s, "%g,%g,%g,%g", &sh.Model, &sh.Gradient, &sh.Hessian, &sh.Score); err != nil {
			fatal(fmt.Errorf("-intervals-shares: %w", err))
		}
	}
	return sh
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "study:", err)
	os.Exit(1)
}
