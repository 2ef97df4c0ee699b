package mechanism

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/dpgd"
	"github.com/dpsample/dpsample/core/interval"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/privacy"
	"github.com/dpsample/dpsample/core/sampler"
	"github.com/dpsample/dpsample/core/sampler/exact"
)

// Request is one call of the mechanism (docs/API.md; JSON names are the JS
// API's).
type Request struct {
	Loss    string      `json:"loss"`
	X       [][]float64 `json:"x"`
	Y       []float64   `json:"y,omitempty"`
	Epsilon float64     `json:"epsilon"`
	Delta   float64     `json:"delta"`
	Radius  float64     `json:"radius,omitempty"`  // public C ≥ ‖θ*‖ (Assumption 1.2); 0: DefaultRadius
	Rank    int         `json:"rank,omitempty"`    // public k; default d
	Clip    float64     `json:"clip,omitempty"`    // public bound on ‖x‖₂; default 1
	Tau     float64     `json:"tau,omitempty"`     // quantile level; default 0.5
	Huber   float64     `json:"huber,omitempty"`   // Huber threshold; default 1
	Ball    float64     `json:"ball,omitempty"`    // radius of K for "linext"; default 1
	Samples int         `json:"samples,omitempty"` // default 1
	Sampler Sampler     `json:"sampler,omitempty"` // "auto" (default), "proximal", "smooth", "exact"
	EtaRule EtaRule     `json:"etaRule,omitempty"` // "optimal" (default) or "paper"
	Mode    string      `json:"mode,omitempty"`    // proximal RGO mode: "auto", "full", "stochastic"
	Seed    *uint64     `json:"seed,omitempty"`    // reproducible, NOT private
	// FixedWork makes the proximal samplers' work a function of public inputs
	// only (sampler.WorkTotal: K + 1 anchor passes per step and a public total
	// trial budget B, padded with real trials; the overrun is charged to TV).
	// nil means the default, on (docs/PRIVACY.md §5); false restores the
	// adaptive sampler (faster, but its work depends on the data).
	FixedWork *bool `json:"fixedWork,omitempty"`
	// Workers is the number of cores offered for the data passes of the
	// first-order sampler and of DP-GD on a smooth loss (default 1). The
	// plan uses loss.Workers(n, Workers) shards (Plan.Workers); the sample
	// is the same bits for every number of workers.
	Workers int `json:"workers,omitempty"`
	// Method is the estimator: "exponential" (Algorithm 1, the default),
	// "dp-gd" or "dp-gd-projected" (full-batch DP-GD with the public schedule
	// of package dpgd, at the same accountant; dpgd.go).
	Method Estimator `json:"method,omitempty"`
	// Interval, if set, is the level of the intervals released beside a
	// DP-GD estimate (e.g. 0.95; core/interval): method "dp-gd" on a smooth
	// loss, one sample. The request's (ε, δ) covers the model and the
	// intervals together (Plan.Interval gives the split); 0: none.
	Interval float64 `json:"interval,omitempty"`

	// Declared boxes of the records (clamp.go): [lo, hi], default [−1, 1].
	TargetRange []float64 `json:"targetRange,omitempty"` // lad, quantile, huber: y clamped to it
	PointBox    []float64 `json:"pointBox,omitempty"`    // l1, l2dist: every coordinate clamped to it

	// maxTV caps the samples' total variation when the request runs under a
	// ledger (ledger.go); never set from outside the package.
	maxTV float64
	// shapeN, when positive, is the number of rows planned for in place of
	// len(X) (PlanShape: X is then a stand-in of the same row length).
	shapeN int
}

