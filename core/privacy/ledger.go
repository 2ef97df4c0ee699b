package privacy

import (
	crand "crypto/rand"
	"fmt"
	"math"
	"sync"

	"github.com/dpsample/dpsample/core/checks"
)

// A Ledger is a privacy filter for one table: a total budget (ε, δ) declared
// once, and the releases charged to it. A release that would take the
// releases past the budget is refused before it runs, so that re-runs,
// cherry-picking among runs and several models of one table cannot together
// reveal more than the declared total (docs/PRIVACY.md §8).
//
// # What a release spends
//
// Every release is s_i-GDP (Gaussian differential privacy, Dong, Roth & Su
// 2022) plus a total-variation slack TV_i: its output law is within TV_i of
// the law of an exactly s_i-GDP mechanism. For Algorithm 1 with m samples
// (mechanism.Plan.Charge) s_i = √m·s = Plan.GDPTotal and TV_i = m·Plan.TV
// (0 for an exact sampler); for DP-GD and output perturbation
// (core/baseline) s_i = s*(ε, δ) and TV_i = 0.
//
// # Budget split
//
// The total δ is split exactly as one release splits its own δ (Split,
// SamplerShare = ½): the GDP part gets S = Calibrate(ε, δ/2) and the
// total-variation part TV_tot = (δ/2)/(1 + e^ε). Under a ledger each release's
// sampler is given at most its proportional share TV_tot·s_i²/S² (see
// TVAllowance), so the TV side runs out only together with the GDP side for
// Algorithm 1; it can bind first only for releases charged with a larger TV of
// their own.
//
// # The filter condition, and why it holds under full adaptivity
//
// A charge s, TV is accepted iff, with the releases already charged,
//
//	Σ s_i² + s² ≤ S²   and   Σ TV_i + TV ≤ TV_tot
//
// (each up to the relative rounding tolerance FitTolerance). Releases are
// chosen adaptively: the person sees one result before choosing the next
// request, its ε, the number of samples, or whether to go on at all. This is
// fully adaptive composition, where the per-release parameters are themselves
// functions of earlier outputs, and the plain composition theorem (parameters
// fixed in advance) does not apply. The guarantee rests on:
//
//   - Smith & Thakurta (2022), "Fully adaptive composition for Gaussian
//     differential privacy", arXiv 2210.17520: if each mechanism M_i, chosen
//     together with s_i as a function of the outputs of M_1, …, M_{i−1}, is
//     s_i-GDP conditionally on that history, and a stopping rule guarantees
//     Σ s_i² ≤ S² on every path, then the whole interaction is S-GDP — a filter
//     for GDP with the same parameter as non-adaptive composition
//     (Dong–Roth–Su, Corollary 3.3). The test for a charge uses only the s_i
//     already charged and the plan of the next request (public inputs), never
//     the data, as a filter must.
//   - Whitehouse, Ramdas, Rogers & Wu (ICML 2023), "Fully-adaptive composition
//     in differential privacy": privacy filters (Rogers, Roth, Ullman & Vadhan
//     2016) that match advanced composition, and en route a filter for
//     approximate zCDP. An s-GDP mechanism is (s²/2)-zCDP, so their zCDP
//     filter gives a second, looser proof of the same stopping condition
//     Σ s_i²/2 ≤ S²/2; the ledger uses the exact GDP curve of the first.
//   - Tran, Koskela, Räisä & Honkela (2026), arXiv 2602.06756: the "natural"
//     filter that composes arbitrary trade-off curves and stops when a
//     prescribed curve is crossed is not valid in general; it is for Gaussian
//     trade-offs. This is why the ledger composes GDP parameters and does not
//     accept releases described only by an (ε, δ) pair.
//   - The TV slacks, by coupling: run the interaction twice, once with each
//     sampler and once with the exact s_i-GDP mechanism it approximates,
//     coupling step i maximally given equal histories. The transcripts differ
//     with probability ≤ E[Σ TV_i] ≤ TV_tot, because the filter bounds Σ TV_i
//     on every path. If a transcript law is within τ of an (ε, δ₀)-DP one,
//     it is (ε, δ₀ + (1+e^ε)τ)-DP (see Budget).
//
// Together: everything released under the ledger, whatever was chosen along
// the way, is (ε, δ_S(ε) + (1+e^ε)·TV_tot)-DP = (ε, δ/2 + δ/2)-DP for the
// budget's ε.
//
// # Spent, remaining
//
// Spent reports the releases' composition √Σ s_i² (and Σ TV_i) and the exact ε
// it gives at the budget's δ (ComposedEpsilon, with basic composition of the
// releases' own (ε_i, δ_i) when that is smaller). These are the bookkeeping of
// what the filter has used: a guarantee for the releases so far *if their
// parameters had been fixed in advance*. With adaptively chosen parameters the
// guarantee is the budget's (a filter, not an odometer: Rogers et al. 2016 show
// that reading the realised composition as a guarantee must cost more).
// Remaining is the largest s a further release may have.
type Ledger struct {
	mu      sync.Mutex
	budget  LedgerBudget
	history []Release
	// compose is the composition rule of GDP parameters: composeGDP, or nil
	// for it. Only the tests give another (newLedger), to see a broken rule
	// fail them.
	compose func([]float64) float64
}

