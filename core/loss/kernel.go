package loss

// The linear-algebra kernels of a data pass: marginsGo and gradGo are the
// definitions; on GOARCH=wasm, margins and grad run the assembly twins in
// kernel_wasm.s (same operations, same order, same bits), elsewhere these.

// margins sets u[k] = dot4(θ, x[k·d : (k+1)·d]) for k < len(u), d = len(θ).
func margins(theta, x, u []float64) {
	if len(x) != len(u)*len(theta) {
		panic("loss: margins: len(x) != len(u)·len(θ)")
	}
	marginsArch(theta, x, u)
}

// grad adds Σ_k l[3k+2]·x[k·d : (k+1)·d] into g (d = len(g), k < len(l)/3),
// each coordinate's sum formed from 0 over k in order.
func grad(l, x, g []float64) {
	if len(l)%3 != 0 || len(x) != len(l)/3*len(g) {
		panic("loss: grad: len(x) != (len(l)/3)·len(g)")
	}
	gradArch(l, x, g)
}

func marginsGo(theta, x, u []float64) {
	d := len(theta)
	for k := range u {
		u[k] = dot4(theta, x[k*d:k*d+d])
	}
}

// gradGo forms four columns at a time: the rows' stride is d, so a row's
// four entries share one load of c.
func gradGo(l, x, g []float64) {
	d := len(g)
	m := len(l) / 3
	j := 0
	for ; j+4 <= d; j += 4 {
		var g0, g1, g2, g3 float64
		for k := 0; k < m; k++ {
			c := l[3*k+2]
			r := x[k*d+j : k*d+j+4 : k*d+j+4]
			g0 += c * r[0]
			g1 += c * r[1]
			g2 += c * r[2]
			g3 += c * r[3]
		}
		g[j] += g0
		g[j+1] += g1
		g[j+2] += g2
		g[j+3] += g3
	}
	for ; j < d; j++ {
		s := 0.0
		for k := 0; k < m; k++ {
			s += l[3*k+2] * x[k*d+j]
		}
		g[j] += s
	}
}