// Plan holds the data-independent parameters of one request.
type Plan struct {
	N                 int        `json:"n"`
	D                 int        `json:"d"`
	G                 float64    `json:"G"`
	Eta               float64    `json:"eta"`
	Mu                float64    `json:"mu"`
	GDP               float64    `json:"gdp"` // per sample
	DeltaCurve        float64    `json:"deltaCurve"`
	DeltaSampler      float64    `json:"deltaSampler"`
	TV                float64    `json:"tv"` // per sample; 0 for an exact sampler
	Steps             int        `json:"steps"`
	Lambda            float64    `json:"lambda"`
	RadiusBall        float64    `json:"radiusBall"`
	ExpectedLossEvals float64    `json:"expectedLossEvals"`
	Sampler           Sampler    `json:"sampler"` // SamplerExact or SamplerProximal (also for the first-order sampler); DP-GD: the estimator's name
	Neighbours        Neighbours `json:"neighbours"`

	// Method is the algorithm that draws: "l1-mixture", "gaussian",
	// "1d-rejection", "first-order", "proximal-full", "proximal-stochastic";
	// "dp-gd", "dp-gd-projected" when DP-GD was requested. It stays a plain
	// string, not a typed enum: it is built as "proximal-"+the sampler's
	// mode (sampler.Plan.Mode) or copied from an Estimator, so its set is
	// the union of other packages' sets rather than one declared here.
	Method   string  `json:"method"`
	Loss     string  `json:"loss"`
	Rank     int     `json:"rank"`
	Radius   float64 `json:"radius"`
	Clip     float64 `json:"clip"`
	Epsilon  float64 `json:"epsilon"`
	Delta    float64 `json:"delta"`
	Samples  int     `json:"samples"`
	GDPTotal float64 `json:"gdpTotal"`
	EtaRule  EtaRule `json:"etaRule"`
	Grid     float64 `json:"grid"` // output rounding step

	TargetRange []float64 `json:"targetRange,omitempty"` // the public target range used (regression losses)
	PointBox    []float64 `json:"pointBox,omitempty"`    // the public point box used (l1, l2dist)

	// Sampler choice and the proximal samplers' budgets (choose.go).
	Why         string  `json:"why"`         // which sampler and why
	Curvature   float64 `json:"curvature"`   // first-order: β·clip², ∇²ℓ ⪯ curvature·I; 0 otherwise
	AnchorMax   int     `json:"anchorMax"`   // first-order: K, the most anchor gradient passes per step
	TrialBudget int     `json:"trialBudget"` // proximal: M, trials per RGO call
	AcceptMin   float64 `json:"acceptMin"`   // first-order: p_min, lower bound on the acceptance per trial
	TVMix       float64 `json:"tvMix"`       // proximal: τ_c, the mixing share of TV
	TVRGO       float64 `json:"tvRGO"`       // proximal: the RGO share of TV (first-order: T·(1−p_min)^M; zeroth-order: T·τ_step)

	// Fixed work (Request.FixedWork): whether the proximal sampler's work is
	// fixed, its total trial budget B per sample, the zeroth-order
	// stochastic RGO's total of factory draws B_f per sample, and the TV
	// share of an overrun of either (sampler.TotalBudget, DrawBudget); 0
	// without fixed work or for an exact sampler, whose work is not fixed
	// (docs/PRIVACY.md §5).
	FixedWork    bool    `json:"fixedWork"`
	TrialTotal   int64   `json:"trialTotal"`
	FactoryTotal int64   `json:"factoryTotal"`
	TVOver       float64 `json:"tvOver"`
	// Work estimates the work of the sample call (all samples) from public
	// inputs only, so that a page can warn before it starts (work.go).
	Work Work `json:"work"`
	// Workers is the number of shards of the first-order sampler's passes
	// and of DP-GD's gradient passes on a smooth loss, loss.Workers(n,
	// Request.Workers) (public: n and the cores offered); 1 for the other
	// samplers.
	Workers int `json:"workers"`

	// Ledger is set by PlanCharged: whether the release fits the ledger's
	// budget, what it costs and the ledger before and after (ledger.go).
	Ledger *privacy.Check `json:"ledger,omitempty"`
	// Estimator is "exponential" (Algorithm 1) or the DP-GD variant run;
	// Schedule is DP-GD's public schedule (nil for Algorithm 1).
	Estimator Estimator      `json:"estimator"`
	Schedule  *dpgd.Schedule `json:"schedule,omitempty"`
	// Interval is the plan of the intervals when Request.Interval is set
	// (core/interval): whether its public gate passes (and why not), the
	// split of the budget (Schedule.GDP is the model's share; GDPTotal
	// covers everything) and the releases' noise.
	Interval *interval.Plan `json:"interval,omitempty"`
}

