package domain

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dpsample/dpsample/core/privacy"
)

func chargeTable(n int) [][]float64 {
	x := make([][]float64, n)
	for i := range x {
		x[i] = []float64{float64(i), float64(i % 7)}
	}
	return x
}

// One charge pays for one release: the first draw succeeds, a second from the
// same charge — by either method — is ErrChargedTwice, and the ledger holds
// the one release throughout.
func TestChargedDrawsOnce(t *testing.T) {
	x := chargeTable(300)
	l, err := privacy.NewLedger(3, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(300, 2, 1, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Charge(p, l)
	if err != nil {
		t.Fatal(err)
	}
	if st := c.State(); st.Spent.Releases != 1 || math.Abs(st.Spent.GDP-p.GDP) > 1e-12 {
		t.Fatalf("after the charge: %+v; want one release of %g GDP", st.Spent, p.GDP)
	}
	if c.Plan() != p {
		t.Errorf("Charged.Plan is not the plan charged")
	}
	res, err := c.Describe(x)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Private || len(res.Columns) != 2 {
		t.Errorf("the charged draw: private %v, %d columns; want private, 2", res.Private, len(res.Columns))
	}
	if _, err := c.Describe(x); !errors.Is(err, ErrChargedTwice) {
		t.Errorf("a second Describe: %v; want ErrChargedTwice", err)
	}
	if _, err := c.DescribeCells([]Cells{{Nums: []float64{1}}, {Nums: []float64{2}}}); !errors.Is(err, ErrChargedTwice) {
		t.Errorf("DescribeCells after Describe: %v; want ErrChargedTwice", err)
	}
	if got := l.State().Spent.Releases; got != 1 {
		t.Errorf("the ledger holds %d releases after one charge and three draws; want 1", got)
	}

	// The same for a labels plan, drawn by DescribeCells first.
	cp, err := NewCellsPlan(300, 2, 1, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := Charge(cp, l)
	if err != nil {
		t.Fatal(err)
	}
	cols := []Cells{{Name: "a", Nums: []float64{1, 2, 3}}, {Name: "b", Labels: []string{"u", "v"}}}
	if _, err := cc.DescribeCells(cols); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.DescribeCells(cols); !errors.Is(err, ErrChargedTwice) {
		t.Errorf("a second DescribeCells: %v; want ErrChargedTwice", err)
	}
	if _, err := cc.Describe(x); !errors.Is(err, ErrChargedTwice) {
		t.Errorf("Describe after DescribeCells: %v; want ErrChargedTwice", err)
	}
	if got := l.State().Spent.Releases; got != 2 {
		t.Errorf("the ledger holds %d releases after two charges; want 2", got)
	}
}

// A charge without a draw stays spent (never refunded); a draw without a
// charge — a Charged that Charge did not return — is refused naming
// "charge"; a draw refused for its input draws nothing and leaves the charge
// to be drawn.
func TestChargedWithoutDrawOrCharge(t *testing.T) {
	x := chargeTable(300)
	l, err := privacy.NewLedger(3, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(300, 2, 1, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Charge(p, l); err != nil {
		t.Fatal(err)
	}
	if got := l.State().Spent.Releases; got != 1 {
		t.Errorf("an undrawn charge: %d releases; want 1 (a charge is never refunded)", got)
	}

	var nilCharge *Charged
	for name, c := range map[string]*Charged{"zero": {}, "nil": nilCharge} {
		if _, err := c.Describe(x); err == nil || !strings.HasPrefix(err.Error(), "charge must") {
			t.Errorf("Describe from a %s Charged: %v; want an error naming charge", name, err)
		}
		if _, err := c.DescribeCells([]Cells{{}, {}}); err == nil || !strings.HasPrefix(err.Error(), "charge must") {
			t.Errorf("DescribeCells from a %s Charged: %v; want an error naming charge", name, err)
		}
	}

	c, err := Charge(p, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Describe(x[:299]); err == nil || !strings.HasPrefix(err.Error(), "x must") {
		t.Errorf("a charged draw of the wrong shape: %v; want an error naming x", err)
	}
	if _, err := c.DescribeCells([]Cells{{}, {}}); err == nil || !strings.HasPrefix(err.Error(), "plan must") {
		t.Errorf("DescribeCells from a plan without labels: %v; want an error naming plan", err)
	}
	if _, err := c.Describe(x); err != nil {
		t.Errorf("the draw after refused inputs: %v; want the charge still unused", err)
	}
	if got := l.State().Spent.Releases; got != 2 {
		t.Errorf("%d releases after two charges; want 2", got)
	}
}

// Charge refuses, spending nothing: a nil ledger, a forged plan, a ledger
// whose δ is not below 1/n, and a release that does not fit.
func TestChargeRefusals(t *testing.T) {
	l, err := privacy.NewLedger(3, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(300, 2, 1, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	forged := p
	forged.Sigma1 /= 1000
	big, err := NewPlan(300, 2, 50, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	loose, err := privacy.NewLedger(3, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		p     Plan
		l     *privacy.Ledger
		field string
	}{
		{"nil ledger", p, nil, "ledger must"},
		{"forged plan", forged, l, "plan must"},
		{"hand-made plan", Plan{N: 3, D: 1, Bins2: 8, ModeThreshold: 1, GrowThreshold: 1, Stages: 1}, l, "plan must"},
		{"ledger δ ≥ 1/n", p, loose, "ledger.delta must"},
		{"over budget", big, l, "ledger must"},
	} {
		if _, err := Charge(c.p, c.l); err == nil || !strings.HasPrefix(err.Error(), c.field) {
			t.Errorf("%s: %v; want an error starting %q", c.name, err, c.field)
		}
	}
	for _, led := range []*privacy.Ledger{l, loose} {
		if got := led.State().Spent.Releases; got != 0 {
			t.Errorf("refused charges spent %d releases", got)
		}
	}
}
