package privacy

import (
	"math"
	"strconv"
)

// FormatDown prints v to at most digits significant digits, rounded down
// (towards zero): what a table's budget may still spend is never shown as
// more than it is (issue 45: the meter printed "ε ≤ 2.37", the nearest, while
// the refusal printed "about 2.36"). The digits are cut from v's shortest
// decimal form (strconv's 'e', -1, which parses back to v exactly), so the
// printed number, parsed back — what a user types — is ≤ v, and a v that is
// already short (0.29, whose float lies just below 0.29) prints unchanged;
// scaling, math.Floor(v·10^k)/10^k, could round v·10^k up to an integer and
// print more than v. Zero, negative and non-finite v print as strconv's 'g'.
// The format is kit.G3's (strconv 'g'): 2.36, 0.661, 1e-05, 1.23e+03.
func FormatDown(v float64, digits int) string {
	if digits < 1 {
		digits = 1
	}
	if !(v > 0) || math.IsInf(v, 1) {
		return strconv.FormatFloat(v, 'g', digits, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // d.ddddde±XX
	mant, exp := s, ""
	for i := range s {
		if s[i] == 'e' {
			mant, exp = s[:i], s[i:]
			break
		}
	}
	// mant is "d" or "d.ddd": keep the first digit and digits−1 after the point.
	if len(mant) > digits+1 {
		mant = mant[:digits+1]
	}
	f, err := strconv.ParseFloat(mant+exp, 64)
	if err != nil { // cannot happen: a prefix of strconv's own output
		return strconv.FormatFloat(v, 'g', digits, 64)
	}
	// f has at most digits significant digits: 'g' at that precision prints
	// them exactly (trailing zeros dropped).
	return strconv.FormatFloat(f, 'g', digits, 64)
}
