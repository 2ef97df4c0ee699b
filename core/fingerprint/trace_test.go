package fingerprint

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/stats"
)

type trialStats struct {
	trials, fails int     // fails: Trace returned ⊥
	meanMargin    float64 // mean over trials of max_i S_i / threshold
	minMargin     float64
	ghostAccused  int       // ghost accusations in total
	ghostN        int       // ghost scores in total
	ghostRates    []float64 // per-trial ghost accusation rate (cluster means)
	badScores     int       // non-finite scores seen
	// refRate is the mean over trials of InnocentRate of the output at the
	// correct threshold: the exact conditional accusation probability of each
	// ghost, computed by characteristic-function inversion, not by simulation.
	refRate float64
}

// cpInterval is the two-sided 1−α Clopper–Pearson interval for x of n.
func cpInterval(x, n int, alpha float64) (lo, hi float64) { return stats.ClopperPearson(x, n, alpha) }

// bandAlpha is the false-failure rate of every band below (two-sided).
const bandAlpha = 1e-3

// inBand reports whether the pooled ghost count is consistent with the exact
// reference: refRate ∈ the 1−bandAlpha Clopper–Pearson interval of
// ghostAccused/ghostN. Given the trials' codes and outputs the count is a sum
// of independent Bernoulli(r_t) draws (Poisson-binomial with mean
// ghostN·refRate), whose tails are no heavier than the binomial's with the
// same mean (Hoeffding 1956), so the false-failure rate is ≤ bandAlpha.
func (s trialStats) inBand() (ok bool, lo, hi float64) {
	lo, hi = cpInterval(s.ghostAccused, s.ghostN, bandAlpha)
	return lo <= s.refRate && s.refRate <= hi, lo, hi
}

// rate returns the pooled innocent rate and its cluster standard error
// (ghosts share p and c within a trial, so the per-trial rates are the
// independent units).
func (s trialStats) rate() (r, se float64) {
	r = float64(s.ghostAccused) / float64(s.ghostN)
	m := float64(len(s.ghostRates))
	var v float64
	for _, x := range s.ghostRates {
		v += (x - r) * (x - r)
	}
	return r, math.Sqrt(v / (m - 1) / m)
}

// run draws `trials` fresh codes, applies atk to the full coalition, traces
// with configuration cfg and scores `ghosts` innocents per trial; refRate is
// the exact innocent rate of the same output under the correct Trace.
func run(t *testing.T, p Params, trials, ghosts int, seed uint64, atk attack, cfg traceConfig) trialStats {
	t.Helper()
	return runRef(t, p, trials, ghosts, seed, atk, nil, cfg)
}

// runRef is run with the reference computed on refAtk's output instead
// (nil: the same output the ghosts are scored against).
func runRef(t *testing.T, p Params, trials, ghosts int, seed uint64, atk, refAtk attack, cfg traceConfig) trialStats {
	t.Helper()
	r := rng.Seeded(seed)
	st := trialStats{trials: trials, minMargin: math.Inf(1)}
	for range trials {
		c, err := New(p, r)
		if err != nil {
			t.Fatal(err)
		}
		w := atk(c, -1, r)
		tr := c.trace1(w, cfg, r)
		if tr.Returned == nil {
			st.fails++
		} else if !slices.Contains(tr.Accused, *tr.Returned) {
			t.Fatalf("returned %d not in accused %v", *tr.Returned, tr.Accused)
		}
		mx := math.Inf(-1)
		for _, s := range tr.Scores {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				st.badScores++
			}
			mx = math.Max(mx, s)
		}
		st.meanMargin += mx / tr.Threshold / float64(trials)
		st.minMargin = math.Min(st.minMargin, mx/tr.Threshold)
		if ghosts > 0 {
			rw := w
			if refAtk != nil {
				rw = refAtk(c, -1, r)
			}
			ref, err := c.InnocentRate(rw)
			if err != nil {
				t.Fatal(err)
			}
			st.refRate += ref / float64(trials)
			acc := 0
			for _, s := range c.ghostScores(r, ghosts, w, cfg) {
				if s >= tr.Threshold {
					acc++
				}
			}
			st.ghostAccused += acc
			st.ghostN += ghosts
			st.ghostRates = append(st.ghostRates, float64(acc)/float64(ghosts))
		}
	}
	return st
}

// trials shrinks the trial count under -short.
func trials(n int) int {
	if testing.Short() {
		return max(n/4, 10)
	}
	return n
}

