package checks

import "strings"

// notAfterMustBe are words that cannot follow "must be" in a sentence: a
// rule that starts with one was written as a clause ("is empty", "must
// have …", "for logistic …") and renders as "csv must be is empty".
var notAfterMustBe = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "must": true, "should": true,
	"needs": true, "need": true, "has": true, "have": true, "had": true, "for": true, "does": true, "do": true,
	"did": true, "can": true, "cannot": true, "will": true, "choose": true, "supports": true, "exceed": true,
	"exceeds": true, "unknown": true, "no": true, "got": true, "gets": true, "contains": true,
	"requires": true, "fits": true, "it": true, "this": true,
}

// Garbled reports whether an error message does not read as one sentence of
// the form "field must be rule[, got value]": a rule that starts with a verb
// or preposition ("must be is empty", "must be for logistic", "must be must
// have"), or a second "must" ("x must be a, y must be b"). It returns the
// offending phrase. The tests run every rule of the module through it
// (grammar_test.go: this package's rules, and every rule of the module
// by a scan of its sources). Only tests use it, so it lives in a _test.go file.
func Garbled(msg string) (phrase string, bad bool) {
	i := strings.Index(msg, " must be ")
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(" must be "):]
	word := strings.ToLower(strings.TrimRight(strings.SplitN(rest, " ", 2)[0], ",.:;"))
	if notAfterMustBe[word] {
		return "must be " + word, true
	}
	if j := strings.Index(rest, "must "); j >= 0 && (j == 0 || rest[j-1] == ' ') {
		return "must … must", true
	}
	// A finite verb in the rule's first clause ("output perturbation supports
	// …", "at least one ε is needed") before any relative pronoun ("a label
	// that is not …", "such that η is finite"). The clause ends at the first
	// ':', '(' or ','.
	clause := rest
	if k := strings.IndexAny(clause, ":(,"); k >= 0 {
		clause = clause[:k]
	}
	words := strings.Fields(strings.ToLower(clause))
	for _, w := range words {
		if relative[w] {
			break // a subordinate clause: "such that …", "a label that is …"
		}
		if finiteVerbs[w] {
			return "must be … " + w, true
		}
	}
	return "", false
}

// finiteVerbs mark a clause where a rule (a noun phrase or adjective) was
// expected; relative pronouns before them are fine.
var finiteVerbs = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "needs": true, "supports": true, "did": true,
	"does": true, "fits": true, "has": true, "have": true, "cannot": true, "requires": true,
}

var relative = map[string]bool{"that": true, "which": true, "who": true, "whose": true}