// Release is one charge to a Ledger.
type Release struct {
	ID    string `json:"id"`              // unique; assigned by Charge when empty (merging by ID, Registry.Restore)
	Label string `json:"label,omitempty"` // what was released, for the person reading the history
	// GDP is s_i: the release is s_i-GDP (m samples: √m·s).
	GDP float64 `json:"gdp"`
	// TV is the total variation between the release's law and an exactly
	// s_i-GDP mechanism's (m samples: m·TV per sample); 0 for exact samplers.
	TV float64 `json:"tv"`
	// Epsilon, Delta: the release's own stated (ε_i, δ_i) guarantee, if known
	// (0 otherwise); used only for basic composition in Spent.
	Epsilon float64 `json:"epsilon,omitempty"`
	Delta   float64 `json:"delta,omitempty"`
}

// LedgerBudget is a ledger's declared total and its split.
type LedgerBudget struct {
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	GDP     float64 `json:"gdp"` // S = Calibrate(ε, δ/2): the filter's bound on √Σ s_i²
	TV      float64 `json:"tv"`  // TV_tot = (δ/2)/(1+e^ε): the filter's bound on Σ TV_i
}

// LedgerSpent is what the releases so far have used.
type LedgerSpent struct {
	// Epsilon at Delta: the releases so far are (Epsilon, Delta)-DP had their
	// parameters been fixed in advance. Delta is the budget's δ (0 before the
	// first release); over budget (only possible after merging two devices'
	// histories, Registry.Restore) it is the smallest δ the spent curve reaches.
	Epsilon    float64 `json:"epsilon"`
	Delta      float64 `json:"delta"`
	GDP        float64 `json:"gdp"` // √Σ s_i²
	TV         float64 `json:"tv"`  // Σ TV_i
	Releases   int     `json:"releases"`
	OverBudget bool    `json:"overBudget"`
}

// LedgerRemaining is what a further release may still spend.
type LedgerRemaining struct {
	GDP float64 `json:"gdp"` // √(S² − Σ s_i²): the largest s of one more release
	TV  float64 `json:"tv"`  // TV_tot − Σ TV_i
	// Epsilon is the largest ε a further request at the budget's δ may ask
	// for (Epsilon(GDP, δ): any sampler; an approximate one gives half its δ
	// to TV and so needs an s below this bound).
	Epsilon float64 `json:"epsilon"`
}

// LedgerState is a ledger as the JS API returns and the page stores it.
type LedgerState struct {
	Key       string          `json:"key,omitempty"` // absent only in the page's JSON export
	Budget    LedgerBudget    `json:"budget"`
	Spent     LedgerSpent     `json:"spent"`
	Remaining LedgerRemaining `json:"remaining"`
	History   []Release       `json:"history"`
}

// FitTolerance is the relative tolerance of the filter's comparisons,
// Σ s_i² ≤ S²·(1 + FitTolerance) and Σ TV_i ≤ TV_tot·(1 + FitTolerance). It
// absorbs the rounding of a sum of squares: m releases at fl(s/√m) square and
// add up to s² only within ≈ (m+5)·2⁻⁵³ relative, so without it a budget split
// evenly into m releases would refuse the last one. 2⁻⁴⁴ ≈ 5.7·10⁻¹⁴ covers
// m ≤ 500 even splits. Its privacy cost: the composed GDP may reach
// S·√(1+2⁻⁴⁴) ≤ S·(1 + 2.9·10⁻¹⁴), which raises δ_S(ε) by at most
// S·2.9·10⁻¹⁴·φ(0) < 1.2·10⁻¹⁴·S (dδ/ds = φ(s/2 − ε/s) ≤ 1/√(2π)), and the TV
// part by TV_tot·(1+e^ε)·2⁻⁴⁴ = δ/2·5.7·10⁻¹⁴: together below 10⁻¹³·max(S, δ),
// the order of Calibrate's own bracket (10⁻¹⁴ relative).
const FitTolerance = 0x1p-44