// TestCompleteness is §7 test 5: marking-respecting coalitions are traced
// every time (0 failures), with a margin max S/(Z/2) far above 1 (the note
// measured means 3.6–3.8). The margin floor 2 is what catches the slips below.
func TestCompleteness(t *testing.T) {
	attacks := map[string]attack{"majority": majority, "interleave": interleave, "minority": minority}
	settings := []struct {
		p      Params
		trials int
	}{
		{Params{N: 4, Xi: .1}, 200},
		{Params{N: 4, Xi: .01}, 100},
		{Params{N: 8, Xi: .01}, 12},
	}
	for _, s := range settings {
		for name, atk := range attacks {
			st := run(t, s.p, trials(s.trials), 0, 21, atk, traceConfig{})
			t.Logf("n=%d xi=%g %s: %d trials, fails %d, mean margin %.2f, min %.2f", s.p.N, s.p.Xi, name, st.trials, st.fails, st.meanMargin, st.minMargin)
			if st.fails != 0 || st.minMargin < 2 {
				t.Errorf("n=%d xi=%g %s: %d/%d failures, min margin %.2f", s.p.N, s.p.Xi, name, st.fails, st.trials, st.minMargin)
			}
		}
	}
}

// The classic slips must fail the completeness test.
func TestCompletenessCatchesSlips(t *testing.T) {
	p := Params{N: 4, Xi: .1}
	for name, cfg := range map[string]traceConfig{
		"sign of U":        {flipSign: true},
		"permutation kept": {noUnpermute: true},
	} {
		st := run(t, p, 20, 0, 22, majority, cfg)
		if st.fails == 0 && st.minMargin >= 2 {
			t.Errorf("slip %q passed completeness: fails %d, min margin %.2f", name, st.fails, st.minMargin)
		}
		t.Logf("slip %q: %d/20 failures, mean margin %.2f", name, st.fails, st.meanMargin)
	}
}

// thresholdOK is the exact check of Trace′'s accusation threshold: Z/2 =
// 10·n·ln(n/ξ) (tardos) or √(2·d₀·ln(n/ξ)) (symmetric), to 1e-12 relative.
func thresholdOK(p Params, got float64) bool {
	n := float64(p.N)
	k := math.Log(n / p.Xi)
	want := 10 * n * k
	if p.Mode == Symmetric {
		want = math.Sqrt(2 * math.Ceil(10*n*n*k) * k)
	}
	return math.Abs(got-want) <= 1e-12*want
}

// The threshold Trace uses is exactly Z/2 with the natural log; the log₂
// slip (and accusing at Z) fail the same exact check.
func TestThresholdExact(t *testing.T) {
	for _, p := range []Params{{N: 4, Xi: .1}, {N: 7, Xi: .013}, {N: 32, Xi: 1e-6}, {N: 5, Xi: .05, Mode: Symmetric}} {
		l, err := Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		p, _ = p.Normalize()
		c := &Code{Params: p, Lengths: l, words: 1, pos: nil}
		if tr := c.trace1(NewWord(l.Length), traceConfig{}, rng.Seeded(1)); !thresholdOK(p, tr.Threshold) {
			t.Errorf("%+v: Trace threshold %.12g is not Z/2", p, tr.Threshold)
		}
		if slip := lengths(p, math.Log2).Threshold; thresholdOK(p, slip) {
			t.Errorf("%+v: the log₂ threshold %.6g passed the exact check", p, slip)
		}
		if p.Mode == Tardos && thresholdOK(p, l.Z) {
			t.Errorf("%+v: threshold Z passed the exact check for Z/2", p)
		}
	}
}

// soundnessCase is one setting of TestSoundness.
type soundnessCase struct {
	p              Params
	atk            attack
	name           string
	trials, ghosts int
	// aboveXi: the worst case is expected to exceed ξ (checked as a
	// Clopper–Pearson lower bound > ξ); otherwise the upper bound must be ≤ ξ.
	aboveXi bool
}

