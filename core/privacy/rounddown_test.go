package privacy

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestFormatDown: the printed value never exceeds v (parsed back, as a user
// would type it), is within one unit of its last digit of v, and prints
// short values unchanged — where rounding to nearest (strconv 'g', kit.G3)
// goes up, it goes down (issue 45: "ε ≤ 2.37" beside "about 2.36").
func TestFormatDown(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{
		{2.3695, 3, "2.36"}, // 'g' says 2.37
		{2.37, 3, "2.37"},
		{math.Nextafter(2.37, 0), 3, "2.36"},
		{0.29, 3, "0.29"},
		{0.29, 2, "0.29"},
		{0.6614, 3, "0.661"},
		{0.6619, 3, "0.661"},
		{0.6619, 4, "0.6619"},
		{3, 3, "3"},
		{2.9999999999, 3, "2.99"},
		{1e-5, 3, "1e-05"},
		{1.2399e-7, 3, "1.23e-07"},
		{1239.9, 3, "1.23e+03"},
		{999.99, 3, "999"},
		{0, 3, "0"},
		{-1.5, 3, "-1.5"},
	} {
		if got := FormatDown(c.v, c.digits); got != c.want {
			t.Errorf("FormatDown(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(45, 6))
	differ := 0
	for i := 0; i < 200000; i++ {
		v := math.Exp(r.Float64()*60 - 30)
		if i%4 == 0 { // a 3-digit value or its float neighbour on either side
			v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
			v = math.Nextafter(v, []float64{0, v, math.Inf(1)}[r.IntN(3)])
		}
		for _, digits := range []int{2, 3, 4} {
			s := FormatDown(v, digits)
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || f > v {
				t.Fatalf("FormatDown(%v, %d) = %q: above v (%v)", v, digits, s, err)
			}
			unit := math.Pow(10, math.Floor(math.Log10(v))-float64(digits-1))
			if v-f > unit*(1+1e-9) {
				t.Fatalf("FormatDown(%v, %d) = %q: more than one unit %g below v", v, digits, s, unit)
			}
			if s != strconv.FormatFloat(v, 'g', digits, 64) {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("never differed from rounding to nearest: the test draws no value that rounds up")
	}
}