// Sampler is the sampler choice (Request.Sampler, Plan.Sampler,
// AuditConfig.Sampler): SamplerAuto, SamplerExact, SamplerProximal or
// SamplerSmooth (choose.go). A plan of Algorithm 1 records only
// SamplerExact or SamplerProximal (the first-order sampler is proximal too;
// Plan.Method tells them apart); a DP-GD plan, which runs no sampler,
// records the estimator's name, Sampler(EstimatorDPGD) or
// Sampler(EstimatorDPGDProjected) (planDPGD). JSON: the string itself.
type Sampler string

// Sampler choices.
const (
	SamplerAuto     Sampler = "auto"
	SamplerExact    Sampler = "exact"
	SamplerProximal Sampler = "proximal"
)

// Methods (Plan.Method).
const (
	MethodL1      = "l1-mixture"
	MethodGauss   = "gaussian"
	Method1D      = "1d-rejection"
	methodProxPre = "proximal-"
)

// Neighbours is a neighbouring relation (Plan.Neighbours,
// Privacy.Neighbours). JSON: the string itself.
type Neighbours string

// ReplaceOne is the neighbouring relation certified: D and D′ differ in one
// record, replaced (the relation of Algorithm 1's guarantee, Lemma E.1).
const ReplaceOne Neighbours = "replace-one"

// prepared is a validated request: the plan, the data, and the sampler plan.
type prepared struct {
	plan Plan
	set  *loss.Set
	kind loss.Kind
	prox sampler.Plan
	cal  Calibrated
	cl   clamping
	work string // sampler work mode (sampler.WorkTotal under FixedWork)
	// fitFixed: the reference fit makes all of Work.Reference's passes
	// (fitFixed).
	fitFixed bool
	// acceptAll replaces the first-order oracle by one that accepts every
	// proposal: the audit's deliberately broken negative control (audit.go).
	acceptAll bool
	mode      string // zeroth-order RGO mode requested

	fo         sampler.FirstOrderPlan
	firstOrder bool
}

// fitFixed reports whether the reference fit's work is fixed: unless the
// request sets fixedWork false, in every mode (DP-GD and the exact
// samplers too: docs/PRIVACY.md §7.1).
func fitFixed(req Request) bool { return req.FixedWork == nil || *req.FixedWork }

// exactMethod returns the exact sampler for the loss and dimension, or "".
func exactMethod(k loss.Kind, d int) string {
	switch {
	case k == loss.L1:
		return MethodL1
	case k == loss.Linear:
		return MethodGauss
	case d == 1:
		return Method1D
	}
	return ""
}

// requestRadius is the request's radius, or DefaultRadius (from the loss,
// clip and declared box only) when it is unset, with the sentence the
// plan's why adds then.
func requestRadius(req Request, k loss.Kind, set *loss.Set, cl clamping) (float64, string) {
	if req.Radius != 0 {
		return req.Radius, ""
	}
	r := DefaultRadius(k, set.Params().Clip, cl.target)
	if k.Location() {
		r = DefaultRadius(k, set.Params().Clip, cl.box)
	}
	return r, fmt.Sprintf("; radius not given: C = %g by the public default rule (DefaultRadius, from the loss, clip and declared domain only)", r)
}

// NewPlan validates req and returns its data-independent parameters. Every
// error names the offending field.
func NewPlan(req Request) (Plan, error) {
	p, err := prepare(req)
	if err != nil {
		return Plan{}, err
	}
	return p.plan, nil
}