// TestSoundness is §7 test 6 with a band derived from the sample size. For
// every trial the exact conditional innocent rate r_t of the output is
// computed (InnocentRate: characteristic-function inversion from the key),
// and the ghosts' pooled accusation count must be consistent with their
// mean: r̄ inside the 99.9% Clopper–Pearson interval of the count
// (false-failure rate ≤ 1e-3 per case, see inBand). The output is the
// shipped rule — majority with ties → 1, which is what rounding the median's
// θ = ½ gives — not the fair-coin ties of the note's numbers.
//
// The assertion on ξ goes both ways: for the marking-respecting majority
// output the 99.9% upper bound must be ≤ ξ; for the all-ones output at
// ξ = 10⁻³ (the worst case, ≈ Φ̄(√k) = 2.0e-3) the exact rate, which the band
// ties to the simulated count, must exceed ξ — Definition G.1's per-person
// soundness fails there, and the test says so. (BenchmarkWorstCase measures
// it with 400,000 innocents: 95% CI [1.92e-3, 2.21e-3].)
func TestSoundness(t *testing.T) {
	cases := []soundnessCase{
		{Params{N: 4, Xi: .1}, majority, "majority", 20, 1000, false},
		{Params{N: 4, Xi: .01}, majority, "majority", 10, 1000, false},
		{Params{N: 8, Xi: .1}, majority, "majority", 4, 1000, false},
		{Params{N: 4, Xi: .1}, allOnes, "all-ones", 5, 1000, false},
		{Params{N: 4, Xi: 1e-3}, allOnes, "all-ones", 10, 1000, true},
	}
	for _, c := range cases {
		st := run(t, c.p, trials(c.trials), c.ghosts, 31, c.atk, traceConfig{})
		ok, lo, hi := st.inBand()
		l, _ := Compute(c.p)
		t.Logf("n=%d xi=%g %s: %d/%d ghosts accused = %.3e, 99.9%% CP [%.3e, %.3e]; exact mean %.3e; Φ̄(thr/√d₀) = %.3e",
			c.p.N, c.p.Xi, c.name, st.ghostAccused, st.ghostN, float64(st.ghostAccused)/float64(st.ghostN), lo, hi, st.refRate, l.GaussianWorstCase())
		if !ok {
			t.Errorf("n=%d xi=%g %s: exact rate %.3e outside the 99.9%% CP interval [%.3e, %.3e] of %d/%d", c.p.N, c.p.Xi, c.name, st.refRate, lo, hi, st.ghostAccused, st.ghostN)
		}
		if st.fails != 0 && c.name == "majority" {
			t.Errorf("n=%d xi=%g: %d trace failures", c.p.N, c.p.Xi, st.fails)
		}
		switch {
		case c.aboveXi && st.refRate <= c.p.Xi:
			t.Errorf("n=%d xi=%g %s: exact rate %.3e does not exceed ξ (the worst case should)", c.p.N, c.p.Xi, c.name, st.refRate)
		case !c.aboveXi && hi > c.p.Xi:
			t.Errorf("n=%d xi=%g %s: CP upper bound %.3e exceeds ξ", c.p.N, c.p.Xi, c.name, hi)
		}
	}
}

// The exact all-ones rate tracks the Gaussian worst case Φ̄(threshold/√d₀)
// ≈ Φ̄(√k): within 3% at the settings of the issue (n = 4, ξ = 10⁻³, 10⁻⁴),
// and never below it (the U_j are heavy-tailed). The symmetric mode's code is
// 10× shorter, so its tail is further from normal (within 20%). The all-ones word sets every
// real column, so Var S = d₀ and the Gaussian approximation is exactly
// Φ̄((Z/2)/√d₀).
func TestWorstCaseTracksGaussian(t *testing.T) {
	r := rng.Seeded(34)
	for _, p := range []Params{{N: 4, Xi: 1e-3}, {N: 4, Xi: 1e-4}, {N: 4, Xi: .1, Mode: Symmetric}} {
		c, err := New(p, r)
		if err != nil {
			t.Fatal(err)
		}
		exact, _ := c.InnocentRate(c.AllOnes())
		g := c.GaussianWorstCase()
		t.Logf("%+v: exact all-ones rate %.4e, Φ̄(thr/√d₀) = %.4e, Φ̄(√k) = %.4e", p, exact, g, 0.5*math.Erfc(math.Sqrt(c.K)/math.Sqrt2))
		tol := 0.03
		if p.Mode == Symmetric {
			tol = 0.2
		}
		if exact < g || exact > (1+tol)*g {
			t.Errorf("%+v: exact %.4e vs Gaussian %.4e", p, exact, g)
		}
	}
}

