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
// # The mechanism (two Gaussian histograms per column)
//
// Stage 1, magnitude. Every finite value x falls in one of Bins1 = 2M + 1
// signed binary-magnitude bins: |x| ∈ [2^k, 2^(k+1)) for MinExp ≤ k ≤ MaxExp,
// an overflow bin |x| ≥ 2^(MaxExp+1) (up to math.MaxFloat64) on each side, and
// a zero bin |x| < 2^MinExp. The bins cover every float64 exactly (math.Frexp,
// no arithmetic on the value), so a value of 1e300 or −1e−30 is counted like
// any other: floating point never absorbs one record into a sum. Each count
// gets integer noise round(σ₁·Z), Z ~ N(0, 1); the bins whose noisy count
// reaches τ₁ = ⌈σ₁·Φ⁻¹(1 − β₁/Bins1)⌉ survive (an empty bin survives with
// probability ≤ β₁/Bins1, so a column has a false bin — which would widen
// its range by orders of magnitude — with probability ≤ β₁ = 10⁻⁶). The window
// of stage 2 is the span of the survivors, widened by the neighbouring bin on
// a side whose noisy count reaches τ₁/3 (a tail too thin to survive; an empty
// neighbour passes with probability ≈ 1 %).
//
// Stage 2, linear. The window [L, H] is cut into Bins2 = 8 equal bins; each value,
// clamped to the window, is counted in one, with noise round(σ₂·Z) and
// threshold τ₂ = ⌈σ₂·Φ⁻¹(1 − β₂/Bins2)⌉. The bounds are the outer edges of the
// first and last surviving bins, widened by Margin bins; the quartiles are
// read off the surviving noisy counts (linear interpolation within a bin).
// Column.Step is the bins' width: the precision of the description.
// A column with no stage-2 survivor keeps the window as its range and takes
// its quartiles from stage 1 (Resolution "magnitude"); a column with no
// stage-1 survivor at all (too few rows for this budget) is centred on its
// noisiest bin and labelled Resolution "none". All of this is a function of
// the noisy counts and public constants: post-processing.
//
// # Privacy (exact GDP)
//
// Replacing one row moves, in each of the d columns, one unit of count from
// one bin to another: the vector of all d histograms of a stage changes by at
// most √(2d) in ℓ2 norm, whatever the values (the bins partition the reals,
// and stage 2's window is fixed before it counts). A stage that adds
// independent N(0, σ²) noise to every count is therefore μ-GDP with
// μ = √(2d)/σ (Dong, Roth & Su 2022, Theorem 2.7), and rounding the noisy
// count to an integer is post-processing. The two stages compose adaptively
// (stage 2's window depends on stage 1's output) to √(μ₁² + μ₂²)-GDP (ibid.,
// Corollary 3.3). Plan fixes s = privacy.Calibrate(ε, δ) — the largest s whose
// curve δ_s(ε) stays ≤ δ — and spends Share1·s² on stage 1 and the rest on
// stage 2: σ₁ = √(2d)/(s·√Share1), σ₂ = √(2d)/(s·√(1−Share1)). The release
// is exactly s-GDP with no total-variation slack, so a ledger charges it as
// privacy.Release{GDP: s, TV: 0} (Plan.Charge). A pure ε-DP step (an
// exponential-mechanism quantile, a Laplace histogram) would enter the filter
// only through μ = −2Φ⁻¹(1/(1 + e^ε)) (Dong–Roth–Su, Corollary 2.13's
// conversion), which wastes most of its budget at the n of a small table;
// Gaussian noise pays exactly what it uses.
//
// Rounding the noise to integers also removes the low-order bits through which
// a floating-point sampler can leak (Mironov 2012): what is released is a
// function of integer noisy counts. The residual is the distance between Go's
// ziggurat N(0, 1) and the exact Gaussian, of the order of 2⁻⁵³ relative.
//
// # What it is good for
//
// The noise is σ per count whatever n, so the resolution improves with n: a
// stage finds a bin once its count clears about 4–5σ. At n in the hundreds and
// a handful of columns a small budget finds each column's binary order of
// magnitude and, where the values are concentrated, a range a few linear bins
// wide; at n in the thousands the quartiles are within a bin or two. The
// bounds are meant for scaling and clamping (a range somewhat too wide costs a
// little signal, one too narrow clamps a few rows), not as a statistic.
// docs/PRIVACY.md §9 states the defaults and what they were measured on.
package domain