// composeGDP is the composition rule for GDP parameters: s_1, …, s_k compose
// to √(Σ s_i²) (Dong, Roth & Su 2022, Corollary 3.3; fully adaptive: Smith &
// Thakurta 2022). The sum is compensated (Neumaier) so that its rounding stays
// ≈ 2⁻⁵³ relative whatever k, and computed as 2^e·√(Σ (2^(−e)·s_i)²) with
// 2^(e−1) ≤ max s_i < 2^e, so that no square overflows: a restored history
// may hold any finite s_i > 0, and s_i = 10²⁰⁰ made Σ s_i² +Inf and the
// compensated sum NaN — a ledger that was not over budget and had NaN left
// (issue 41, found by FuzzLedgerRestore). Scaling by a power of two is exact,
// so for ordinary s_i the result is the same, bit for bit. The composition
// is +Inf only when √(Σ s_i²) itself exceeds MaxFloat64. A ledger applies it
// through Ledger.composed; the tests make ledgers with broken rules (Σ s_i,
// max s_i) by newLedger and see the tests fail them.
func composeGDP(s []float64) float64 {
	mx := 0.0
	for _, v := range s {
		mx = math.Max(mx, v)
	}
	if !(mx > 0) || math.IsInf(mx, 1) {
		return mx
	}
	_, e := math.Frexp(mx)
	return math.Ldexp(math.Sqrt(sum(len(s), func(i int) float64 {
		v := math.Ldexp(s[i], -e)
		return v * v
	})), e)
}

// composed is the ledger's composition rule applied to s (composeGDP unless
// a test gave another).
func (l *Ledger) composed(s []float64) float64 {
	if l.compose != nil {
		return l.compose(s)
	}
	return composeGDP(s)
}

// sumTV is the total variation of independent releases: TVs add (the
// coupling argument in the Ledger doc).
func sumTV(h []Release) float64 { return sum(len(h), func(i int) float64 { return h[i].TV }) }

// sum is Neumaier's compensated sum of x(0), …, x(n−1).
func sum(n int, x func(int) float64) float64 {
	var s, c float64
	for i := 0; i < n; i++ {
		v := x(i)
		t := s + v
		if math.Abs(s) >= math.Abs(v) {
			c += (s - t) + v
		} else {
			c += (v - t) + s
		}
		s = t
	}
	return s + c
}

// NewLedger returns an empty ledger with total budget (ε, δ). Errors name
// "epsilon" or "delta".
func NewLedger(eps, delta float64) (*Ledger, error) {
	return newLedger(eps, delta, composeGDP)
}

// newLedger is NewLedger with the composition rule as a parameter (the
// tests' seam: TestBrokenCompositionIsCaught).
func newLedger(eps, delta float64, compose func([]float64) float64) (*Ledger, error) {
	b, err := NewLedgerBudget(eps, delta)
	if err != nil {
		return nil, err
	}
	return &Ledger{budget: b, compose: compose}, nil
}

// NewLedgerBudget splits (ε, δ) for a ledger: S = Calibrate(ε, δ/2), TV_tot =
// (δ/2)/(1+e^ε) (Split).
func NewLedgerBudget(eps, delta float64) (LedgerBudget, error) {
	sp, err := Split(eps, delta)
	if err != nil {
		return LedgerBudget{}, err
	}
	s, err := Calibrate(eps, sp.DeltaCurve)
	if err != nil {
		return LedgerBudget{}, err
	}
	return LedgerBudget{Epsilon: eps, Delta: delta, GDP: s, TV: sp.TV}, nil
}

// Budget returns the ledger's declared total and its split.
func (l *Ledger) Budget() LedgerBudget { return l.budget }

// validateRelease checks a charge's fields; field names are prefixed by name.
func validateRelease(name string, r Release) error {
	return checks.First(
		checks.Positive(name+"gdp", r.GDP),
		checks.InRange(name+"tv", r.TV, 0, 1),
		checks.NonNegative(name+"epsilon", r.Epsilon),
		checks.InRange(name+"delta", r.Delta, 0, 1),
	)
}

// gdps returns the s_i of h followed by extra.
func gdps(h []Release, extra ...float64) []float64 {
	out := make([]float64, 0, len(h)+len(extra))
	for _, r := range h {
		out = append(out, r.GDP)
	}
	return append(out, extra...)
}