// Each deliberately broken variant must fail the band of TestSoundness:
// accusing at Z instead of Z/2, the log₂ threshold, scoring the dummy
// columns, and the reference protocol of the old test (fair-coin ties)
// scored against the shipped rule's reference (ties → 1).
func TestSoundnessCatchesSlips(t *testing.T) {
	p := Params{N: 4, Xi: .1}
	l, _ := Compute(p)
	for _, c := range []struct {
		name   string
		atk    attack
		cfg    traceConfig
		trials int
	}{
		{"threshold Z", majority, traceConfig{threshold: l.Z}, 5},
		{"log2 threshold", majority, traceConfig{threshold: lengths(p, math.Log2).Threshold}, 5},
		{"scoring dummies", majority, traceConfig{scoreDummies: true}, 2},
		{"fair-coin ties", majorityRandomTies, traceConfig{}, 30},
	} {
		var ref attack
		if c.name == "fair-coin ties" {
			ref = majority
		}
		st := runRef(t, p, c.trials, 1000, 33, c.atk, ref, c.cfg)
		ok, lo, hi := st.inBand()
		t.Logf("%s: %d/%d accused, CP [%.3e, %.3e], exact (correct) %.3e", c.name, st.ghostAccused, st.ghostN, lo, hi, st.refRate)
		if ok {
			t.Errorf("broken variant %q passed the soundness band", c.name)
		}
	}
}

// TestRobustness is §7 test 7: blind violations on up to D/40 unanimous
// columns (real or dummy, chosen uniformly) never defeat Trace, while an
// adversary who knows π and flips 25% of d₀ real unanimous columns does.
func TestRobustness(t *testing.T) {
	for _, s := range []struct {
		p      Params
		trials int
	}{{Params{N: 4, Xi: .1}, 40}, {Params{N: 8, Xi: .1}, 5}} {
		l, _ := Compute(s.p)
		for _, beta := range []float64{1. / 300, 1. / 150, 1. / 75, 1. / 40} {
			m := int(beta * float64(l.Length))
			st := run(t, s.p, trials(s.trials), 0, 41, blindFlips(m), traceConfig{})
			if st.fails != 0 {
				t.Errorf("n=%d β=%.4f (%d blind flips): %d/%d failures", s.p.N, beta, m, st.fails, st.trials)
			}
			t.Logf("n=%d β=%.4f: %d flips, mean margin %.2f", s.p.N, beta, m, st.meanMargin)
		}
	}
	p := Params{N: 4, Xi: .1}
	l, _ := Compute(p)
	st := run(t, p, 20, 0, 42, cheatingFlips(l.D0/4), traceConfig{})
	if st.fails < 10 {
		t.Errorf("a cheating adversary with d₀/4 real flips failed Trace only %d/20 times; the note measured 95%%", st.fails)
	}
}

// TestSymmetricMode checks the §4 practical mode: 0 failures for
// marking-respecting coalitions, ghost counts consistent with the exact
// innocent rate (band as in TestSoundness), and the 99.9% Clopper–Pearson
// upper bound below ξ/n (a measured property of these outputs, not a proof).
func TestSymmetricMode(t *testing.T) {
	all := map[string]attack{"majority": majority, "interleave": interleave, "minority": minority}
	for _, c := range []struct {
		p              Params
		trials, ghosts int
		attacks        map[string]attack
	}{
		{Params{N: 4, Xi: .1, Mode: Symmetric}, 40, 100, all},
		{Params{N: 8, Xi: .01, Mode: Symmetric}, 30, 600, map[string]attack{"majority": majority}},
	} {
		p := c.p
		for name, atk := range c.attacks {
			st := run(t, p, c.trials, c.ghosts, 51, atk, traceConfig{})
			ok, lo, hi := st.inBand()
			t.Logf("symmetric n=%d xi=%g %s: fails %d, mean margin %.2f, innocent %d/%d [%.1e, %.1e], exact %.2e",
				p.N, p.Xi, name, st.fails, st.meanMargin, st.ghostAccused, st.ghostN, lo, hi, st.refRate)
			if st.fails != 0 || !ok || hi > p.Xi/float64(p.N) {
				t.Errorf("symmetric n=%d xi=%g %s: %d failures, innocent %d/%d, 99.9%% CP [%.2e, %.2e], exact %.2e, ξ/n = %.2e",
					p.N, p.Xi, name, st.fails, st.ghostAccused, st.ghostN, lo, hi, st.refRate, p.Xi/float64(p.N))
			}
		}
	}
}

