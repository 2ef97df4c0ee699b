package report

// The sentences of the "for your eyes only" comparison (issue 53 item 3),
// pure functions of the result: this file has no build tag, so they are
// tested natively (words_test.go). The DOM around them is in render.go.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpsample/dpsample/core/mechanism"
)

// How far the private model's loss is from the comparison's, in words. With
// A the private model's average loss, B the comparison's and G the
// comparison's certified gap, the verdict is
//
//	A − B ≤ max(G, 10⁻⁹·B)   "as low as"            (no difference the fit can certify)
//	A/B < 1.05               "close to"             (and the percentage)
//	A/B < 1.5                "N % above"
//	A/B < 2                  "well above, N % higher"
//	A/B ≥ 2 (or B = 0)       "far above: N times as high" (or the difference)
//
// The thresholds are on the loss ratio because the loss has no unit a
// person reads; the target's units and the trivial answer are in the next
// sentence (GainWords).
const (
	closeRatio = 1.05
	aboveRatio = 1.5
	farRatio   = 2
)

// LossVerdict is the comparison of the private model's average loss a with
// the non-private comparison's b (certified within gap), in words.
func LossVerdict(a, b, gap float64) string {
	d := a - b
	switch {
	case d <= math.Max(gap, 1e-9*math.Abs(b)):
		return "as low as"
	case b <= 0:
		return fmt.Sprintf("far above (higher by %s)", readable(d))
	case a/b < closeRatio:
		return fmt.Sprintf("close to (%s above)", pctOf(d/b))
	case a/b < aboveRatio:
		return fmt.Sprintf("%s above", pctOf(d/b))
	case a/b < farRatio:
		return fmt.Sprintf("well above (%s higher than)", pctOf(d/b))
	}
	return fmt.Sprintf("far above (%s times as high as)", readable(math.Round(a/b*10)/10))
}

// ExcessSentence is the plain comparison of the released model with the
// non-private fit (Fit): the two average losses and the verdict.
func ExcessSentence(f mechanism.Fit) string {
	held := ""
	if f.Ball > 0 {
		held = fmt.Sprintf(", held to ‖θ‖ ≤ %g for this loss", f.Ball)
	}
	s := fmt.Sprintf("on your rows the private model's average loss is %.4g, %s the %.4g of the best model of this kind fitted "+
		"without privacy (the comparison%s, computed on this device and not released).", f.Loss, LossVerdict(f.Loss, f.NonPrivateLoss, f.Gap),
		f.NonPrivateLoss, held)
	if !f.Converged && f.Ball == 0 {
		s += fmt.Sprintf(" The comparison did not converge within its passes: it is certified only to within %.2g.", f.Gap)
	}
	return s
}

// HowSentence says how the comparison was made and checked (the
// disclosure under ExcessSentence); fixed: its work was fixed
// (plan.work.referenceFixed).
func HowSentence(f mechanism.Fit, fixed bool) string {
	var s string
	switch {
	case f.Ball > 0:
		s = fmt.Sprintf("The comparison is the best θ with ‖θ‖ ≤ %g (this loss has no minimum over all θ), found by an iterative "+
			"method certified to within %.2g.", f.Ball, f.Gap)
	case f.Global:
		s = fmt.Sprintf("The comparison is the best centre over all points, certified to within %.2g of the minimum (the minimum "+
			"lies inside the box of the rows, where the certificate holds).", f.Gap)
	default:
		s = fmt.Sprintf("The comparison is the best θ over all values — no size limit, unlike the public radius C that shapes the "+
			"private draw — found by an iterative method in %s and checked: no model whose predictions differ from the "+
			"comparison's by at most %s (root mean square, %s) does better by more than %.2g", count(f.Iterations, "iteration", "iterations"),
			readable(f.Reach), reachUnit(f), f.Gap)
		if f.Converged {
			s += fmt.Sprintf(", within the stopping tolerance %.2g (10⁻⁴ × the loss of θ = 0).", f.Tolerance)
		} else {
			s += fmt.Sprintf(" — above the stopping tolerance %.2g (10⁻⁴ × the loss of θ = 0): it stopped at the plan's cap before "+
				"converging, so read the comparison with that margin.", f.Tolerance)
		}
	}
	s += fmt.Sprintf(" Its work, %s over the rows, is part of the run's", count(f.Passes, "pass", "passes"))
	if fixed && f.Ball == 0 {
		s += " (the same for any rows of this size: the passes after it stopped are made anyway)"
	}
	s += fmt.Sprintf(". The excess is L(θ released) − L(θ best) = %.3g. The words: within the certified gap “as low as”; less than "+
		"%.0f %% higher “close to”; less than %.0f %% “N %% above”; less than %.0f times “well above”; beyond “far above”.",
		f.Excess, 100*(closeRatio-1), 100*(aboveRatio-1), float64(farRatio))
	return s + NegativeExcess(f)
}