// MaxHistory bounds a ledger's releases: a state that holds more cannot be
// restored (Registry.Restore, the JS API's ledger.restore), so a charge
// that would go past it is refused like one over budget — otherwise the
// page's stored budget could no longer be read back (issue 30). A person
// clicking Run every second for a day makes 86,400.
const MaxHistory = 100_000

// fits reports whether r can be charged after h; the caller holds l.mu.
func (l *Ledger) fits(r Release) error {
	if len(l.history) >= MaxHistory {
		return &checks.Error{Field: "ledger", Rule: fmt.Sprintf(
			"below %d releases for one more (a stored budget holds at most that many): reset the table's budget to go on", MaxHistory),
			Got: fmt.Sprintf("%d releases", len(l.history))}
	}
	b := l.budget
	g := l.composed(gdps(l.history, r.GDP))
	tv := sumTV(l.history) + r.TV
	if g*g <= b.GDP*b.GDP*(1+FitTolerance) && tv <= b.TV*(1+FitTolerance) {
		return nil
	}
	st := l.stateLocked()
	own := ""
	if r.Epsilon > 0 && r.Delta > 0 {
		own = fmt.Sprintf(" (ε = %s at δ = %s on its own)", fmtNum(r.Epsilon), fmtNum(r.Delta))
	}
	// What is left is rounded down (FormatDown), what this release costs to
	// the nearest: a number typed from the message fits.
	left := fmt.Sprintf("gdp %s", FormatDown(st.Remaining.GDP, 4))
	cost := fmt.Sprintf("gdp %s%s", fmtNum(r.GDP), own)
	if !(tv <= b.TV*(1+FitTolerance)) {
		left = fmt.Sprintf("total variation %s", FormatDown(st.Remaining.TV, 4))
		cost = fmt.Sprintf("total variation %s (gdp %s%s)", fmtNum(r.TV), fmtNum(r.GDP), own)
	}
	return &checks.Error{Field: "ledger", Rule: fmt.Sprintf(
		"large enough for this release: it costs %s, but only %s is left (a further release may ask for at most ε = %s at δ = %s); "+
			"%d release(s) so far spent ε = %s of the total ε = %s at δ = %s",
		cost, left, FormatDown(st.Remaining.Epsilon, 4), fmtNum(b.Delta),
		st.Spent.Releases, fmtNum(st.Spent.Epsilon), fmtNum(b.Epsilon), fmtNum(b.Delta))}
}

// fmtNum prints a number to 4 significant digits for a message.
func fmtNum(v float64) string { return fmt.Sprintf("%.4g", v) }

// Fits returns nil if r can be charged now, else an error naming "ledger"
// that says what r costs and what is left. It reads only r and the charges
// already made: public inputs.
func (l *Ledger) Fits(r Release) error {
	if err := validateRelease("", r); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fits(r)
}