// TestRoundTrip is §7 test 4: tracing an exact copy of row i (padded and
// permuted) accuses i; the published rows are the real codebook and the
// dummies under π; π is a permutation.
func TestRoundTrip(t *testing.T) {
	r := rng.Seeded(61)
	for _, p := range []Params{{N: 4, Xi: .1}, {N: 5, Xi: .05}, {N: 4, Xi: .1, Mode: Symmetric}} {
		c, err := New(p, r)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, c.Length)
		zeros, onesCols := 0, 0
		for k, s := range c.src {
			if seen[s] {
				t.Fatalf("π maps two columns to source %d", s)
			}
			seen[s] = true
			if int(s) < c.D0 && int(c.pos[s]) != k {
				t.Fatalf("pos is not the inverse of src at %d", k)
			}
			switch o := c.Ones(k); {
			case int(s) >= c.D0 && int(s) < 3*c.D0 && o == 0:
				zeros++
			case int(s) >= 3*c.D0 && o == c.N:
				onesCols++
			}
		}
		if zeros != 2*c.D0 || onesCols != 2*c.D0 {
			t.Errorf("dummies: %d all-0 and %d all-1, want %d each", zeros, onesCols, 2*c.D0)
		}
		if int(c.src[0]) == 0 && int(c.src[1]) == 1 && int(c.src[2]) == 2 && int(c.src[3]) == 3 {
			t.Error("permutation looks like the identity")
		}
		rows := c.Rows()
		for i, row := range rows {
			for j := range c.D0 { // undoing π on the published row recovers X
				if (row[c.pos[j]] == 1) != (c.x[i*c.words+j>>6]>>(j&63)&1 == 1) {
					t.Fatalf("row %d, real column %d: published bit differs from X", i, j)
				}
			}
			out := make([]float64, c.Length)
			for k, b := range row {
				out[k] = float64(b)
			}
			tr, err := c.Trace(out)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(tr.Accused, i) || tr.Returned == nil {
				t.Errorf("%s n=%d: copy of row %d not traced to it: accused %v", p.Mode, p.N, i, tr.Accused)
			}
		}
	}
}

// The scores computed by bit tricks equal the definition S_i = Σ_j c_j U_ij
// (or Σ_j (2c_j−1)U_ij) evaluated naively.
func TestScoresMatchDefinition(t *testing.T) {
	r := rng.Seeded(62)
	for _, mode := range []Mode{Tardos, Symmetric} {
		c, _ := New(Params{N: 3, Xi: .2, Mode: mode}, r)
		w := NewWord(c.Length)
		for k := range c.Length {
			w.Set(k, r.IntN(2) == 1)
		}
		tr, _ := c.TraceWord(w)
		for i := range c.N {
			want := 0.0
			for j := range c.D0 {
				cj := 0.0
				if w.Get(int(c.pos[j])) {
					cj = 1
				}
				if mode == Symmetric {
					cj = 2*cj - 1
				}
				want += cj * uCorrect(c.p[j], c.x[i*c.words+j>>6]>>(j&63)&1 == 1)
			}
			if math.Abs(tr.Scores[i]-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: S_%d = %.10g, definition gives %.10g", mode, i, tr.Scores[i], want)
			}
		}
	}
}

func TestTraceBadInput(t *testing.T) {
	c, _ := New(Params{N: 2, Xi: .5}, rng.Seeded(63))
	if _, err := c.Trace(make([]float64, c.Length-1)); err == nil || !strings.HasPrefix(err.Error(), "output must be") {
		t.Errorf("short output: %v", err)
	}
	out := make([]float64, c.Length)
	out[7] = math.NaN()
	if _, err := c.Trace(out); err == nil || !strings.HasPrefix(err.Error(), "output[7] must be") {
		t.Errorf("NaN output: %v", err)
	}
	out[7] = math.Inf(-1)
	if _, err := c.Trace(out); err == nil || !strings.Contains(err.Error(), "-Inf") {
		t.Errorf("-Inf output: %v", err)
	}
	if _, err := c.TraceWord(NewWord(3)); err == nil {
		t.Error("short word accepted")
	}
	if _, err := c.InnocentRate(NewWord(3)); err == nil || !strings.HasPrefix(err.Error(), "output must be a word of length") {
		t.Errorf("InnocentRate of a short word: %v", err)
	}
	if _, err := c.GhostScores(rng.Seeded(1), -1, NewWord(c.Length)); err == nil || !strings.HasPrefix(err.Error(), "ghosts") {
		t.Errorf("negative ghosts: %v", err)
	}
}

// Violations is 0 for marking-respecting outputs and counts exactly the
// flipped unanimous columns.
func TestViolations(t *testing.T) {
	r := rng.Seeded(64)
	c, _ := New(Params{N: 4, Xi: .1}, r)
	if v := c.Violations(majority(c, -1, r)); v != 0 {
		t.Errorf("majority has %d violations", v)
	}
	if v := c.ViolationsWithout(interleave(c, 2, r), 2); v != 0 {
		t.Errorf("interleave without user 2 has %d violations", v)
	}
	if v := c.Violations(blindFlips(100)(c, -1, r)); v != 100 {
		t.Errorf("100 blind flips gave %d violations", v)
	}
}
