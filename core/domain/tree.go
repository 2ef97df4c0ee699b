package domain

import (
	"math"
	"math/rand/v2"
)

// tree is stage 2 as a tree of linear histograms over stage 1's window
// (issue 52; package doc, "Stage 2"). Level 0 is the window's Bins2 bins,
// with the counts of the rows below and above it (drawn by describeColumn
// with noise σ₂); level k ≥ 1 cuts each bin of level k − 1 into Branch equal
// bins, Bins2·Branch^k in all, and counts the rows below and above the
// window again, every count with noise round(σ_f·Z). Every level is a
// partition of the reals, so a row is counted once per level.
type tree struct {
	w      window      // level 0's window
	branch int         // B
	fine   [][]float64 // fine[k−1] is level k's noisy counts, k = 1 … Levels − 1
	// under and over are the sums, over levels 1 … Levels − 1, of the
	// noisy counts of the rows below and above the window.
	under, over float64
}

// bins is the number of bins of level k.
func (t tree) bins(k int) int {
	n := t.w.n
	for ; k > 0; k-- {
		n *= t.branch
	}
	return n
}

// edge is the i-th edge of level k (L for i ≤ 0, H for i ≥ bins(k)).
func (t tree) edge(k, i int) float64 {
	return window{L: t.w.L, H: t.w.H, n: t.bins(k)}.edge(i)
}

// width is the width of level k's bins.
func (t tree) width(k int) float64 {
	return 2 * (t.edge(k, 1)/2 - t.edge(k, 0)/2)
}

// drawTree counts col at levels 1 … p.Levels − 1 of the window w and adds
// the noise. A value's bin at level k is its finest bin divided by
// Branch^(Levels−1−k): Branch and Bins2 are powers of 2, so the finest
// index int(t·Bins2·B^(Levels−1)) divided by a power of B is exactly
// int(t·Bins2·B^k), and the levels nest (level 0's bins are w.bin's).
func drawTree(col []float64, w window, p Plan, r *rand.Rand) tree {
	t := tree{w: w, branch: p.Branch}
	if p.Levels < 2 {
		return t
	}
	finest := window{L: w.L, H: w.H, n: t.bins(p.Levels - 1)}
	counts := make([][]int, p.Levels-1)
	for k := range counts {
		counts[k] = make([]int, t.bins(k+1)+2) // the bins, then below and above
	}
	for _, v := range col {
		switch {
		case v < w.L:
			for _, c := range counts {
				c[len(c)-2]++
			}
		case v > w.H:
			for _, c := range counts {
				c[len(c)-1]++
			}
		default:
			i := finest.bin(v)
			for k := p.Levels - 1; k >= 1; k-- {
				counts[k-1][i]++
				i /= t.branch
			}
		}
	}
	t.fine = make([][]float64, len(counts))
	for k, c := range counts {
		all := noisy(c, p.SigmaFine, r)
		nb := len(c) - 2
		t.fine[k] = all[:nb]
		t.under += all[nb]
		t.over += all[nb+1]
	}
	return t
}

// past returns the counts of the rows below and above the window that the
// levels say together: the inverse-variance mean of level 0's (noise σ₂)
// and the finer levels' (σ_f each), whose noise is Plan.sigmaPast — the
// whole stage's budget, as one count would have. Its rounding moves it by
// at most ½, as one count's does. Post-processing.
func (t tree) past(p Plan, under, over float64) (float64, float64) {
	v := (p.Sigma2 / p.SigmaFine) * (p.Sigma2 / p.SigmaFine)
	norm := 1 + float64(p.Levels-1)*v
	return (under + v*t.under) / norm, (over + v*t.over) / norm
}

// end is where descend leaves one end of the range: a bin of a level.
type end struct{ level, bin int }

