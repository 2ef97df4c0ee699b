//go:build !js

package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/dpsample/dpsample/core/dataset"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/wasm/tools/internal/study"
)

// The synthetic offset table (issue 52): the development tables have few
// columns far from zero with a narrow spread, which are the common case in
// the tables people bring (years, coordinates, temperatures, scores, blood
// pressure), so the study adds one, generated here from a fixed seed — no
// file, nothing drawn from a reserved table. Its columns imitate the kinds
// issue 52 measured:
//
//	year        uniform integers 1990–2020
//	latitude    uniform on (−38, −10), 2 decimals
//	longitude   N(177, 5²), 2 decimals
//	magnitude   4 + Exp(ln 10) (Gutenberg–Richter, b = 1), at most 7.5, 1 decimal
//	score       N(0, 1), 2 decimals (a standardised score)
//	pulse       N(72, 12²), integers
//	height      N(170, 9²) cm, 1 decimal
//	temp        N(36.8, 0.35²) °C, 1 decimal
//
// and a label "high" (1 with probability logistic(z)), z a linear score of
// the standardised height, pulse, latitude and year, for the downstream
// check (a classification, like three of the five development tables). Its
// declared ranges are a person's: the instrument's or the variable's limits,
// wider than the data.
var syntheticOffsets = study.StudyDataset{
	Key: "synthetic-offsets", Half: study.HalfDev, Task: study.TaskClassification, Dir: "synthetic",
	Target: "high", Positive: "1",
	Ranges: map[string]dataset.Range{
		"year": {Lo: 1980, Hi: 2030}, "latitude": {Lo: -45, Hi: 0}, "longitude": {Lo: 150, Hi: 200},
		"magnitude": {Lo: 3, Hi: 9}, "score": {Lo: -5, Hi: 5}, "pulse": {Lo: 30, Hi: 200},
		"height": {Lo: 120, Hi: 220}, "temp": {Lo: 34, Hi: 42},
	},
	Note: "synthetic: columns far from zero with a narrow spread (issue 52)",
}

// syntheticRows is the synthetic table's full size.
const syntheticRows = 1000

// syntheticCSV returns the synthetic table as CSV text (seeded: the same
// bytes every run).
func syntheticCSV() string {
	r := rng.Seeded(52)
	var b strings.Builder
	b.WriteString("year,latitude,longitude,magnitude,score,pulse,height,temp,high\n")
	round := func(x float64, digits int) float64 {
		p := math.Pow(10, float64(digits))
		return math.Round(x*p) / p
	}
	for i := 0; i < syntheticRows; i++ {
		year := 1990 + float64(r.IntN(31))
		lat := round(-38+28*r.Float64(), 2)
		lon := round(177+5*r.NormFloat64(), 2)
		mag := round(math.Min(4+r.ExpFloat64()/math.Ln10, 7.5), 1)
		score := round(r.NormFloat64(), 2)
		pulse := math.Round(72 + 12*r.NormFloat64())
		height := round(170+9*r.NormFloat64(), 1)
		temp := round(36.8+0.35*r.NormFloat64(), 1)
		z := 1.5*(height-170)/9 - (pulse-72)/12 + 0.8*(lat+24)/8 + 0.6*(year-2005)/9
		label := 0
		if r.Float64() < 1/(1+math.Exp(-z)) {
			label = 1
		}
		fmt.Fprintf(&b, "%g,%g,%g,%g,%g,%g,%g,%g,%d\n", year, lat, lon, mag, score, pulse, height, temp, label)
	}
	return b.String()
}

// studyTables is the study's list with the synthetic table appended to the
// development half.
func studyTables() []study.StudyDataset {
	out := append([]study.StudyDataset(nil), study.StudyDatasets...)
	return append(out, syntheticOffsets)
}

// tableText returns a study table's CSV text: the file's, or the synthetic
// table's.
func tableText(root string, s study.StudyDataset) (string, error) {
	if s.Dir == "synthetic" {
		return syntheticCSV(), nil
	}
	b, err := os.ReadFile(s.Path(root))
	return string(b), err
}
