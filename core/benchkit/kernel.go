package benchkit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dpsample/dpsample/core/checks"
	"github.com/dpsample/dpsample/core/fingerprint"
	"github.com/dpsample/dpsample/core/loss"
	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/core/rng"
	"github.com/dpsample/dpsample/core/sampler"
	"github.com/dpsample/dpsample/core/sampler/exact"
)

// Info describes a kernel: one iteration does PerIter units of work (a
// sampler step, a sampled coordinate, a generated code, a trace), and Iters
// iterations take roughly 50 ms natively.
type Info struct {
	Name    string  `json:"name"`
	Group   string  `json:"group"`
	Unit    string  `json:"unit"`
	PerIter float64 `json:"perIter"`
	Iters   int     `json:"iters"`
}

type kernel struct {
	Info
	build func() (func(iters int) error, error)
}

var kernels = func() []kernel {
	var ks []kernel
	for _, l := range []loss.Kind{loss.Logistic, loss.Hinge} {
		for _, d := range []int{2, 10, 100} {
			ks = append(ks, kernel{
				Info:  Info{Name: fmt.Sprintf("sampler/%s/d=%d", l, d), Group: "sampler", Unit: "step", PerIter: 1, Iters: 50_000 * 10 / (10 + d)},
				build: samplerKernel(l, d),
			})
		}
	}
	// Issue 12's benchmark shape: n = 455 training rows, d = 30 (breast
	// cancer's training split), logistic, C = 10, δ = 1e-5.
	ks = append(ks,
		kernel{Info: Info{Name: "firstorder/logistic/n=455,d=30", Group: "firstorder", Unit: "step", PerIter: 1, Iters: 400}, build: firstOrderKernel},
		kernel{Info: Info{Name: "mechanism/logistic/n=455,d=30,ε=1", Group: "mechanism", Unit: "sample", PerIter: 1, Iters: 1}, build: sampleKernel(1)},
		kernel{Info: Info{Name: "mechanism/logistic/n=455,d=30,ε=5", Group: "mechanism", Unit: "sample", PerIter: 1, Iters: 1}, build: sampleKernel(5)},
		kernel{Info: Info{Name: "mechanism/logistic/n=455,d=30,ε=1,fixedWork", Group: "mechanism", Unit: "sample", PerIter: 1, Iters: 1}, build: fixedSampleKernel(1)},
	)
	ks = append(ks,
		kernel{Info: Info{Name: "exact/l1-separable", Group: "exact", Unit: "coordinate", PerIter: 1000, Iters: 1}, build: separableKernel},
		kernel{Info: Info{Name: "exact/l1-binary", Group: "exact", Unit: "coordinate", PerIter: 1, Iters: 800_000}, build: binaryKernel},
		kernel{Info: Info{Name: "fingerprint/gen", Group: "fingerprint", Unit: "code (n=8)", PerIter: 1, Iters: 5}, build: genKernel},
		kernel{Info: Info{Name: "fingerprint/trace", Group: "fingerprint", Unit: "trace (n=16)", PerIter: 1, Iters: 5}, build: traceKernel},
		kernel{Info: Info{Name: "rng/chacha8-normal", Group: "rng", Unit: "draw", PerIter: 1, Iters: 2_000_000}, build: normalKernel},
	)
	return ks
}()

// Kernels lists every kernel, in report order.
func Kernels() []Info {
	out := make([]Info, len(kernels))
	for i, k := range kernels {
		out[i] = k.Info
	}
	return out
}

var cache struct {
	sync.Mutex
	run map[string]func(int) error
}