// Charge records r if it fits (atomically: two concurrent charges cannot
// both pass a check that only one of them fits) and returns the state after
// the charge. A refused charge changes nothing. r.ID is assigned if empty.
func (l *Ledger) Charge(r Release) (LedgerState, error) {
	if err := validateRelease("", r); err != nil {
		return LedgerState{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.fits(r); err != nil {
		return LedgerState{}, err
	}
	if r.ID == "" {
		r.ID = newID()
	}
	l.history = append(l.history, r)
	return l.stateLocked(), nil
}

// newID is a random release identifier (crypto/rand, 26 base32 characters),
// unique across devices and tabs so that merged histories never lose or
// double a release.
func newID() string { return crand.Text() }

// Check is a ledger's answer about a release before anything runs
// (mechanism.PlanCharged, the JS API's plan.ledger).
type Check struct {
	Fits   bool         `json:"fits"`
	Reason string       `json:"reason,omitempty"` // why not: the message a sample call would reject with
	Cost   Release      `json:"cost"`
	Before LedgerState  `json:"before"`
	After  *LedgerState `json:"after,omitempty"` // the state after the charge, when it fits
}

// Check reports whether r fits and what the ledger would look like after it,
// without charging.
func (l *Ledger) Check(r Release) (Check, error) {
	if err := validateRelease("", r); err != nil {
		return Check{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := Check{Cost: r, Before: l.stateLocked()}
	if err := l.fits(r); err != nil {
		c.Reason = err.Error()
		return c, nil
	}
	c.Fits = true
	saved := l.history
	l.history = append(append([]Release(nil), saved...), r)
	after := l.stateLocked()
	l.history = saved
	c.After = &after
	return c, nil
}

// TVAllowance is the total variation a release of GDP parameter s may use
// under this ledger: its proportional share TV_tot·min(1, s²/S²), and no more
// than what is left, shrunk by 2⁻³⁰ so that rounding never makes a fitting
// GDP charge fail on the TV side. 0 means the TV side is spent: only exact
// samplers can still run.
func (l *Ledger) TVAllowance(s float64) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.budget
	share := b.TV * math.Min(1, (s/b.GDP)*(s/b.GDP))
	left := b.TV - sumTV(l.history)
	return math.Max(0, math.Min(share, left)*(1-0x1p-30))
}

// Remaining returns what a further release may spend.
func (l *Ledger) Remaining() LedgerRemaining {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.remainingLocked()
}

func (l *Ledger) remainingLocked() LedgerRemaining {
	b := l.budget
	g := l.composed(gdps(l.history))
	rem := LedgerRemaining{
		GDP: math.Sqrt(math.Max(0, (b.GDP-g)*(b.GDP+g))),
		TV:  math.Max(0, b.TV-sumTV(l.history)),
	}
	if rem.GDP > 0 {
		rem.Epsilon, _ = Epsilon(rem.GDP, b.Delta)
	}
	return rem
}

// State returns the ledger's state (Key empty: the Registry fills it).
func (l *Ledger) State() LedgerState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stateLocked()
}

func (l *Ledger) stateLocked() LedgerState {
	b := l.budget
	st := LedgerState{Budget: b, Remaining: l.remainingLocked(), History: append([]Release{}, l.history...)}
	sp := &st.Spent
	sp.Releases = len(l.history)
	sp.GDP = l.composed(gdps(l.history))
	sp.TV = sumTV(l.history)
	sp.OverBudget = sp.GDP*sp.GDP > b.GDP*b.GDP*(1+FitTolerance) || sp.TV > b.TV*(1+FitTolerance)
	if sp.Releases == 0 {
		return st
	}
	eps, d, ok := l.epsilonAtLocked(b.Delta)
	sp.Epsilon, sp.Delta = eps, b.Delta
	if !ok {
		sp.Delta = d
	}
	return st
}

// Reset forgets every release (the budget stays). Only the person the ledger
// protects others from can call it; it is the page's "reset", behind a
// confirmation.
func (l *Ledger) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.history = nil
}

// ResetTo forgets every release and declares a new budget (ε, δ): the only
// way to change a ledger's budget, because it also gives up everything the
// releases so far were counted against. Errors name "epsilon" or "delta".
func (l *Ledger) ResetTo(eps, delta float64) error {
	b, err := NewLedgerBudget(eps, delta)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.budget, l.history = b, nil
	return nil
}

// EpsilonAt returns the smallest ε at which the releases so far (parameters
// taken as fixed) are (ε, δ)-DP: the smaller of ComposedEpsilon(√Σ s_i²,
// Σ TV_i, δ) and, when every release states its own (ε_i, δ_i) and
// Σ δ_i ≤ δ, basic composition's Σ ε_i. So it is never looser than basic
// composition, and for pure-GDP releases the exact curve is (Dong–Roth–Su:
// G_{√Σs²} is the exact trade-off of the composition, of which basic
// composition is a bound). ok is false when no ε reaches δ; eps is then the
// minimiser of the curve and the returned δ its value there.
func (l *Ledger) EpsilonAt(delta float64) (eps, atDelta float64, ok bool, err error) {
	if err := checks.Delta("delta", delta); err != nil {
		return 0, 0, false, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	eps, atDelta, ok = l.epsilonAtLocked(delta)
	return eps, atDelta, ok, nil
}

func (l *Ledger) epsilonAtLocked(delta float64) (float64, float64, bool) {
	if len(l.history) == 0 {
		return 0, 0, true
	}
	eps, d, ok := ComposedEpsilon(l.composed(gdps(l.history)), sumTV(l.history), delta)
	var se, sd float64
	basic := true
	for _, r := range l.history {
		if !(r.Epsilon > 0 && r.Delta > 0) {
			basic = false
			break
		}
		se += r.Epsilon
		sd += r.Delta
	}
	// (Σ δ_i is compared with the same rounding tolerance as the filter's sums:
	// k releases at δ/k add up to δ only within a few ulps.)
	if basic && sd <= delta*(1+FitTolerance) && (!ok || se < eps) {
		return se, delta, true
	}
	if ok {
		d = delta
	}
	return eps, d, ok
}
