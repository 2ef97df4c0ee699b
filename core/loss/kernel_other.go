//go:build !wasm

package loss

func marginsArch(theta, x, u []float64) { marginsGo(theta, x, u) }
func gradArch(l, x, g []float64)        { gradGo(l, x, g) }
