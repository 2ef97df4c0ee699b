package domain

// quantiles reads the 1/4, 1/2 and 3/4 quantiles off a histogram of
// non-negative weights whose bin i is [edge(i), edge(i+1)], interpolating
// linearly within a bin. The weights are post-processed noisy counts.
func quantiles(wt []float64, edge func(int) float64) (q1, med, q3 float64) {
	total := 0.0
	for _, v := range wt {
		total += v
	}
	if !(total > 0) {
		mid := edge(len(wt) / 2)
		return mid, mid, mid
	}
	at := func(q float64) float64 {
		i, f, ok := quartileIn(wt, q)
		if !ok {
			return edge(len(wt))
		}
		lo, hi := edge(i), edge(i+1)
		return lo + f*(hi/2-lo/2)*2
	}
	return at(0.25), at(0.5), at(0.75)
}

// quartileIn is the bin i of wt (weights ≥ 0) holding its q-quantile and
// the share f ∈ [0, 1] of the bin's weight below it: Σ_{j<i} w_j + f·w_i =
// q·Σ w. ok is false when wt holds no weight.
func quartileIn(wt []float64, q float64) (i int, f float64, ok bool) {
	total := 0.0
	for _, v := range wt {
		total += v
	}
	if !(total > 0) {
		return 0, 0, false
	}
	target, cum := q*total, 0.0
	for i, v := range wt {
		if v > 0 && cum+v >= target {
			return i, (target - cum) / v, true
		}
		cum += v
	}
	last := len(wt) - 1
	for last > 0 && !(wt[last] > 0) {
		last--
	}
	return last, 1, true
}

// refine carries a quantile found at level k — in bin i, whose noisy count
// is w, with the share f of the bin's rows below it — down the finer levels:
// at each, the bin's children whose noisy count reaches minCount (the finer
// levels' trim level, which a bin of noise alone rarely reaches) share its
// rows, and the quantile falls in the child where their running sum reaches
// f of their total, at the share of that child's count still below it. It
// stops at the last level, or where the children reaching minCount hold
// less than RefineShare of w, and returns the quantile, interpolated
// linearly within its last bin, and the width of that bin's level max'ed
// with step (the coarsest resolution of the quantiles read so far).
// Post-processing of the tree's counts (package doc, "Privacy").
func (t tree) refine(k, i int, f, w, minCount, step float64) (float64, float64) {
	for ; k+1 <= len(t.fine); k++ {
		kids := t.fine[k][i*t.branch : (i+1)*t.branch] // level k+1's bins under bin i of level k
		wt := make([]float64, len(kids))
		kept := 0.0
		for j, v := range kids {
			if v >= minCount {
				wt[j] = v
				kept += v
			}
		}
		if kept < RefineShare*w {
			break
		}
		j, g, _ := quartileIn(wt, f)
		i, f, w = i*t.branch+j, g, wt[j]
	}
	lo, hi := t.edge(k, i), t.edge(k, i+1)
	return lo + f*(hi/2-lo/2)*2, max(step, t.width(k))
}
