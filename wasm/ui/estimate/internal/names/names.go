// Package names holds the names a person reads for the estimate's tasks
// (issue 53 item 7a: a prompt said "smooth-quantile", the API's name, where
// the Task list said "smooth median"): the list's labels and every
// sentence that names a task come from here. It builds natively and
// imports only core/loss, so the view, the form's state machine and the
// report can all use it without an import cycle.
package names

import "github.com/dpsample/dpsample/core/loss"

// lossLabels are the losses the form offers, as the Task list names them.
// The API's names (loss.Kind's String) stay in the API, the JSON export and
// the element attributes.
var lossLabels = map[loss.Kind]string{
	loss.L1:             "centre: coordinate median (ℓ1)",
	loss.L2Dist:         "centre: geometric median (ℓ2)",
	loss.Logistic:       "classification: logistic regression",
	loss.Hinge:          "classification: SVM (hinge)",
	loss.SmoothHinge:    "classification: smooth hinge (fast)",
	loss.LAD:            "regression: least absolute deviation",
	loss.Quantile:       "regression: median (quantile τ = ½)",
	loss.SmoothQuantile: "regression: smooth median (fast)",
	loss.Huber:          "regression: Huber",
}

// LossLabel is the name a person reads for loss k (the form's list);
// the API's name for a loss the form does not offer.
func LossLabel(k loss.Kind) string {
	if l, ok := lossLabels[k]; ok {
		return l
	}
	return k.String()
}

// TaskWords names a task in a sentence: the loss's label and, for a
// supervised loss with a target column, the column ("regression: smooth
// median (fast), predicting price").
func TaskWords(k loss.Kind, target string) string {
	if k.Supervised() && target != "" {
		return LossLabel(k) + ", predicting " + target
	}
	return LossLabel(k)
}