func prepare(req Request) (*prepared, error) {
	k, err := loss.ParseKind(req.Loss)
	if err != nil {
		return nil, err
	}
	if err := checkEstimator(req.Method); err != nil {
		return nil, err
	}
	if err := checkInterval(req); err != nil {
		return nil, err
	}
	// Sizes first, before the data is copied.
	rows := len(req.X)
	if req.shapeN > 0 {
		rows = req.shapeN
	}
	if rows > maxN {
		return nil, &checks.Error{Field: "x", Rule: fmt.Sprintf("at most %d rows", maxN), Got: fmt.Sprint(rows)}
	}
	if rows > 0 && len(req.X[0]) > maxD {
		return nil, &checks.Error{Field: "x[0]", Rule: fmt.Sprintf("a row of at most %d features", maxD), Got: fmt.Sprint(len(req.X[0]))}
	}
	if rows > 0 && rows*len(req.X[0]) > maxCells {
		return nil, checks.Errorf("x", "at most %d numbers in all (n·d)", maxCells)
	}
	if rows == 1 {
		return nil, &checks.Error{Field: "x", Rule: "at least 2 rows", Got: "1 row"}
	}
	if err := checks.IntRange("workers", req.Workers, 0, loss.MaxWorkers); err != nil {
		return nil, err
	}
	x, y, cl, err := clampRecords(k, req)
	if err != nil {
		return nil, err
	}
	set, err := loss.New(k, x, y, loss.Params{Clip: req.Clip, Tau: req.Tau, Huber: req.Huber, Ball: req.Ball})
	if err != nil {
		return nil, err
	}
	n, d := set.N(), set.Dim()
	if req.shapeN > 0 {
		n = req.shapeN
	}
	if err := checks.IntRange("rank", req.Rank, 0, d); err != nil {
		return nil, err
	}
	if isDPGD(req.Method) {
		rank := req.Rank
		if rank == 0 {
			rank = d
		}
		radius, why := requestRadius(req, k, set, cl)
		pl := Plan{N: n, D: d, G: set.G(), Neighbours: ReplaceOne, Loss: k.String(), Rank: rank, Radius: radius,
			Clip: set.Params().Clip, Epsilon: req.Epsilon, Delta: req.Delta, Samples: max(req.Samples, 1),
			TargetRange: cl.target, PointBox: cl.box, Estimator: req.Method}
		p := &prepared{set: set, kind: k, cl: cl}
		if err := planDPGD(&pl, p, req); err != nil {
			return nil, err
		}
		pl.Why += why
		_, smooth := set.Smooth()
		p.fitFixed = fitFixed(req)
		pl.Work, pl.Workers = estimateWork(pl, k, p.fitFixed), 1
		if smooth {
			// DP-GD's gradient passes are sharded like the first-order
			// sampler's (dpgd.RunOn): the same bits for every W.
			pl.Workers = loss.Workers(n, max(1, req.Workers))
		}
		p.plan = pl
		return p, nil
	}
	ch, err := chooseSampler(req.Sampler, set)
	if err != nil {
		return nil, err
	}
	method, useExact := ch.exact, ch.exact != ""
	radius, why := requestRadius(req, k, set, cl)
	ch.why += why
	cal, err := Calibrate(Calibration{N: n, D: d, Rank: req.Rank, G: set.G(), Radius: radius,
		Epsilon: req.Epsilon, Delta: req.Delta, Samples: req.Samples, EtaRule: req.EtaRule, Exact: useExact, MaxTV: req.maxTV})
	if err != nil {
		return nil, err
	}
	m := max(req.Samples, 1)
	rank := req.Rank
	if rank == 0 {
		rank = d
	}
	etaRule := req.EtaRule
	if etaRule == "" {
		etaRule = EtaOptimal
	}
	pl := Plan{
		N: n, D: d, G: set.G(), Eta: cal.Eta, Mu: cal.Mu, GDP: cal.GDP,
		DeltaCurve: cal.DeltaCurve, DeltaSampler: cal.DeltaSampler, TV: cal.TV,
		Neighbours: ReplaceOne, Loss: k.String(), Rank: rank, Radius: radius,
		Clip: set.Params().Clip, Epsilon: req.Epsilon, Delta: req.Delta, Samples: m,
		GDPTotal: cal.GDPTotal, EtaRule: etaRule, TargetRange: cl.target, PointBox: cl.box, Why: ch.why,
		Estimator: EstimatorExponential,
	}
	p := &prepared{set: set, kind: k, cal: cal, cl: cl}
	if req.FixedWork == nil || *req.FixedWork {
		p.work = sampler.WorkTotal
	}
	if useExact {
		pl.Sampler, pl.Method = SamplerExact, method
		switch method {
		case Method1D: // table build (≈ DefaultCells + 400 potential evaluations) + ≈ 1.2 per draw
			pl.ExpectedLossEvals = float64(n) * (exact.DefaultCells + 400 + 1.2*float64(m))
		default: // the l1 mixture and the Gaussian use the data directly, no loss evaluations
			pl.ExpectedLossEvals = 0
		}
	} else if ch.firstOrder {
		if err := planFirstOrder(&pl, p, cal); err != nil {
			return nil, err
		}
	} else {
		p.mode = req.Mode
		if err := planZerothOrder(&pl, p, cal); err != nil {
			return nil, err
		}
	}
	pl.Grid = grid(pl)
	p.fitFixed = fitFixed(req)
	pl.Work = estimateWork(pl, k, p.fitFixed)
	pl.Workers = 1
	if p.firstOrder {
		pl.Workers = loss.Workers(n, max(1, req.Workers))
	}
	p.plan = pl
	return p, nil
}

