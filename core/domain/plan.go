package domain

import (
	"fmt"
	"math"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/privacy"
)

// The public constants of the mechanism (package doc). They were chosen on the
// development half of the utility study, at full size and subsampled to 100
// and 250 rows (docs/PRIVACY.md §9, docs/study/ranges-development.md), never
// on iris, wine, Pima or R's tables.
const (
	// Bins2 is the number of linear bins of stage 2.
	Bins2 = 16
	// Share1 is the fraction of s² spent on stage 1 (magnitude).
	Share1 = 0.5
	// Grow is z_g: stage 1 grows the mode's run of bins through a neighbour
	// whose noisy count reaches ⌈z_g·σ₁ + ½⌉, and counts zero or negative
	// values as present from the same level. An empty neighbour passes with
	// probability Φ̄(z_g) ≈ 2.3 %, and then widens the range by one bin
	// (a factor 4), never by orders of magnitude.
	Grow = 2.0
	// FalseMode is β: a column's mode is "found" (not Resolution "none")
	// when it reaches τ_m = ⌈σ₁·Φ̄⁻¹(β/M) + ½⌉ (M bins a side), which a side
	// with no value reaches with probability ≤ β, or when the sum of two
	// neighbouring bins reaches τ_16 = ⌈σ₁√2·Φ̄⁻¹(β/(2M)) + 1⌉ (the coarse
	// fallback; the 2(M − 1) pairs of empty bins: probability < β).
	FalseMode = 1e-3
	// FalseCluster is β_c: the probability that a side of zero, or a bin
	// apart from the mode's run, with no value at all is trusted (its noisy
	// count reaches τ_c = ⌈σ₁·Φ̄⁻¹(β_c/M) + ½⌉). Such a bin widens the range by
	// orders of magnitude, so β_c is kept as small as the former design's
	// false-bin rate.
	FalseCluster = 1e-6
	// Trim is z_t: stage 2 trims the outermost linear bins of the window one
	// by one while each one's noisy count stays below z_t·σ₂ — a count the
	// noise cannot tell from none — and never through the mode.
	Trim = 2.0
	// TrimAlone is z_a: an outer bin whose inner neighbour is below z_t·σ₂
	// stops the trimming only when its own noisy count reaches z_a·σ₂. Of
	// the up to 15 empty bins stage 2 trims through at one end, one stops it
	// with probability ≤ 15·(Φ̄(z_a) + Φ̄(z_t)²) ≈ 2.8 % (with the former
	// rule, any bin reaching z_t·σ₂, about 30 %, and the range then kept
	// most of a window 16 to 64 times wider than its bulk).
	TrimAlone = 3.0
	// Beyond is z_b: stage 2 also counts the rows below and above its
	// window, and an end moves out (to where stage 1's noisy counts put the
	// most rows, at most three magnitude bins further) when that count
	// reaches ⌈z_b·σ₂ + ½⌉ — which no row at all reaches with probability
	// Φ̄(z_b) ≈ 3.2·10⁻⁵. It catches a zero mode's side the noise hid in
	// stage 1 (rain: mostly zeros and a long tail).
	Beyond = 4.0
	// Margin is the number of linear bins the bounds extend beyond what stage
	// 2 kept, for the rows of a thin tail.
	Margin = 2
	// MarginEmpty is z_m: an end of stage 2's first level whose first
	// trimmed bin (the one just past it) has a noisy count below z_m·σ₂
	// looks empty, and its margin is Margin − 1 bins — a tail thin enough to
	// leave that bin at the noise's level seldom reaches two bins further,
	// while the second bin doubles the width of a column narrow beside its
	// window (an offset column at 200–250 rows: 6.0 → 4.8 times its spread,
	// clamping unchanged; docs/study/ranges-development.md).
	MarginEmpty = 0.5
	// TwoStages is R: stage 2 is drawn only when a count holding every row
	// stands R noise scales clear of zero at the whole budget,
	// n·s/√(2d) ≥ R. Below it, splitting the budget would leave stage 1 too
	// noisy to find the mode, and stage 2 too noisy to trim anything.
	TwoStages = 12.0
	// GuessLo and GuessHi bound the public window of likely magnitudes,
	// 4^GuessLo ≤ |x| < 4^GuessHi (about 0.001 to 16,384): a column whose
	// mode the noise hides is guessed there (the plausible window,
	// plausibleBins, is kept for modes that clear τ_m). The plausible window
	// has 19 pairs a side, most holding no row of a typical column, and one
	// of them outscored a column spread over three bins in about a fifth of
	// the draws at 100 rows; the likely window has 11. Its low end holds a
	// table's small measurements (breast cancer's error columns,
	// 0.001–0.03).
	GuessLo = -5
	GuessHi = 7
	// SignMargin is m_s: a guess is negative only when the negative side's
	// best pair outscores the positive side's by m_s·σ₁ (one noise scale of
	// the difference of two pair sums, σ₁·2). Columns people bring are
	// mostly non-negative, and a negative guess for one of them clamps
	// every row.
	SignMargin = 2.0
	// ZeroOne is z_01: the zero bin and the unit bin [1, 4) are a candidate
	// pair (a 0/1 or small-integer column, whose two bins are ten bins
	// apart) when their noisy counts hold the whole table up to z_01 noise
	// scales of the sum, c₀ + c₁ ≥ n − z_01·σ₁√2, and outscore every pair of
	// neighbours.
	ZeroOne = 1.25
	// Tie is z_tie: a guess (a column whose mode the noise hides) reaches up
	// to the highest pair, at most TieBins bins above its own, whose sum is
	// within z_tie·2σ₁ of the guess's — a column spread thin over several
	// bins has several pairs the noise cannot order, and the range takes
	// the wide one.
	Tie     = 0.5
	TieBins = 2
	// Hidden is z_h: with one stage, a guess whose run and zero bin leave
	// u = n − Σ c̃ ≥ z_h·σ₁√k rows unexplained (k the bins summed) reaches one
	// bin further out. HiddenZero is the same test for a zero mode with no
	// other bin trusted, u = n − c₀ − c₁ ≥ z_0·σ₁√2: its rows past the unit
	// bin reach the top of stage 1's largest pair past it (rain: mostly dry
	// days, the wet ones spread over four bins).
	Hidden     = 1.0
	HiddenZero = 1.25
	// FarMargin is z_f: a mode (or pair) beyond the plausible window is the
	// mode only when it reaches the cluster threshold or outscores the
	// window's best bin (pair) by z_f noise scales of the difference, σ₁√2
	// (2σ₁): a false one beats a column's own bins that rarely, and a
	// column that lies out there leaves only noise in the window.
	FarMargin = 1.0
	// MarginLevel is z_m: with one stage, a run's outer edge moves out by a
	// factor √2 when the next bin's noisy count reaches ⌈z_m·σ₁ + ½⌉ (an
	// empty bin does with probability Φ̄(z_m) ≈ ½) and by a whole bin when
	// it reaches ⌈σ₁ + ½⌉.
	MarginLevel = 0.0
	// LevelsFrom is R_t: from n·s/√(2d) ≥ R_t stage 2 is a tree of
	// linear histograms (tree.go; package doc, "Stage 2"), three levels
	// deep, and from Levels4From four; below it one level, 0.6.0's stage 2.
	// Below R_t the finer levels' noise would leave their bins below it
	// (and take budget from stage 1 or the first level, which small tables
	// need whole: at 250 rows and 9 columns the tree clamped 3.2 % of
	// anes96 where one level clamps 2.1 %).
	LevelsFrom  = 20.0
	Levels4From = 40.0
	// TreeShare1 is stage 1's share of s² when stage 2 is a tree: at the n a
	// tree needs, stage 1's mode stands many noise scales clear, and the
	// rest pays for the finer levels.
	TreeShare1 = 0.3
	// Branch is B: each bin of a level of the tree is cut into B equal bins
	// at the next (a power of 2, so that a value's bins nest exactly).
	Branch = 4
	// MaxLevels bounds Options.Levels: Bins2·B^(MaxLevels−1) bins at the
	// finest level.
	MaxLevels = 6
	// Level1Share is ω with four levels: the first level gets the share ω
	// of stage 2's μ₂² and the finer levels share the rest equally. With
	// three levels the first keeps half of s², as 0.6.0's stage 2 did
	// (ω = 0.5/(1 − TreeShare1)), and stage 1's share pays for the finer.
	Level1Share = 0.5
	// TreeTrim is z_t for the first level of a tree.
	TreeTrim = 2.5
	// TreeTrimAlone is z_a for the first level of a tree: a bin whose
	// inner neighbour is below z_t·σ₂ stops the trim when its count reaches
	// z_a·σ₂. TrimAlone's 3 let one of the 15 empty bins of a narrow
	// column's window stop it in about 2 % of the draws (a range of 1955–2005
	// at [256, 16384]: 300 times its spread), which the tree cannot undo.
	TreeTrimAlone = 4.0
	// Empty is z_e: the descent passes a finer bin whose noisy count is
	// below ⌈z_e·σ_f + ½⌉ as empty (an empty bin reaches it with probability
	// Φ̄(2) ≈ 2.3 %; Hold keeps such a bin beside a full one passed).
	Empty = 2.0
	// Span is J: the descent zooms while the kept run spans fewer than J
	// bins of its level, and stops at the first level where it spans J or
	// more: there the bins are about a J-th of the data's extent or finer,
	// and finer ones would see less of a thin tail.
	Span = 3
	// Ambiguous is z_c: where the descent stops, an end is the outermost
	// bin inside its former end bin whose count reaches ⌈z_c·σ_f + ½⌉ — a
	// bin that may hold rows is kept (an empty one is, with probability
	// Φ̄(1) ≈ 16 %, at the cost of one bin of that level).
	Ambiguous = 1.0
	// Hold is h: a finer bin holding at least h times its parent bin's noisy
	// count is not passed as empty, whatever σ_f (a column's tail bin at
	// n = 1000 and 8 columns holds 150 rows, 3.4σ_f, and passed as empty in
	// a third of the draws at z_e alone, clamping 15 %); a parent worth
	// zooming into holds many rows, so an empty bin reaches h of it rarely.
	Hold = 0.15
	// Placed is z_u: the tree refines the ends only when the first level's
	// kept run and the counts past the window leave fewer than z_u noise
	// scales of the table's n rows unplaced (placed).
	Placed = 2.5
	// MarginFine is the number of bins of an end's own level the bounds
	// extend beyond the bin where the descent stopped.
	MarginFine = 2
	// RefineShare is the share of a bin's noisy count its children reaching
	// TrimFine must hold for a quartile to go on down the tree into them
	// (tree.refine): below it the finer counts have lost the bin's rows in
	// the noise. Chosen on the development half among 0, ½ and ¾: at 0 a
	// quartile followed a child of noise alone now and then (seattle-weather
	// at 250 rows 0.98 → 0.97 of column-draws within a quarter of the
	// spread), at ¾ it stopped early (diabetes's worst column 0.66 → 0.42).
	RefineShare = 0.5
	// MaxCells bounds n·d, like a CSV's (dataset.MaxCells).
	MaxCells = 5_000_000
	// MaxColumns bounds d.
	MaxColumns = 1000
)

