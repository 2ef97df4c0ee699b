package privacy

import (
	"fmt"
)

// SentenceAlpha is the false-alarm rate the plain sentence fixes: 5 in 100.
const SentenceAlpha = 0.05

// AttackerSentence says in words, without symbols, what a release lets the
// best membership test do (issue 44, Catch): AttackerSentenceFor("this
// result", μ, tv).
func AttackerSentence(mu, tv float64) string { return AttackerSentenceFor("this result", mu, tv) }

// AttackerSentenceFor says in words, without symbols, what the releases
// named by what ("this result", "everything released on this table so far")
// let the best membership test do (issue 44, Catch): a test that wrongly
// accuses at most 5 in 100 people who are not in the table catches the
// person at most N times in 100, N = FormatPromise(Catch(μ, 0.05, tv)) —
// rounded up to 0.1 (issue 53 item 6: the same number as <dp-membership>'s
// promise; the sentence never claims more protection than the bound gives),
// against 5 in 100 by guessing alone.
//
// The wording is the one a newcomer read correctly in the trial of issue 44
// (docs/PRIVACY.md §11): the attacker comes first, "catch" and "guessing
// alone" fix the direction (a larger N is worse), and the closing clause
// says so. The version before ("Someone who knows every other row and tries
// to tell … — while wrongly accusing … — would be right about that person at
// most N times in 100 (5 without any release)") lost its subject at the
// dashes, and "release" and "right about" were misread.
func AttackerSentenceFor(what string, mu, tv float64) string {
	c, err := Catch(mu, SentenceAlpha, tv)
	if err != nil {
		return ""
	}
	lead := fmt.Sprintf("An attacker who knows every row but one person's guesses from %s whether that person is in the table. "+
		"Allowed to wrongly accuse at most 5 in 100 people who are not in it, ", what)
	if PromiseRate(c) >= 100 {
		return lead + "they could catch that person every time: this much privacy loss protects almost nothing."
	}
	return lead + fmt.Sprintf("they catch that person at most %s times in 100. Without %s, guessing alone catches them 5 times in 100: "+
		"the closer to 5, the more private.", FormatPromise(c), what)
}
