package loss

//go:noescape
func marginsAsm(theta, x, u []float64)

//go:noescape
func gradAsm(l, x, g []float64)

func marginsArch(theta, x, u []float64) { marginsAsm(theta, x, u) }
func gradArch(l, x, g []float64)        { gradAsm(l, x, g) }