// planZerothOrder fills the zeroth-order fields of pl (λ, M, T, the TV
// split, the total trial budget) from the data-independent plan.
func planZerothOrder(pl *Plan, p *prepared, cal Calibrated) error {
	sp, err := sampler.NewPlan(sampler.Params{N: pl.N, D: pl.D, G: pl.G, Eta: cal.Eta, Mu: cal.Mu, TV: cal.TV, Mode: p.mode, Work: p.work})
	if err != nil {
		return err
	}
	p.prox = sp
	pl.Sampler, pl.Method = SamplerProximal, methodProxPre+sp.Mode
	pl.Steps, pl.Lambda, pl.RadiusBall = sp.Steps, sp.Lambda, sp.RadiusBall
	pl.ExpectedLossEvals = sp.ExpectedLossEvals * float64(pl.Samples)
	pl.TrialBudget, pl.TVMix, pl.TVRGO = sp.TrialBudget, sp.TauC, float64(sp.Steps)*sp.TauStep
	pl.AcceptMin = sp.PMin
	pl.FixedWork, pl.TrialTotal, pl.FactoryTotal, pl.TVOver = sp.Work != sampler.WorkAdaptive, sp.TrialTotal, sp.FactoryTotal, sp.TauOver
	return nil
}

// grid returns the output rounding step: the power of two nearest above
// 2⁻²⁰/√(ημ) (the posterior scale is ≤ 1/√(ημ), so rounding moves θ by a
// negligible fraction of its noise), and at least 2⁻⁴⁰ times a bound on ‖θ‖
// (so that the low-order float bits are always removed). Data-independent.
// The exact samplers and the first-order sampler draw their normals from
// 53-bit uniforms (rng.Normal53), so a cell of 2⁻²⁰σ holds ≳ 10⁹ generator
// outputs (relative error in a cell's probability ≲ 10⁻⁹); with math/rand's
// 32-bit ziggurat it held ≈ 590 (exact samplers) and 3·10³–9·10³ (the
// first-order sampler's last proposal, whose σ is 3–10× smaller than the
// posterior's). The zeroth-order sampler keeps the ziggurat: its last
// proposal's σ is 230–3700× smaller, ≥ 1.5·10⁵ points per cell
// (TestOutputGridResolution, docs/PRIVACY.md §6).
func grid(pl Plan) float64 {
	sigma := 1 / math.Sqrt(pl.Eta*pl.Mu)
	scale := pl.G/pl.Mu + (math.Sqrt(float64(pl.D))+10)*sigma
	g := math.Max(math.Ldexp(sigma, -20), math.Ldexp(scale, -40))
	_, e := math.Frexp(g) // g = f·2^e, f ∈ [½, 1)
	return math.Ldexp(1, e)
}

// round snaps every coordinate to the grid in place.
func round(theta []float64, step float64) {
	for j, v := range theta {
		theta[j] = step * math.Round(v/step)
	}
}
