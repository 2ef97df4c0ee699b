package sampler

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/rng"
)

// BenchmarkSampler reports steps/s and loss-evaluations/s of the sampler
// kernel (stochastic RGO, n = 1000, and full RGO, n = 100) for logistic and
// hinge losses at d ∈ {2, 10, 100}. b.N is the number of alternating steps.
// Run natively or as wasm:
//
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run xxx -bench . ./core/sampler/
func BenchmarkSampler(b *testing.B) {
	for _, loss := range []string{"logistic", "hinge"} {
		for _, d := range []int{2, 10, 100} {
			for _, c := range []struct {
				mode string
				n    int
			}{{ModeStochastic, 1000}, {ModeFull, 100}} {
				b.Run(fmt.Sprintf("%s/d=%d/%s/n=%d", loss, d, c.mode, c.n), func(b *testing.B) {
					pot := randomGLM(rng.Seeded(uint64(d)), c.n, d, loss == "hinge")
					pl, err := NewPlan(Params{N: c.n, D: d, G: 1, Eta: 20, Mu: 0.05, TV: 1e-6, Mode: c.mode})
					if err != nil {
						b.Fatal(err)
					}
					pl.Steps = b.N
					r := rng.Seeded(1)
					b.ResetTimer()
					_, st, err := Run(context.Background(), pl, pot, r, func(int, int) {})
					if err != nil {
						b.Fatal(err)
					}
					sec := b.Elapsed().Seconds()
					b.ReportMetric(float64(st.Steps)/sec, "steps/s")
					b.ReportMetric(float64(st.LossEvals)/sec, "evals/s")
					b.ReportMetric(float64(st.Trials)/float64(st.Steps), "trials/step")
				})
			}
		}
	}
}

// BenchmarkBreastCancerPrivateSample draws one private logistic-regression
// sample on the Wisconsin breast-cancer data (n = 569, d = 30, ε = 1,
// δ = 1e-5, G = 1, C = 15) with the full planned T. It takes ~10 s natively and
// only runs when DPSAMPLE_BREAST=1:
//
//	DPSAMPLE_BREAST=1 go test -run xxx -bench BreastCancer -benchtime 1x ./core/sampler/
//
// Features are divided by the column-wise max |value| and rows clipped to
// ‖x‖ ≤ 1 (a demo preprocessing: the column maxima are themselves data; a
// deployment would use public bounds). η = n·s*·√d/(√2·G·C) and
// μ = 4ηG²/(n²s*²) with s* calibrated to δ/2 (privacy.Split).
func BenchmarkBreastCancerPrivateSample(b *testing.B) {
	if os.Getenv("DPSAMPLE_BREAST") == "" {
		b.Skip("set DPSAMPLE_BREAST=1 to run the full private sample")
	}
	pot, err := loadBreastCancer("../../../shared/data/breast-cancer-wisconsin.csv")
	if err != nil {
		b.Skip(err)
	}
	n, d := pot.n, pot.d
	const eps, delta, G, C = 1.0, 1e-5, 1.0, 15.0
	bud, err := privacy.Split(eps, delta)
	if err != nil {
		b.Fatal(err)
	}
	s, err := privacy.Calibrate(eps, bud.DeltaCurve)
	if err != nil {
		b.Fatal(err)
	}
	eta := float64(n) * s * math.Sqrt(float64(d)) / (math.Sqrt2 * G * C)
	mu := 4 * eta * G * G / (float64(n*n) * s * s)
	pl, err := NewPlan(Params{N: n, D: d, G: G, Eta: eta, Mu: mu, TV: bud.TV, Mode: ModeAuto})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("n=%d d=%d s*=%.6f η=%.4f μ=%.6g TV=%.4g: mode=%s T=%d λ=%.4g R=%.4g s=%.3g M=%d expected evals ≤ %.4g",
		n, d, s, eta, mu, bud.TV, pl.Mode, pl.Steps, pl.Lambda, pl.RadiusBall, pl.Scale, pl.TrialBudget, pl.ExpectedLossEvals)
	for i := 0; i < b.N; i++ {
		r, _ := rng.New(nil)
		x, st, err := Run(context.Background(), pl, pot, r, nil)
		if err != nil {
			b.Fatal(err)
		}
		correct := 0
		for k := 0; k < n; k++ {
			if pot.y[k]*dot(pot.a[k*d:(k+1)*d], x) > 0 {
				correct++
			}
		}
		b.Logf("stats %+v: trials/step=%.3f evals/step=%.2f; training accuracy of the sample %.3f, ‖θ‖=%.3f",
			st, float64(st.Trials)/float64(st.Steps), float64(st.LossEvals)/float64(st.Steps), float64(correct)/float64(n), math.Sqrt(dot(x, x)))
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sample")
}

func loadBreastCancer(path string) (*glm, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	rows = rows[1:]
	n, d := len(rows), len(rows[0])-1
	p := &glm{n: n, d: d, a: make([]float64, n*d), y: make([]float64, n)}
	maxAbs := make([]float64, d)
	for i, row := range rows {
		for j := 0; j < d; j++ {
			v, err := strconv.ParseFloat(row[j], 64)
			if err != nil {
				return nil, err
			}
			p.a[i*d+j] = v
			maxAbs[j] = math.Max(maxAbs[j], math.Abs(v))
		}
		p.y[i] = -1
		if row[d] == "1" {
			p.y[i] = 1
		}
	}
	for i := 0; i < n; i++ {
		row := p.a[i*d : (i+1)*d]
		for j := range row {
			row[j] /= maxAbs[j]
		}
		if nrm := math.Sqrt(dot(row, row)); nrm > 1 {
			for j := range row {
				row[j] /= nrm
			}
		}
	}
	return p, nil
}
