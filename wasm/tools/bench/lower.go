//go:build !js

package main

import (
	"context"
	"math"

	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/lowerbound"
	"github.com/dpsample/dpsample/wasm/tools/internal/stats"
)

// LowerReport is section 4.
type LowerReport struct {
	Codes   []CodeRow        `json:"codes"`
	Box     []BoxRow         `json:"boxExponential"`
	BoxN    int              `json:"boxN"`
	BoxMode fingerprint.Mode `json:"boxMode"`
}

// CodeRow: the code traced against the accurate (median) output, with user 0
// removed for soundness and fresh ghosts as innocents.
type CodeRow struct {
	N         int              `json:"n"`
	Mode      fingerprint.Mode `json:"mode"`
	Length    int              `json:"length"` // published columns D = 5d₀
	Trials    int              `json:"trials"`
	Ghosts    int              `json:"ghostsPerTrial"`
	Traced    float64          `json:"completeness"` // P(Trace ≠ ⊥)
	TracedCI  [2]float64       `json:"completenessCI"`
	Member    float64          `json:"memberAccused"`
	Removed   float64          `json:"removedAccused"` // soundness: removed user accused
	RemovedCI [2]float64       `json:"removedCI"`
	Ghost     float64          `json:"ghostAccused"` // soundness: innocent ghosts accused
	GhostSE   float64          `json:"ghostSE"`
	// RemovedHits of Trials: the removed user's accusations (Soundness.RemovedHits).
	RemovedHits int `json:"removedHits"`
	// RemovedExact is the exact probability, from each trial's code and the
	// median's output without user 0, that user 0 is accused (Soundness.RemovedExact).
	RemovedExact float64 `json:"removedExact"`
	// WorstGaussian = Φ̄(threshold/√d₀) ≈ Φ̄(√ln(n/ξ)) and WorstExact, the first
	// code's exact all-ones rate: the worst output for an innocent (tardos).
	WorstGaussian float64 `json:"worstCaseGaussian"`
	WorstExact    float64 `json:"worstCaseExact"`
	WorstExceeds  bool    `json:"worstCaseExceedsXi"`
}

// BoxRow: excess/D of the box exponential mechanism at s = εn/(2D) against
// the closed form E[excess]/D given the code (mean over trials).
type BoxRow struct {
	S        float64 `json:"s"`
	Trials   int     `json:"trials"`
	Measured float64 `json:"excessOverD"`
	SE       float64 `json:"excessOverDSE"`
	Expected float64 `json:"expectedExcessOverD"`
	Z        float64 `json:"z"`
}

const xi = 0.01

func lower() (LowerReport, error) {
	var rep LowerReport
	for _, n := range []int{4, 8, 16} {
		for _, mode := range []fingerprint.Mode{fingerprint.Tardos, fingerprint.Symmetric} {
			trials := map[int]int{4: 400, 8: 200, 16: 40}[n]
			if mode == fingerprint.Symmetric {
				trials *= 2
			}
			if quick {
				trials = max(4, trials/10)
			}
			zero, seed := 0, uint64(1000+n)
			e, err := lowerbound.Run(context.Background(), lowerbound.Options{N: n, Xi: xi, Mode: mode, Mechanism: lowerbound.Median,
				Remove: &zero, Ghosts: 100, Trials: trials, Seed: &seed}, nil)
			if err != nil {
				return rep, err
			}
			row := CodeRow{N: n, Mode: mode, Length: e.Code.Length, Trials: e.Trials, Ghosts: 100,
				Traced: e.Rates.Traced, TracedCI: e.Rates.TracedCI, RemovedHits: e.Soundness.RemovedHits,
				RemovedExact: deref(e.Soundness.RemovedExact), WorstGaussian: e.Soundness.WorstCaseGaussian,
				WorstExact: e.Soundness.WorstCaseExact, WorstExceeds: e.Soundness.WorstCaseExceedsXi}
			row.Member = deref(e.Rates.MemberAccused)
			row.Removed = deref(e.Rates.RemovedAccused)
			if e.Rates.RemovedCI != nil {
				row.RemovedCI = *e.Rates.RemovedCI
			}
			row.Ghost, row.GhostSE = deref(e.Rates.Ghost), deref(e.Rates.GhostSE)
			rep.Codes = append(rep.Codes, row)
		}
	}
	rep.BoxN, rep.BoxMode = 8, fingerprint.Symmetric
	for _, s := range []float64{0.03, 0.1, 0.3, 1, 3, 10, 30, 100} {
		trials := 20
		if quick {
			trials = 3
		}
		seed := uint64(2000 + int(100*s))
		sv := s
		e, err := lowerbound.Run(context.Background(), lowerbound.Options{N: rep.BoxN, Xi: xi, Mode: rep.BoxMode, Mechanism: lowerbound.BoxExponential,
			S: &sv, Trials: trials, Seed: &seed}, nil)
		if err != nil {
			return rep, err
		}
		m, sd := stats.MeanStd(e.ExcessOverD)
		em, _ := stats.MeanStd(e.ExpectedExcessOverD)
		row := BoxRow{S: s, Trials: e.Trials, Measured: m, SE: sd / math.Sqrt(float64(e.Trials)), Expected: em}
		// Per-trial differences remove the code's variation from the test.
		diff := make([]float64, len(e.ExcessOverD))
		for i := range diff {
			diff[i] = e.ExcessOverD[i] - e.ExpectedExcessOverD[i]
		}
		dm, dsd := stats.MeanStd(diff)
		if dsd > 0 {
			row.Z = dm / (dsd / math.Sqrt(float64(len(diff))))
		}
		rep.Box = append(rep.Box, row)
	}
	return rep, nil
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
