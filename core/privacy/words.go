package privacy

import (
	"fmt"
	"math"
)

// SentenceAlpha is the false-alarm rate the plain sentence fixes: 5 in 100.
const SentenceAlpha = 0.05

// AttackerSentence says in words, without symbols, what a release — or all
// the releases of a table — lets the best membership test do (issue 44,
// Catch): a test that wrongly accuses at most 5 in 100 people who are not in
// the table catches the person at most N times in 100, N = ⌈100·Catch(μ,
// 0.05, tv)⌉ (rounded up: the sentence never claims more protection than the
// bound gives). Without any release N would be 5.
func AttackerSentence(mu, tv float64) string {
	c, err := Catch(mu, SentenceAlpha, tv)
	if err != nil {
		return ""
	}
	n := int(math.Ceil(100*c - 1e-9))
	lead := "Someone who knows every other row and tries to tell whether one person's row is in this table — while " +
		"wrongly accusing at most 5 in 100 people who are not in it — "
	if n >= 100 {
		return lead + "could be right about that person every time: this much privacy loss protects almost nothing."
	}
	return lead + fmt.Sprintf("would be right about that person at most %d times in 100 (5 without any release).", n)
}