// descend refines the ends of the kept run [a, b] of level 0 down the tree,
// level by level, while the run spans fewer than Span bins of its level (a
// column narrow beside its window: an offset column). Zoom: at the next
// level an end moves into the first of its bin's Branch bins, from the
// outside in, whose noisy count does not look empty (reaches
// ⌈Empty·σ_f + ½⌉), provided that bin is clear of the noise — its count
// reaches TrimAlone·σ_f, or Trim·σ_f with its inner neighbour's (trimmed's
// rule). An end that cannot (the first bin that does not look empty is not
// clear of the noise, or all look empty: a thin tail the finer bins cannot
// place) stays on its bin, kept whole, at its level; so does an end pinned
// or kept by stage 1. At the first level where the run spans Span bins or
// more, or at the last, the descent stops, and each end that got there is
// placed again, conservatively: on the outermost bin inside its former bin
// whose count reaches ⌈Ambiguous·σ_f + ½⌉ (a bin that may hold rows is
// kept), or on the bin the zoom chose when none further out does. It
// returns the ends and the level the run got to. Post-processing of the
// noisy counts.
func (t tree) descend(p Plan, noisy0 []float64, a, b int, keepLo, keepHi bool, ru rules) (lo, hi end, level int) {
	lo, hi = end{0, a}, end{0, b}
	if ru.noDescent || p.Levels < 2 || b-a+1 >= p.Span {
		return lo, hi, 0
	}
	stuckLo, stuckHi := keepLo, keepHi
	alone := math.Max(p.TrimFine, TrimAlone*p.SigmaFine)
	empty := roundedThreshold(p.SigmaFine, p.Empty)
	ambiguous := roundedThreshold(p.SigmaFine, p.Ambiguous)
	// span is the run's length at level k, each end mapped to k.
	span := func(k int) int {
		l := lo.bin * (t.bins(k) / t.bins(lo.level))
		h := (hi.bin+1)*(t.bins(k)/t.bins(hi.level)) - 1
		return h - l + 1
	}
	for k := 1; k < p.Levels; k++ {
		c := t.fine[k-1]
		// order is the j-th bin inside bin e of level k − 1 from the
		// outside in, and its inner neighbour.
		order := func(e, j int, up bool) (int, int) {
			first := e * t.branch
			if up {
				return first + t.branch - 1 - j, first + t.branch - 2 - j
			}
			return first + j, first + j + 1
		}
		zoom := func(e int, up bool, parent float64) (int, bool) {
			for j := 0; j < t.branch; j++ {
				i, inner := order(e, j, up)
				if c[i] < empty || c[i] < p.Hold*parent && c[i] < alone {
					continue
				}
				return i, c[i] >= alone || c[i] >= p.TrimFine && inner >= 0 && inner < len(c) && c[inner] >= p.TrimFine
			}
			return -1, false
		}
		nlo, okLo := -1, false
		if !stuckLo {
			nlo, okLo = zoom(lo.bin, false, t.count(noisy0, lo))
		}
		nhi, okHi := -1, false
		if !stuckHi {
			nhi, okHi = zoom(hi.bin, true, t.count(noisy0, hi))
		}
		if ru.noFreeze && (!okLo && !stuckLo || !okHi && !stuckHi) {
			return lo, hi, k - 1
		}
		stuckLo, stuckHi = stuckLo || !okLo, stuckHi || !okHi
		if stuckLo && stuckHi {
			return lo, hi, k - 1
		}
		prevLo, prevHi := lo, hi
		if !stuckLo {
			lo = end{k, nlo}
		}
		if !stuckHi {
			hi = end{k, nhi}
		}
		if span(k) < p.Span && k < p.Levels-1 {
			continue
		}
		place := func(e int, up bool, zoomed int) int {
			if ru.noPlace {
				return zoomed
			}
			for j := 0; j < t.branch; j++ {
				if i, _ := order(e, j, up); c[i] >= ambiguous || i == zoomed {
					return i
				}
			}
			return zoomed
		}
		if !stuckLo {
			lo.bin = place(prevLo.bin, false, nlo)
		}
		if !stuckHi {
			hi.bin = place(prevHi.bin, true, nhi)
		}
		return lo, hi, k
	}
	return lo, hi, 0
}

// count is the noisy count of bin e.
func (t tree) count(noisy0 []float64, e end) float64 {
	if e.level == 0 {
		return noisy0[e.bin]
	}
	return t.fine[e.level-1][e.bin]
}
