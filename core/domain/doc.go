// Package domain finds the public domain of each numeric column privately: a
// lower and an upper bound for every column of a table (and, from the same
// draw, the median and quartiles), released under Gaussian differential
// privacy so that a table's ledger (privacy.Ledger) can charge them exactly.
//
// # Why
//
// Every value of a record must lie in a declared public domain before the
// maths sees it (features are scaled by their ranges, targets clamped). A
// range read off the data — its min and max — reveals the extreme rows, so the
// page asks the owner to type ranges; most people do not know an instrument's
// limits for every column. The answer of the mature DP libraries is to spend a
// little budget on the bounds: Google's ApproxBounds (a log-scale histogram of
// magnitudes with a noise threshold), Tumult Analytics' get_bounds, OpenDP's
// private quantiles. This package is that answer, built so that the noise is
// Gaussian by design and composes exactly in the ledger's GDP filter.
//
// # The mechanism (one or two Gaussian histogram stages per column; issues 40 and 52)
//
// Stage 1, magnitude. Every finite value x falls in one of Bins1 = 2M + 1
// signed magnitude bins of two binary orders each: |x| ∈ [4^k, 4^(k+1)) for
// MinExp ≤ k ≤ MaxExp, an overflow bin |x| ≥ 4^(MaxExp+1) (up to
// math.MaxFloat64) on each side, and a zero bin |x| < 4^MinExp. The bins
// cover every float64 exactly (math.Frexp, no arithmetic on the value), so a
// value of 1e300 or −1e−30 is counted like any other: floating point never
// absorbs one record into a sum. Each count gets integer noise round(σ₁·Z),
// Z ~ N(0, 1) drawn by rng.Normal53. Then, from the noisy counts alone:
//
//   - the mode is the largest bin; it is "found" when it reaches
//     τ_m = ⌈σ₁·Φ̄⁻¹(β/M) + ½⌉ (β = FalseMode). n < τ_m (Plan.MinRows) is
//     the stated floor below which no single bin can be found. A mode
//     beyond the public window of plausible magnitudes |x| < 4^10 ≈ 10⁶
//     must reach the cluster threshold τ_c (below) or outscore the
//     window's largest bin by FarMargin·σ₁√2, else the mode is the
//     window's largest bin: one of the 24 bins out there reaches τ_m by
//     noise alone about once in a thousand column-draws, and its range is
//     then orders of magnitude off, while a column that lies out there (a
//     country's population) leaves only noise in the window;
//   - else the coarse fallback (small tables): the same noisy counts summed
//     over every pair of neighbouring bins on one side (a factor 16), whose
//     noise is σ₁√2 while a column spread over two bins counts every row
//     once. The largest pair (beyond the plausible window only at τ_c's
//     strength or FarMargin·2σ₁ above the window's best) is the mode's run
//     (its larger bin the mode), "found" when its sum reaches τ_16 = ⌈σ₁√2·Φ̄⁻¹(β/(2M)) + 1⌉ (the sum of two rounded
//     noises is within 1 of σ₁(Z₁ + Z₂)). When it does not, the column is a
//     guess, labelled Resolution "none" — its range is still finite — and
//     the pair is the largest within the public window of likely
//     magnitudes 4^GuessLo ≤ |x| < 4^GuessHi (about 0.001 to 16,384), on
//     the positive side unless the negative side's best pair outscores it
//     by SignMargin·σ₁ (columns people bring are mostly non-negative, and a
//     negative guess for one of them clamps every row);
//   - the zero bin and the unit bin [1, 4) are a candidate too, ten bins
//     apart: when their noisy counts outscore every pair and hold the
//     table, c₀ + c₁ ≥ n − ZeroOne·σ₁√2 (n is public), they are the run
//     (a 0/1 or small-integer column) and zero is in the range; else a
//     guess keeps the zero bin as its mode when it stands as many noise
//     scales clear as the pair, c₀√2 ≥ the pair's sum;
//   - a guess reaches up to the highest pair at most TieBins bins further
//     out whose sum is within Tie·2σ₁ of its own (a column spread thin over
//     several bins has pairs the noise cannot order; the range takes the
//     wide one);
//   - a side of zero is trusted when it holds the mode or its own largest bin
//     reaches τ_c = ⌈σ₁·Φ̄⁻¹(β_c/M) + ½⌉ (β_c = FalseCluster = 10⁻⁶: a side
//     with no value is trusted with probability ≤ β_c), and every bin of a
//     trusted side that reaches τ_c joins the mode's run (a cluster apart);
//   - on a trusted side the mode's run grows through neighbours whose noisy
//     count reaches τ_g = ⌈Grow·σ₁ + ½⌉ — a false neighbour (probability
//     Φ̄(Grow) a side) widens the range by one bin, a factor 4, never by
//     orders of magnitude. With two stages the window adds one more bin
//     outwards, which stage 2 trims. With one stage nothing would trim it,
//     and half a bin on every column cost more width than the thin tails it
//     kept: the edge moves out by a factor √2 when the bin past the run has
//     a positive noisy count (≥ ⌈MarginLevel·σ₁ + ½⌉; an empty bin does
//     half the time) and by a whole bin when that count reaches ⌈σ₁ + ½⌉;
//   - with one stage, rows the release has not placed move a guess's end:
//     n is public, so u = n − Σ c̃ over the guess's run (from the unit bin
//     out) and the zero bin, whose noise is σ₁√k for k counts, is the
//     number of rows elsewhere; when u ≥ Hidden·σ₁√k the run reaches one
//     bin further out. For a zero mode with no other bin trusted the same
//     test, u = n − c₀ − c₁ ≥ HiddenZero·σ₁√2, puts the range's top at the
//     top of the largest pair of the beyondBins bins from the unit bin
//     (rain: mostly dry days, the wet ones spread over four bins none of
//     which the noise lets through);
//   - zero is in the range when the zero bin is the mode or reaches τ_g, or
//     when the run reaches down to magnitude 1 or below (0/1 and small-integer
//     columns: a level at 0 held by 10 % of 100 rows is below the noise, and
//     zero is a value, not a tiny magnitude); such an end is pinned at 0.
//     Otherwise the inner end is one bin below the run (an offset column such
//     as a year, which stage 2 narrows) with two stages; with one stage it is
//     pinned at 0 too, since one bin inwards is already within a fifteenth of
//     the width and nothing would trim it. A column whose only trusted bin is
//     zero gets the unit scale [0, 1] (or [−1, 0]), pinned at both ends.
//
// Stage 2, linear. When the plan has two stages the window [L, H] of stage 1
// is cut into Bins2 equal bins, with one more count for the values below L
// and one for those above H; each value is counted in exactly one of these
// Bins2 + 2 with noise round(σ₂·Z). The outermost bins of an end that is
// not pinned are trimmed one by one, never through the mode, until a bin
// whose noisy count reaches z_t·σ₂ (Trim) has an inner neighbour that does
// too, or reaches z_a·σ₂ alone (TrimAlone): of the up to 15 empty bins at an
// end, one stops the trimming with probability ≤ 15·(Φ̄(z_a) + Φ̄(z_t)²) ≈
// 2.8 % (a single bin at z_t·σ₂, the former rule: about 30 %, and then the
// range kept most of a window 16–64 times its bulk). The bounds are the
// edges of what is kept, widened by Margin bins — by Margin − 1 at an end
// whose first trimmed bin, the one just past it, has a noisy count below
// z_m·σ₂ (MarginEmpty = ½) while the kept run places the table's rows
// (placed, below): the second bin is for a thin tail, and a tail that
// leaves the bin next to the data at the noise's level and every row
// accounted for seldom reaches two bins out, while that bin doubled the
// range of a column narrow beside its window (heights at 250 rows and 8
// columns: 6.9 times their spread always, 4.1–6.9 now). When the count of the
// values past an end reaches ⌈z_b·σ_past + ½⌉ (Beyond; σ_past that count's
// noise; no value there reaches it with probability Φ̄(z_b) ≈ 3·10⁻⁵), that
// end moves out to the outer edge, one bin further, of stage 1's largest
// pair among the three magnitude bins past it: a zero mode whose side stage
// 1 could not trust (rain: mostly zeros, the rest spread over four bins none
// of which reaches τ_c) or a tail too thin to grow into; an end at 0 moves
// to the mirror of the other end (a standardised score whose negative half
// stage 1 did not trust; the magnitude bins past 0 are the smallest, where
// no such side lies). A guess's outer end is never trimmed: a column the
// noise hid in stage 1 is spread thin, and stage 2's linear bins hold a few
// of its rows each (a town's population at 250 rows: about a quarter of its
// values clamped when trimmed, 17–19 % kept). Resolution "linear" says stage
// 2 placed an end (trimmed something, or refined it down the tree),
// "magnitude" that it kept the whole window.
//
// The tree (issue 52). Sixteen bins of a window that stage 1 can only place
// to a factor of 4 are too coarse for a column far from zero with a narrow
// spread: years 1955–2005 fall in one bin of [256, 16384], and a range of
// that bin with Margin bins a side is 90 times their spread. So from
// r = n·s/√(2d) ≥ R_t (LevelsFrom = 20; public) stage 2 is a tree of linear
// histograms of the same window: level 0 is the Bins2 bins above, and each
// level k ≥ 1 cuts every bin of level k − 1 into B = Branch = 4, Bins2·4^k
// bins in all, with its own counts below and above the window, every count
// with noise round(σ_f·Z): three levels (bins 63 wide for that window's
// 16128), four from r ≥ 40 (bins 15.75 wide). Stage 1 then takes
// TreeShare1 = 0.3 of s²; with three levels level 0 keeps half of s², as
// 0.6.0's stage 2 did, and the two finer levels share the rest; with four,
// level 0 gets ω = Level1Share = 0.5 of stage 2's μ₂² and the three finer
// levels share the other half. Post-processing of the noisy counts:
//
//   - the first level is trimmed as above, at z_t = TreeTrim = 2.5 and
//     z_a = TreeTrimAlone = 4 (TrimAlone's 3 let one of the empty bins above
//     a narrow column stop the trim in about 2 % of the draws, and Trim's 2
//     kept a bin of noise beside it in 2.3 % an end: the range then reaches
//     thousands past the data, which the finer levels cannot undo); the
//     count of the rows past an end is the inverse-variance mean of every
//     level's count (its noise σ_past = √(2d)/μ₂, the whole stage's, as one
//     count would have);
//   - the ends descend only when the first level's kept run and the counts
//     past the window place the table's rows: n is public, and u = n − Σ c̃
//     over the run and the two counts past the window, whose noise is
//     √(k·σ₂² + 2σ_past²) for a run of k bins, stays below Placed = 2.5
//     noise scales; rows left unplaced lie in the trimmed bins — a thin tail
//     spread below the noise, which the finer levels see even less — and
//     the ends then keep the first level's bins and Margin (90 % of the
//     rows on 100…200 and 10 % spread over 200…1000: more than 5 % clamped
//     in 12 % of the draws instead of 71 %);
//   - zoom: while the run spans fewer than Span = 3 bins of its level (a
//     column narrow beside its window), each end moves into the first of
//     its bin's four bins a level down, from the outside in, that does not
//     look empty — whose noisy count reaches ⌈z_e·σ_f + ½⌉ (Empty = 2) and
//     either TrimAlone·σ_f or Hold = 0.15 of its parent's count (an empty
//     bin beside 1000 rows of years reaches 2σ_f in 2.3 % of the draws, and
//     150 rows almost never) — provided that bin is clear of the noise (it
//     reaches TrimAlone·σ_f, or Trim·σ_f with its inner neighbour's:
//     trimmed's rule). An end that cannot (the first bin that does not look
//     empty is not clear of the noise, or all look empty: rows spread
//     thinner than the finer bins can place) stays on its bin, kept whole;
//     the other end goes on;
//   - at the first level where the run spans Span bins or more, or at the
//     last level, the descent stops, and each end that got there is placed
//     again, conservatively: on the outermost bin inside its former bin
//     whose count reaches ⌈z_c·σ_f + ½⌉ (Ambiguous = 1: a bin that may hold
//     rows is kept; an empty one is, with probability Φ̄(1) ≈ 16 %, at the
//     cost of one bin of that level), else on the bin the zoom chose;
//   - the bounds are an end's bin edge widened by MarginFine = 2 bins of its
//     level (level 0's margin, above, for an end that stayed there). Step is
//     the width of the coarser end's bins (of the refined end's when the
//     other is pinned or kept).
//
// The quartiles are read off the bins of the level the ends were placed on,
// between them, whose noisy count reaches that level's trim level; with a
// tree each then goes on down the finer levels (tree.refine): within the bin
// it fell in, the children whose noisy count reaches TrimFine share the
// bin's rows in proportion to their counts, and the quartile falls in the
// child where their running sum reaches its share, as long as those
// children hold RefineShare = ½ of the bin's own noisy count (a 1/2-coded
// column's q1 read at a unit-wide level is about 1.8; refined, 1.0). The last bin is interpolated linearly. When no bin reaches
// the trim level, or with one stage, the quartiles are stage 1's mode bin's
// edges and middle (a factor 4 of magnitude), and Column.Quartiles says
// "magnitude": no reading of the column's quartiles (within a quarter of the
// spread in 9–36 % of the column-draws at 100–250 rows on five of the six
// development tables), which a page shows as dashes; "linear" otherwise. Column.QuartileStep is the
// width of the bins they were read from (the coarsest of the three): their
// resolution, which is not a bound on their error. Lo ≤ Q1 ≤ Median ≤ Q3 ≤
// Hi always (each is clamped into the range and above the one before).
//
// Whether stage 2 is drawn, and as how many levels, is public: Plan.Stages
// is 2 when a count holding every row would stand TwoStages noise scales
// clear of zero at the whole budget, n·s/√(2d) ≥ TwoStages, and Plan.Levels
// follows r = n·s/√(2d) (treeFor). Below TwoStages (about 150 rows for 5
// columns at ε = 1) splitting the budget would leave stage 1 too noisy to
// find the mode, and stage 2 too noisy to trim anything, so stage 1 takes
// all of it; below R_t the finer levels' bins would hold fewer rows than
// their noise and take budget the small tables of issue 40 need (at 250
// rows and 9 columns a tree clamped 3.2 % of anes96, one level 2.1 %).
// Everything after the noisy counts — modes, the coarse pairs' sums, runs,
// the rows left unplaced (the counts and the public n), pins, trims,
// margins, the moves past an end, the mean of the levels' counts past the
// window, the descent, bounds, quartiles and labels — is post-processing; the windows
// of plausible and likely magnitudes and the sign prior are public
// constants.
//
// # Privacy (exact GDP)
//
// Replacing one row moves, in each of the d columns, one unit of count from
// one bin to another: the vector of all d histograms of a stage — or of one
// level of stage 2's tree — changes by at most √(2d) in ℓ2 norm, whatever the
// values (the bins partition the reals: stage 1's magnitude bins; each
// level's bins of [L, H] and its counts below L and above H too; a level's
// bins are a function of the window and the level alone, and the window is
// fixed before stage 2 counts). A histogram that adds independent N(0, σ²)
// noise to every count is therefore μ-GDP with μ = √(2d)/σ (Dong, Roth & Su
// 2022, Theorem 2.7), and rounding the noisy count to an integer is
// post-processing. Stage 2's levels are drawn together, each with its own
// σ, so stage 2 is the Gaussian mechanism on the vector of all their counts
// scaled by 1/σ_k, whose ℓ2 sensitivity is √(Σ_k 2d/σ_k²) = μ₂ by the
// calibration: σ₂ = √(2d)/(μ₂√ω) for level 0 and σ_f = √(2d)/(μ₂√((1 −
// ω)/(L − 1))) for each of the L − 1 finer ones, so that 2d/σ₂² + (L −
// 1)·2d/σ_f² = μ₂² (one level: ω = 1, σ₂ = √(2d)/μ₂, as 0.6.0). The two
// stages compose adaptively (stage 2's window depends on stage 1's output;
// its levels, shares and noise depend only on n, d, ε, δ) to √(μ₁² + μ₂²)-GDP
// (ibid., Corollary 3.3). Plan fixes s = privacy.Calibrate(ε, δ) — the
// largest s whose curve δ_s(ε) stays ≤ δ — and spends the share Share1 of
// s² on stage 1 (Share1 = 0.5 with one level, TreeShare1 = 0.3 with a tree;
// all of it when the plan has one stage) and the rest on stage 2:
// μ₁ = s·√Share1, μ₂ = s·√(1 − Share1), σ₁ = √(2d)/μ₁. The release is
// exactly s-GDP with no total-variation slack, so a ledger charges it as
// privacy.Release{GDP: s, TV: 0} (Plan.Charge), one release: Charge charges
// it before anything is drawn, and the Charged it returns is drawn once
// (charge.go). The finer levels' counts below and above the window, the
// inverse-variance mean of them all, the descent, the placing of the ends
// and the quartiles read off any level are functions of the released
// noisy counts, n and public constants: post-processing, free.
// A pure ε-DP step (an exponential-mechanism quantile, a Laplace histogram)
// would enter the filter only through μ = −2Φ⁻¹(1/(1 + e^ε)) (Dong–Roth–Su,
// Corollary 2.13's conversion), which wastes most of its budget at the n of a
// small table; Gaussian noise pays exactly what it uses.
//
// Rounding the noise to integers also removes the low-order bits through which
// a floating-point sampler can leak (Mironov 2012): what is released is a
// function of integer noisy counts. Z is drawn by Marsaglia's polar method on
// 53-bit uniforms (rng.Normal53), exact up to that grid — not by Go's
// ziggurat NormFloat64, whose density is off by up to 3·10⁻⁷ relative and
// has a hole just below |x| = 3.4426 (core/rng, TestZigguratLaw). A
// threshold τ on a rounded count is met by an empty bin iff σZ ≥ τ − ½, so
// every threshold is ⌈σz + ½⌉ and the stated rates Φ̄(z) hold exactly.
//
// A Plan is made only by NewPlan or NewPlanWith: Describe rebuilds it from its
// n, d, ε, δ and options and refuses one whose fields differ (a plan with its
// noise turned down would release the exact range labelled private).
//
// # What it is good for
//
// The noise is σ per count whatever n, so the resolution improves with n. At
// n ≈ 100 and a handful of columns one stage finds each column's factor-4
// magnitude and its sign, and the range is the run, a little wider where the
// counts leave room for a tail — 2–9 times the data's spread at the median
// column, clamping 1–5 % of the values; from a few hundred rows stage 2 trims
// the window to a few linear bins, and from n·s/√(2d) ≥ 20 (about 320 rows
// for 9 columns, 180 for 3 at ε = 1) its tree places the ends of a column
// narrow beside its window — years, coordinates, temperatures, scores — to
// bins a few times finer than the column's spread: on the development half
// at full size the median column's range is 1.0–2.0 times its spread and
// the widest column's at most 4.9 (0.6.0: up to 90 for gapminder's years and
// 137 for synthetic ones), clamping 0.2–3.6 % of the values on average. A
// column spread thin over orders of magnitude (a town's population at 100
// rows: about ten rows a bin against σ₁ ≈ 16) is beyond what the counts can
// place: its range is the guess's, and it clamps 15–20 % of its values. A
// range somewhat too wide costs a little signal; one too narrow clamps
// rows, which ruins a model, so every rule above errs on the wide side
// except where the noise forbids it: a tail spread thinner than about 2σ_f
// rows a finer bin beside a narrow bulk, within the first level's bin of the
// bulk, is passed as empty by the zoom and clamped (150 of 1000 rows spread
// over the 120 years below 1990–2020, at 8 columns: 5–12 % of the values
// clamped in 83 % of the draws, where 0.6.0 kept them). docs/PRIVACY.md §9
// states the defaults and what they were measured on.
package domain
