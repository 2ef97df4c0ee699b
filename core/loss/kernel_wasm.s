// The two linear-algebra kernels of a data pass (pass.go) in WebAssembly.
// Go's wasm backend compiles every loop back-edge to a jump through the
// function's br_table dispatcher and keeps the stack frame in linear memory;
// these loops are plain wasm loops over pointers. Each performs exactly the
// floating-point operations of its Go twin in kernel.go, in the same order
// (wasm has no fused multiply-add), so the results are the same bits
// (TestKernelsMatchGo).

#include "textflag.h"

// func marginsAsm(theta, x, u []float64)
// u[k] = dot4(theta, x[k·d : (k+1)·d]), d = len(theta).
TEXT ·marginsAsm(SB), NOSPLIT, $0-72
	Get SP
	I64Load theta_base+0(FP)
	Set R0 // θ
	Get SP
	I64Load theta_len+8(FP)
	I64Const $3
	I64Shl
	Set R1 // 8d: bytes per row
	Get SP
	I64Load x_base+24(FP)
	Set R2 // current row
	Get SP
	I64Load u_base+48(FP)
	Set R3 // current output
	Get SP
	I64Load u_len+56(FP)
	I64Const $3
	I64Shl
	Get R3
	I64Add
	Set R4 // end of u
	Get R1
	I64Const $-32
	I64And
	Set R5 // 8·(d − d mod 4)

	Block
	Loop
		Get R3
		Get R4
		I64GeU
		BrIf $1
		F64Const $(0.0)
		Set F16
		F64Const $(0.0)
		Set F17
		F64Const $(0.0)
		Set F18
		F64Const $(0.0)
		Set F19
		Get R0
		Set R6 // θ pointer
		Get R2
		Set R7 // row pointer
		Get R0
		Get R5
		I64Add
		Set R8 // end of the 4-aligned part of θ
		Block
		Loop
			Get R6
			Get R8
			I64GeU
			BrIf $1
			Get F16
			Get R6
			I32WrapI64
			F64Load $0
			Get R7
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			Set F16
			Get F17
			Get R6
			I32WrapI64
			F64Load $8
			Get R7
			I32WrapI64
			F64Load $8
			F64Mul
			F64Add
			Set F17
			Get F18
			Get R6
			I32WrapI64
			F64Load $16
			Get R7
			I32WrapI64
			F64Load $16
			F64Mul
			F64Add
			Set F18
			Get F19
			Get R6
			I32WrapI64
			F64Load $24
			Get R7
			I32WrapI64
			F64Load $24
			F64Mul
			F64Add
			Set F19
			Get R6
			I64Const $32
			I64Add
			Set R6
			Get R7
			I64Const $32
			I64Add
			Set R7
			Br $0
		End
		End
		Get F16
		Get F17
		F64Add
		Get F18
		Get F19
		F64Add
		F64Add
		Set F20
		Get R0
		Get R1
		I64Add
		Set R8 // end of θ
		Block
		Loop
			Get R6
			Get R8
			I64GeU
			BrIf $1
			Get F20
			Get R6
			I32WrapI64
			F64Load $0
			Get R7
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			Set F20
			Get R6
			I64Const $8
			I64Add
			Set R6
			Get R7
			I64Const $8
			I64Add
			Set R7
			Br $0
		End
		End
		Get R3
		I32WrapI64
		Get F20
		F64Store $0
		Get R3
		I64Const $8
		I64Add
		Set R3
		Get R2
		Get R1
		I64Add
		Set R2
		Br $0
	End
	End
	RET

// func gradAsm(l, x, g []float64)
// g[j] += Σ_k l[3k+2]·x[k·d + j] for j < d = len(g), k < len(l)/3,
// each column's sum formed from 0 over k in order.
TEXT ·gradAsm(SB), NOSPLIT, $0-72
	Get SP
	I64Load l_base+0(FP)
	I64Const $16
	I64Add
	Set R0 // &l[2]
	Get SP
	I64Load l_len+8(FP)
	I64Const $3
	I64DivU
	Set R9 // m
	Get SP
	I64Load x_base+24(FP)
	Set R2 // &x[j]
	Get SP
	I64Load g_base+48(FP)
	Set R3 // &grad[j]
	Get SP
	I64Load g_len+56(FP)
	I64Const $3
	I64Shl
	Set R1 // 8d
	Get R3
	Get R1
	I64Const $-32
	I64And
	I64Add
	Set R4 // end of the 4-aligned columns of grad
	Get R3
	Get R1
	I64Add
	Set R5 // end of grad
	Get R0
	Get R9
	I64Const $24
	I64Mul
	I64Add
	Set R8 // end of the c pointer

	Block
	Loop
		Get R3
		Get R4
		I64GeU
		BrIf $1
		F64Const $(0.0)
		Set F16
		F64Const $(0.0)
		Set F17
		F64Const $(0.0)
		Set F18
		F64Const $(0.0)
		Set F19
		Get R0
		Set R6 // &c_k
		Get R2
		Set R7 // &x[k·d + j]
		Block
		Loop
			Get R6
			Get R8
			I64GeU
			BrIf $1
			Get R6
			I32WrapI64
			F64Load $0
			Set F20 // c
			Get F16
			Get F20
			Get R7
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			Set F16
			Get F17
			Get F20
			Get R7
			I32WrapI64
			F64Load $8
			F64Mul
			F64Add
			Set F17
			Get F18
			Get F20
			Get R7
			I32WrapI64
			F64Load $16
			F64Mul
			F64Add
			Set F18
			Get F19
			Get F20
			Get R7
			I32WrapI64
			F64Load $24
			F64Mul
			F64Add
			Set F19
			Get R6
			I64Const $24
			I64Add
			Set R6
			Get R7
			Get R1
			I64Add
			Set R7
			Br $0
		End
		End
		Get R3
		I32WrapI64
		Get R3
		I32WrapI64
		F64Load $0
		Get F16
		F64Add
		F64Store $0
		Get R3
		I32WrapI64
		Get R3
		I32WrapI64
		F64Load $8
		Get F17
		F64Add
		F64Store $8
		Get R3
		I32WrapI64
		Get R3
		I32WrapI64
		F64Load $16
		Get F18
		F64Add
		F64Store $16
		Get R3
		I32WrapI64
		Get R3
		I32WrapI64
		F64Load $24
		Get F19
		F64Add
		F64Store $24
		Get R3
		I64Const $32
		I64Add
		Set R3
		Get R2
		I64Const $32
		I64Add
		Set R2
		Br $0
	End
	End

	Block
	Loop
		Get R3
		Get R5
		I64GeU
		BrIf $1
		F64Const $(0.0)
		Set F16
		Get R0
		Set R6
		Get R2
		Set R7
		Block
		Loop
			Get R6
			Get R8
			I64GeU
			BrIf $1
			Get F16
			Get R6
			I32WrapI64
			F64Load $0
			Get R7
			I32WrapI64
			F64Load $0
			F64Mul
			F64Add
			Set F16
			Get R6
			I64Const $24
			I64Add
			Set R6
			Get R7
			Get R1
			I64Add
			Set R7
			Br $0
		End
		End
		Get R3
		I32WrapI64
		Get R3
		I32WrapI64
		F64Load $0
		Get F16
		F64Add
		F64Store $0
		Get R3
		I64Const $8
		I64Add
		Set R3
		Get R2
		I64Const $8
		I64Add
		Set R2
		Br $0
	End
	End
	RET
