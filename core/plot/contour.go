package plot

import "math"

// Contours returns the level sets {z = level} of a function sampled on a grid,
// one Line series per level (unnamed, so they stay out of the legend), drawn
// by marching squares: z[i][j] is the value at (xs[j], ys[i]); in each grid
// cell the level crosses the edges whose end values straddle it, at the
// linearly interpolated point, and the crossings are joined pairwise
// (segments are separated by NaN points, which break the line). Saddle cells
// are resolved by the cell's mean value.
func Contours(xs, ys []float64, z [][]float64, levels []float64, color string) []Series {
	var out []Series
	for _, lv := range levels {
		s := Series{Kind: Line, Color: color}
		for i := 0; i+1 < len(ys) && i+1 < len(z); i++ {
			for j := 0; j+1 < len(xs) && j+1 < len(z[i]) && j+1 < len(z[i+1]); j++ {
				// corners: a=(j,i) b=(j+1,i) c=(j+1,i+1) d=(j,i+1)
				v := [4]float64{z[i][j], z[i][j+1], z[i+1][j+1], z[i+1][j]}
				px := [4]float64{xs[j], xs[j+1], xs[j+1], xs[j]}
				py := [4]float64{ys[i], ys[i], ys[i+1], ys[i+1]}
				var cx, cy []float64
				for e := 0; e < 4; e++ {
					a, b := e, (e+1)%4
					if math.IsNaN(v[a]) || math.IsNaN(v[b]) || (v[a] < lv) == (v[b] < lv) {
						continue
					}
					t := (lv - v[a]) / (v[b] - v[a])
					cx = append(cx, px[a]+t*(px[b]-px[a]))
					cy = append(cy, py[a]+t*(py[b]-py[a]))
				}
				switch len(cx) {
				case 2:
					s.X = append(s.X, cx[0], cx[1], math.NaN())
					s.Y = append(s.Y, cy[0], cy[1], math.NaN())
				case 4: // saddle: pair crossings according to the centre value
					mean := (v[0] + v[1] + v[2] + v[3]) / 4
					p := [4]int{0, 1, 2, 3}
					if (mean < lv) != (v[0] < lv) {
						p = [4]int{0, 3, 1, 2}
					}
					s.X = append(s.X, cx[p[0]], cx[p[1]], math.NaN(), cx[p[2]], cx[p[3]], math.NaN())
					s.Y = append(s.Y, cy[p[0]], cy[p[1]], math.NaN(), cy[p[2]], cy[p[3]], math.NaN())
				}
			}
		}
		out = append(out, s)
	}
	return out
}