// Plan is the public description of one release: every number in it is a
// function of n, d, ε, δ and the constants above, never of the data. Only
// NewPlan and NewPlanWith make one: Describe refuses a plan whose fields are
// not those NewPlanWith computes from its n, d, ε, δ and options (a plan with
// no noise would release the data's exact range).
type Plan struct {
	N       int     `json:"n"`
	D       int     `json:"d"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// GDP is s = privacy.Calibrate(ε, δ): the release is s-GDP.
	GDP float64 `json:"gdp"`
	// GDP1, GDP2 are the stages' μ₁ = s·√Share1, μ₂ = s·√(1 − Share1).
	GDP1 float64 `json:"gdpMagnitude"`
	GDP2 float64 `json:"gdpLinear"`
	// Stages is 2, or 1 when n·s/√(2d) < TwoStages (then μ₁ = s, μ₂ = 0).
	Stages int `json:"stages"`
	// Sigma1 = √(2d)/μ₁ and Sigma2 = √(2d)/μ₂ are the noise scales of the
	// counts (Sigma2 = 0 with one stage).
	Sigma1 float64 `json:"sigmaMagnitude"`
	Sigma2 float64 `json:"sigmaLinear"`
	// ModeThreshold is τ_m = ⌈σ₁·Φ̄⁻¹(FalseMode/M) + ½⌉ (Plan.MinRows).
	ModeThreshold float64 `json:"thresholdMagnitude"`
	// ClusterThreshold is τ_c = ⌈σ₁·Φ̄⁻¹(FalseCluster/M) + ½⌉.
	ClusterThreshold float64 `json:"thresholdCluster"`
	// GrowThreshold is τ_g = ⌈Grow·σ₁ + ½⌉.
	GrowThreshold float64 `json:"thresholdGrow"`
	// TrimLevel is z_t·σ₂: stage 2 trims an outer bin whose noisy count is
	// below it.
	TrimLevel float64 `json:"thresholdLinear"`
	// Levels is the number of levels of stage 2's tree (1: the Bins2 bins
	// alone, as 0.6.0; 0 with one stage), Branch its branching, SigmaFine
	// the noise of the levels below the first, TrimFine = z_t·SigmaFine
	// their trim level and MarginFine the bins of margin there.
	Levels     int     `json:"levelsLinear"`
	Branch     int     `json:"branchLinear,omitempty"`
	SigmaFine  float64 `json:"sigmaFine,omitempty"`
	TrimFine   float64 `json:"thresholdFine,omitempty"`
	MarginFine int     `json:"marginFine,omitempty"`
	// Empty, Hold, Span, Ambiguous and Placed are the descent's z_e, h, J,
	// z_c and z_u (public constants, or the study's Options).
	Placed    float64 `json:"-"`
	Hold      float64 `json:"-"`
	Empty     float64 `json:"-"`
	Span      int     `json:"-"`
	Ambiguous float64 `json:"-"`
	// MarginEmpty is z_m·σ₂: an end whose first trimmed bin counts below it
	// takes Margin − 1 bins of margin.
	MarginEmpty float64 `json:"-"`
	Bins1       int     `json:"binsMagnitude"`
	Bins2       int     `json:"binsLinear"`
	// Share1 is the fraction of s² spent on stage 1; Margin the linear bins
	// added beyond what stage 2 kept.
	Share1 float64 `json:"shareMagnitude"`
	Margin int     `json:"margin"`
	// Labels says the release also counts each column's text labels
	// (DescribeCells, issue 42). Then half of δ pays for the curve
	// (s = Calibrate(ε, δ/2)) and the other half for TV = δ/(2(1 + e^ε)), the
	// total-variation slack of releasing only labels that occur: a label
	// survives LabelThreshold with probability ≤ TV/d when it occurs in at
	// most one row (categories.go).
	Labels         bool    `json:"labels,omitempty"`
	LabelThreshold float64 `json:"thresholdLabel,omitempty"`
	TV             float64 `json:"tv,omitempty"`

	opt Options // what NewPlanWith was given: Describe rebuilds the plan from it
}

// MinRows is the stated floor of the release: below τ_m rows no column's mode
// can reach the mode threshold, so every column is Resolution "none" (its
// range is still finite: the widest the counts allow). At ε = 1, δ = 10⁻⁵ it
// is 22 rows for one column, 48 for 5 and 68 for 10.
func (p Plan) MinRows() int { return int(p.ModeThreshold) }

// Options overrides the public constants, for the study that chose them
// (wasm/tools/ranges, -ranges); a zero field keeps the default.
type Options struct {
	Share1 float64 // in (0, 1); default Share1
	Bins2  int     // in [2, 4096]; default Bins2
	Margin int     // ≥ 0; default Margin (set NoMargin for 0)
	Grow   float64 // in [0.5, 6]; default Grow
	Trim   float64 // in [0, 6]; default Trim (set NoTrim for 0)
	// Levels is stage 2's number of levels, in [1, MaxLevels]; default
	// from n·s/√(2d) (treeFor). Levels 1 is 0.6.0's stage 2 (and Share1's
	// split); more levels take TreeShare1 and Level1Share.
	Levels int
	// Level1Share in (0, 1); default from treeFor.
	Level1Share float64
	// MarginFine ≥ 0; default MarginFine (set NoMargin for 0).
	MarginFine int
	// MarginEmpty in (0, 6]; default MarginEmpty (z_m).
	MarginEmpty float64
	// Empty, Ambiguous in (0, 6), Span in [1, 64], Placed in (0, 20) and
	// Hold in (0, 1]: the descent's z_e, z_c, J, z_u and h; default Empty,
	// Ambiguous, Span, Placed, Hold.
	Empty, Ambiguous float64
	Span             int
	Placed, Hold     float64
	// Before52 is the mechanism of 0.6.0, for the study's before and after
	// (issue 52): one level, Share1's split, Margin bins past every end, and
	// an end at 0 whose rows past it are counted moves to the smallest
	// magnitudes past 0.
	Before52 bool
	// Labels makes a plan for DescribeCells: text labels counted too.
	Labels bool
	// MaxTV, if > 0, caps the label part's total variation below
	// δ/(2(1 + e^ε)): a ledger's proportional share (PlanCellsFor).
	MaxTV float64
}

// NoMargin is Options.Margin for no margin at all; NoTrim is Options.Trim
// for a stage 2 that trims nothing.
const (
	NoMargin = -1
	NoTrim   = -1
)

// NewPlan validates n, d, ε and δ and returns the plan with the default
// constants. Errors name "x", "epsilon" or "delta"; δ must be below 1/n
// (checks.DeltaForN).
func NewPlan(n, d int, eps, delta float64) (Plan, error) {
	return NewPlanWith(n, d, eps, delta, Options{})
}

// NewPlanWith is NewPlan with some constants overridden (Options).
func NewPlanWith(n, d int, eps, delta float64, o Options) (Plan, error) {
	if n < 1 {
		return Plan{}, checks.Errorf("x", "a non-empty array of rows")
	}
	if d < 1 || d > MaxColumns {
		return Plan{}, &checks.Error{Field: "x[0]", Rule: fmt.Sprintf("a row of 1 to %d columns", MaxColumns), Got: fmt.Sprintf("%d columns", d)}
	}
	if n > MaxCells/d {
		return Plan{}, checks.Errorf("x", "at most %d numbers in all (n·d), got %d·%d", MaxCells, n, d)
	}
	if err := checks.First(checks.Epsilon("epsilon", eps), checks.DeltaForN("delta", delta, n)); err != nil {
		return Plan{}, err
	}
	curveDelta := delta
	if o.Labels {
		curveDelta = delta / 2
	}
	s, err := privacy.Calibrate(eps, curveDelta)
	if err != nil {
		return Plan{}, err
	}
	share, bins2, margin, grow, trim := Share1, Bins2, Margin, Grow, Trim
	if o.Share1 != 0 {
		if err := checks.InRange("options.share1", o.Share1, 0.01, 0.99); err != nil {
			return Plan{}, err
		}
		share = o.Share1
	}
	if o.Bins2 != 0 {
		if err := checks.IntRange("options.bins2", o.Bins2, 2, 4096); err != nil {
			return Plan{}, err
		}
		bins2 = o.Bins2
	}
	switch {
	case o.Margin == NoMargin:
		margin = 0
	case o.Margin != 0:
		if err := checks.IntRange("options.margin", o.Margin, 0, 64); err != nil {
			return Plan{}, err
		}
		margin = o.Margin
	}
	if o.Grow != 0 {
		if err := checks.InRange("options.grow", o.Grow, 0.5, 6); err != nil {
			return Plan{}, err
		}
		grow = o.Grow
	}
	switch {
	case o.Trim == NoTrim:
		trim = 0
	case o.Trim != 0:
		if err := checks.InRange("options.trim", o.Trim, 0, 6); err != nil {
			return Plan{}, err
		}
		trim = o.Trim
	}
	marginFine := MarginFine
	switch {
	case o.MarginFine == NoMargin:
		marginFine = 0
	case o.MarginFine != 0:
		if err := checks.IntRange("options.marginFine", o.MarginFine, 0, 64); err != nil {
			return Plan{}, err
		}
		marginFine = o.MarginFine
	}
	if err := checks.First(optIntRange("options.levels", o.Levels, 1, MaxLevels), optRange("options.level1Share", o.Level1Share, 0.01, 0.99),
		optRange("options.empty", o.Empty, 0.01, 6), optRange("options.ambiguous", o.Ambiguous, 0.01, 6), optIntRange("options.span", o.Span, 1, 64),
		optRange("options.placed", o.Placed, 0.01, 20), optRange("options.hold", o.Hold, 0.01, 1), optRange("options.marginEmpty", o.MarginEmpty, 0.01, 6)); err != nil {
		return Plan{}, err
	}
	sens := math.Sqrt(2 * float64(d))
	r := float64(n) * s / sens
	stages := 2
	levels, share1, omega := treeFor(r)
	if r < TwoStages {
		stages, levels, share1 = 1, 0, 1
	}
	switch {
	case stages == 1:
	case o.Before52 || o.Levels == 1:
		levels, share1, omega = 1, Share1, 1
	case o.Levels > 1:
		levels, share1, omega = o.Levels, TreeShare1, Level1Share
	}
	if o.Share1 != 0 && stages == 2 {
		share1 = share
	}
	if o.Level1Share != 0 && levels > 1 {
		omega = o.Level1Share
	}
	p := Plan{N: n, D: d, Epsilon: eps, Delta: delta, GDP: s, Bins1: Bins1, Bins2: bins2, Share1: share1, Margin: margin, Stages: stages, Levels: levels, opt: o}
	p.GDP1, p.GDP2 = s*math.Sqrt(share1), s*math.Sqrt(1-share1)
	p.Sigma1 = sens / p.GDP1
	switch {
	case levels == 1:
		p.Sigma2 = sens / p.GDP2
	case levels > 1:
		// the first level gets ω of μ₂², each finer level (1 − ω)/(Levels − 1)
		p.Sigma2 = sens / (p.GDP2 * math.Sqrt(omega))
		p.SigmaFine = sens / (p.GDP2 * math.Sqrt((1-omega)/float64(levels-1)))
		p.Branch, p.MarginFine = Branch, marginFine
		p.TrimFine = trim * p.SigmaFine
		p.Empty, p.Ambiguous, p.Span, p.Placed, p.Hold = Empty, Ambiguous, Span, Placed, Hold
		if o.Placed != 0 {
			p.Placed = o.Placed
		}
		if o.Hold != 0 {
			p.Hold = o.Hold
		}
		if o.Empty != 0 {
			p.Empty = o.Empty
		}
		if o.Ambiguous != 0 {
			p.Ambiguous = o.Ambiguous
		}
		if o.Span != 0 {
			p.Span = o.Span
		}
	}
	p.ModeThreshold = roundedThreshold(p.Sigma1, privacy.PhiInvUpper(FalseMode/sideBins))
	p.GrowThreshold = roundedThreshold(p.Sigma1, grow)
	p.ClusterThreshold = roundedThreshold(p.Sigma1, privacy.PhiInvUpper(FalseCluster/sideBins))
	p.TrimLevel = trim * p.Sigma2
	p.MarginEmpty = MarginEmpty * p.Sigma2
	switch {
	case o.Before52:
		p.MarginEmpty = math.Inf(-1) // every end Margin bins, as 0.6.0
	case o.MarginEmpty != 0:
		p.MarginEmpty = o.MarginEmpty * p.Sigma2
	}
	if stages == 2 && levels == 1 {
		// one level: z_u for the margin's test of rows unplaced (marginPast)
		p.Placed = Placed
		if o.Placed != 0 {
			p.Placed = o.Placed
		}
	}
	if levels > 1 && o.Trim == 0 {
		p.TrimLevel = TreeTrim * p.Sigma2
	}
	if o.Labels {
		p.Labels = true
		p.TV = delta / (2 * (1 + math.Exp(eps)))
		if o.MaxTV > 0 {
			p.TV = math.Min(p.TV, o.MaxTV)
		}
		p.LabelThreshold = math.Ceil(p.Sigma1*privacy.PhiInvUpper(p.TV/float64(d)) + 1.5)
	}
	return p, nil
}

// optRange and optIntRange check an option that is set (not zero).
func optRange(field string, v, lo, hi float64) error {
	if v == 0 {
		return nil
	}
	return checks.InRange(field, v, lo, hi)
}

func optIntRange(field string, v, lo, hi int) error {
	if v == 0 {
		return nil
	}
	return checks.IntRange(field, v, lo, hi)
}

// sigmaPast is the noise of stage 2's count of the rows below (or above)
// the window: σ₂ with one level; with a tree, the inverse-variance mean of
// the levels' counts (tree.past), 1/√(1/σ₂² + (Levels − 1)/σ_f²) = √(2d)/μ₂.
func (p Plan) sigmaPast() float64 {
	if p.Levels < 2 {
		return p.Sigma2
	}
	v := (p.Sigma2 / p.SigmaFine) * (p.Sigma2 / p.SigmaFine)
	return p.Sigma2 / math.Sqrt(1+float64(p.Levels-1)*v)
}

// treeFor is stage 2's tree at r = n·s/√(2d) (public): its levels, stage
// 1's share of s² and the first level's share of stage 2's. Below
// LevelsFrom one level and 0.6.0's split (Share1); then three levels, the
// fine ones paid by stage 1 (the first level keeps half of s², as 0.6.0's
// stage 2); from Levels4From four, the fine levels paid by both.
func treeFor(r float64) (levels int, share1, omega float64) {
	switch {
	case r < LevelsFrom:
		return 1, Share1, 1
	case r < Levels4From:
		return 3, TreeShare1, 0.5 / (1 - TreeShare1)
	}
	return 4, TreeShare1, Level1Share
}

// roundedThreshold is τ = ⌈σz + ½⌉: an empty bin's noisy count round(σZ)
// reaches it only when σZ ≥ τ − ½ ≥ σz, so with probability ≤ Φ̄(z) (the
// rounding moves the count by up to ½, issue 41 item 4).
func roundedThreshold(sigma, z float64) float64 { return math.Ceil(sigma*z + 0.5) }

// valid reports whether p is a plan NewPlanWith made: the same fields from
// the same n, d, ε, δ and options.
func (p Plan) valid() bool {
	q, err := NewPlanWith(p.N, p.D, p.Epsilon, p.Delta, p.opt)
	return err == nil && q == p
}

// Charge is what the release costs a ledger: s-GDP, with its own (ε, δ) for
// basic composition; no total-variation slack for numbers (the Gaussian
// mechanism is exact), TV for a release that counts labels.
func (p Plan) Charge() privacy.Release {
	label := "column ranges (describe)"
	if p.Labels {
		label = "column ranges and categories (describe)"
	}
	return privacy.Release{Label: label, GDP: p.GDP, TV: p.TV, Epsilon: p.Epsilon, Delta: p.Delta}
}