// Time runs kernel name for iters iterations and returns the elapsed wall
// time (the kernel's one-off set-up, done on first use, is not timed).
func Time(name string, iters int) (time.Duration, error) {
	if err := checks.IntRange("iters", iters, 1, 100_000_000); err != nil {
		return 0, err
	}
	cache.Lock()
	defer cache.Unlock()
	run, ok := cache.run[name]
	if !ok {
		i := 0
		for i < len(kernels) && kernels[i].Name != name {
			i++
		}
		if i == len(kernels) {
			return 0, checks.Errorf("name", "one of the kernels of benchkit.Kernels, got %q", name)
		}
		var err error
		if run, err = kernels[i].build(); err != nil {
			return 0, err
		}
		if cache.run == nil {
			cache.run = map[string]func(int) error{}
		}
		cache.run[name] = run
	}
	start := time.Now()
	err := run(iters)
	return time.Since(start), err
}

// GLM returns n records of a synthetic generalised linear model in dimension
// d bound to loss k (logistic, hinge, …): features uniform on the unit
// sphere, labels sign(⟨θ₀, x⟩) for a random unit θ₀, flipped with
// probability 0.1.
func GLM(k loss.Kind, n, d int, r *rand.Rand) (*loss.Set, error) {
	theta := sphere(r, d)
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = sphere(r, d)
		dot := 0.0
		for j, v := range x[i] {
			dot += v * theta[j]
		}
		y[i] = 1
		if dot < 0 {
			y[i] = -1
		}
		if r.Float64() < 0.1 {
			y[i] = -y[i]
		}
	}
	return loss.New(k, x, y, loss.Params{Clip: 1})
}

func sphere(r *rand.Rand, d int) []float64 {
	v := make([]float64, d)
	s := 0.0
	for j := range v {
		v[j] = r.NormFloat64()
		s += v[j] * v[j]
	}
	s = math.Sqrt(s)
	for j := range v {
		v[j] /= s
	}
	return v
}

func samplerKernel(l loss.Kind, d int) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		pot, err := GLM(l, 1000, d, rng.Seeded(uint64(d)))
		if err != nil {
			return nil, err
		}
		pl, err := sampler.NewPlan(sampler.Params{N: 1000, D: d, G: 1, Eta: 20, Mu: 0.05, TV: 1e-6, Mode: sampler.ModeStochastic})
		if err != nil {
			return nil, err
		}
		r := rng.Seeded(1)
		return func(iters int) error {
			p := pl
			p.Steps = iters
			_, _, err := sampler.Run(context.Background(), p, pot, r, nil)
			return err
		}, nil
	}
}

// SampleN, SampleD, SampleRadius are the shape of the first-order kernels:
// breast cancer's 80 % training split (455 rows, 30 features), C = 10.
const (
	SampleN      = 455
	SampleD      = 30
	SampleRadius = 10.0
)

// sampleRequest is a logistic request of the kernels' shape on GLM data
// (features on the unit sphere: ‖x‖ = clip = 1, the worst case of the
// curvature bound), fixed seed (not private: a benchmark).
func sampleRequest(eps float64) mechanism.Request {
	set, _ := GLM(loss.Logistic, SampleN, SampleD, rng.Seeded(455))
	x := make([][]float64, SampleN)
	y := make([]float64, SampleN)
	for i := range x {
		x[i] = append([]float64(nil), set.Row(i)...)
		y[i] = set.Target(i)
	}
	seed := uint64(30)
	return mechanism.Request{Loss: "logistic", X: x, Y: y, Epsilon: eps, Delta: 1e-5, Radius: SampleRadius, Clip: 1, Seed: &seed}
}

// firstOrderKernel times steps of the first-order sampler
// (sampler.RunFirstOrder) with the plan mechanism.NewPlan makes for the
// kernels' shape at ε = 1; one iteration is one step (anchor passes and
// trials included).
func firstOrderKernel() (func(int) error, error) {
	req := sampleRequest(1)
	pl, err := mechanism.NewPlan(req)
	if err != nil {
		return nil, err
	}
	if pl.Method != "first-order" {
		return nil, fmt.Errorf("benchkit: the plan for logistic uses %q, not the first-order sampler", pl.Method)
	}
	set, err := loss.New(loss.Logistic, req.X, req.Y, loss.Params{Clip: 1})
	if err != nil {
		return nil, err
	}
	fo, err := sampler.NewFirstOrderPlan(sampler.FirstOrderParams{N: SampleN, D: SampleD, G: pl.G, Curv: set.Curvature(), Spread: set.GradSpread(),
		Eta: pl.Eta, Mu: pl.Mu, TV: pl.TV})
	if err != nil {
		return nil, err
	}
	r := rng.Seeded(7)
	return func(iters int) error {
		p := fo
		p.Steps = iters
		_, _, err := sampler.RunFirstOrder(context.Background(), p, set, r, nil)
		return err
	}, nil
}

