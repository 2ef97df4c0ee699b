// Package stats holds the statistics of the bench and its experiments
// (wasm/tools/bench, study, ranges, compareload): median, type-7 quantiles,
// mean and sample standard deviation, the percentile bootstrap of a
// statistic and of a ratio of medians, the sign-test interval of a median,
// the two-sample Kolmogorov–Smirnov statistic and its asymptotic p-value,
// and the Mann–Whitney z. Every function is deterministic given its seed:
// the intervals are analysis of released outputs, not private.
package stats
