// Package stats holds the few statistical intervals that dpsample reports
// beside measured rates (the lower bound's soundness and tracing rates, the
// privacy audits), and the one-sample Kolmogorov–Smirnov test that the
// packages' law tests share (ks.go). One implementation, tested once, used
// everywhere.
package stats

import "gonum.org/v1/gonum/mathext"

// ClopperPearson returns the exact (Clopper–Pearson) two-sided 1−α
// confidence interval for a binomial proportion with x successes in n trials:
// lo = Beta(x, n−x+1).Quantile(α/2), hi = Beta(x+1, n−x).Quantile(1−α/2),
// with lo = 0 when x = 0 and hi = 1 when x = n. The Beta quantile is
// gonum's inverse regularized incomplete beta function (mathext), which is
// what distuv.Beta.Quantile calls; importing mathext directly keeps distuv's
// matrix dependencies (mat, lapack) out of the WebAssembly binary.
func ClopperPearson(x, n int, alpha float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	lo, hi = 0, 1
	if x > 0 {
		lo = mathext.InvRegIncBeta(float64(x), float64(n-x+1), alpha/2)
	}
	if x < n {
		hi = mathext.InvRegIncBeta(float64(x+1), float64(n-x), 1-alpha/2)
	}
	return lo, hi
}