// sampleKernel times one whole mechanism.Sample call (plan, non-private
// fit, the sampler's T steps) for the kernels' shape at ε, with the adaptive
// sampler (fixedWork: false), the speed issue 12's targets were set for.
func sampleKernel(eps float64) func() (func(int) error, error) { return sampleKernelWork(eps, false) }

// fixedSampleKernel is sampleKernel with fixedWork (the default of the
// library, issue 21): its ratio to sampleKernel is the cost of fixed work.
func fixedSampleKernel(eps float64) func() (func(int) error, error) {
	return sampleKernelWork(eps, true)
}

func sampleKernelWork(eps float64, fixed bool) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		req := sampleRequest(eps)
		req.FixedWork = &fixed
		return func(iters int) error {
			for range iters {
				if _, err := mechanism.Sample(context.Background(), req, nil); err != nil {
					return err
				}
			}
			return nil
		}, nil
	}
}

func separableKernel() (func(int) error, error) {
	const n, d = 100, 1000
	r := rng.Seeded(2)
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	a, b := exact.L1Params(50, 0.5, n, d)
	s := exact.NewL1Separable(x, n, d, a, b)
	out := make([]float64, d)
	return func(iters int) error {
		for range iters {
			s.Sample(r, out)
		}
		return nil
	}, nil
}

func binaryKernel() (func(int) error, error) {
	r := rng.Seeded(3)
	exact.L1Binary(r, 1000, 0, 0.05, 20) // build the table
	i := 0
	return func(iters int) error {
		s := 0.0
		for range iters {
			s += exact.L1Binary(r, 1000, i%1001, 0.05, 20)
			i += 7919
		}
		if math.IsNaN(s) { // uses the draws, and would be a sampler bug
			return fmt.Errorf("exact.L1Binary returned NaN")
		}
		return nil
	}, nil
}

// normalKernel draws standard normals the way every private run does: from
// the ChaCha8 generator (rng.New) by rng.Normals53, 64 to a call (the
// sampler's Gaussian proposals are most of its work; NormFloat64, which the
// zeroth-order sampler drew until issue 51, was ≈ 60% of a native sampler
// step's profile).
func normalKernel() (func(int) error, error) {
	r := rng.Seeded(6)
	var buf [64]float64
	return func(iters int) error {
		s := 0.0
		for k := 0; k < iters; k += len(buf) {
			z := buf[:min(len(buf), iters-k)]
			rng.Normals53(r, z)
			for _, v := range z {
				s += v
			}
		}
		if math.IsNaN(s) {
			return fmt.Errorf("Normals53 returned NaN")
		}
		return nil
	}, nil
}

func genKernel() (func(int) error, error) {
	r := rng.Seeded(4)
	return func(iters int) error {
		for range iters {
			if _, err := fingerprint.New(fingerprint.Params{N: 8, Xi: .01}, r); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

func traceKernel() (func(int) error, error) {
	const n = 16
	c, err := fingerprint.New(fingerprint.Params{N: n, Xi: .01}, rng.Seeded(5))
	if err != nil {
		return nil, err
	}
	w := fingerprint.NewWord(c.Length)
	for k := 0; k < c.Length; k++ {
		w.Set(k, 2*c.Ones(k) > n) // the majority word, ties to 0
	}
	return func(iters int) error {
		for range iters {
			if _, err := c.TraceWord(w); err != nil {
				return err
			}
		}
		return nil
	}, nil
}