// reachUnit is the unit of a certificate's reach.
func reachUnit(f mechanism.Fit) string {
	if f.Accuracy != nil {
		return "in logits"
	}
	return "in the target's scaled units, where its declared range is [−1, 1]"
}

// NegativeExcess says why a negative excess is possible where it is shown
// ("" when it is not negative).
func NegativeExcess(f mechanism.Fit) string {
	switch {
	case !(f.Excess < 0):
		return ""
	case f.Ball > 0 && f.Norm > f.Ball:
		return fmt.Sprintf(" The excess is negative: the released θ (‖θ‖ = %.3g) lies outside the ball the comparison is held to, "+
			"where a lower loss is possible.", f.Norm)
	case -f.Excess <= f.Gap:
		return fmt.Sprintf(" The excess is negative but within %.2g, the precision to which the comparison is certified: "+
			"the released θ is as good as it.", f.Gap)
	}
	return " The excess is negative beyond the comparison's certified gap: the comparison stopped before it converged, and " +
		"the released θ happens to fit your rows better."
}

// GainWords sets the private model between the trivial answer and the
// non-private fit on a scale a person reads: the share p of the
// non-private fit's improvement over the trivial answer that the private
// model keeps, p = (trivial − private)/(trivial − non-private) for an error
// (lower is better) — for an accuracy the signs turn. The words:
//
//	p ≥ 0.9        "close to the non-private fit"
//	0.5 ≤ p < 0.9  "below the non-private fit"
//	0 < p < 0.5    "far below the non-private fit"
//	p ≤ 0          "no better than the trivial answer"
//
// always with p as a percentage. "" when the non-private fit does not beat
// the trivial answer (no scale to read on).
func GainWords(trivial, private, nonPrivate float64) string {
	span := trivial - nonPrivate
	if !(span > 0) {
		return ""
	}
	p := (trivial - private) / span
	var v string
	switch {
	case p >= 0.9:
		v = "close to the non-private fit"
	case p >= 0.5:
		v = "below the non-private fit"
	case p > 0:
		v = "far below the non-private fit"
	default:
		return "The private model is no better than the trivial answer: it keeps none of the non-private fit's improvement over it."
	}
	return fmt.Sprintf("The private model is %s: it keeps %s of the non-private fit's improvement over the trivial answer.", v, pctOf(p))
}

// TrivialRegression is the regression sentence of TrivialNote: the median,
// the private model and the non-private fit in the target's units (np nil:
// no fit to show), and where the private model stands (GainWords).
func TrivialRegression(target string, t mechanism.Trivial, np *mechanism.Trivial) string {
	msg := fmt.Sprintf("Against the trivial answer: predicting the median, %s, for every row is off by %s on average (RMSE %s) in %s's units; "+
		"the private model by %s (RMSE %s).", readable(t.Median), readable(t.Trivial), readable(t.TrivialRMSE), target,
		readable(t.Model), readable(t.ModelRMSE))
	if np != nil { // issue 45 item 3: the best a model of this kind does on these rows, without privacy
		msg += fmt.Sprintf(" The non-private fit (the comparison, not released) is off by %s (RMSE %s).", readable(np.Model), readable(np.ModelRMSE))
		if g := GainWords(t.Trivial, t.Model, np.Model); g != "" {
			msg += " " + g
		}
	}
	return msg
}

// TrivialClassifier is the classification sentence of TrivialNote:
// always answering the majority label, the private model, and where the
// private model stands between it and the non-private fit's accuracy npAcc
// (NaN: none).
func TrivialClassifier(positive string, t mechanism.Trivial, npAcc float64) string {
	label := "“" + positive + "”"
	if t.Majority < 0 {
		label = "not “" + positive + "”"
	}
	msg := fmt.Sprintf("Against the trivial answer: always answering %s is right for %s of the rows; the private model for %s.",
		label, Pct(t.Trivial), Pct(t.Model))
	if !math.IsNaN(npAcc) {
		msg += fmt.Sprintf(" The non-private fit: %s.", Pct(npAcc))
		if g := GainWords(1-t.Trivial, 1-t.Model, 1-npAcc); g != "" {
			msg += " " + g
		}
	}
	return msg
}

// Pct writes a share as a percentage.
func Pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + " %" }

// pctOf writes a share as a whole percentage ("38 %"), one decimal below
// 10 % ("4.2 %").
func pctOf(x float64) string {
	if math.Abs(x) < 0.1 {
		return strconv.FormatFloat(100*x, 'f', 1, 64) + " %"
	}
	return strconv.FormatFloat(math.Round(100*x), 'f', 0, 64) + " %"
}

// count writes n with its noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// readable formats a number for reading: 4 significant digits, no exponent
// between 10⁻³ and 10⁹.
func readable(x float64) string {
	a := math.Abs(x)
	if a != 0 && (a < 1e-3 || a >= 1e9) {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	s := strconv.FormatFloat(x, 'f', max(0, 3-int(math.Floor(math.Log10(math.Max(a, 1e-3))))), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
