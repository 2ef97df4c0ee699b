package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRulesReadAsSentences renders the message of every rule of this package
// (each function, with values that break it) and requires each to read as
// "field must be rule[, got value]": no doubled verb ("must be is", "must be
// for", "must be must").
func TestRulesReadAsSentences(t *testing.T) {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	_, _, matEmpty := Matrix("x", nil)
	_, _, matRow := Matrix("x", [][]float64{{}})
	_, _, matRagged := Matrix("x", [][]float64{{1, 2}, {3}})
	_, _, matInf := Matrix("x", [][]float64{{1, math.Inf(1)}})
	for _, err := range []error{
		Finite("x", nan), Positive("epsilon", negZero), NonNegative("s", -1), Epsilon("epsilon", 0),
		Delta("delta", 0.5+0.5), DeltaForN("delta", 0.5, 20), Probability("p", nan), InRange("tau", 2, 0, 1), IntRange("rank", 0, 1, 5),
		matEmpty, matRow, matRagged, matInf, Vector("y", []float64{1}, 2), Vector("y", []float64{nan}, 1),
		Errorf("text", "CSV with at least one data row (it is empty)"),
	} {
		if err == nil {
			t.Fatal("a rule accepted a bad value")
		}
		msg := err.Error()
		if !strings.Contains(msg, " must be ") {
			t.Errorf("%q has no \"must be\"", msg)
		}
		if p, bad := Garbled(msg); bad {
			t.Errorf("%q is not a sentence (%q)", msg, p)
		}
	}
}

// TestGarbledCatchesTheReportedMessages: the messages issue 15 quoted, and
// the other shapes of a clause used as a rule, are caught; good ones are not.
func TestGarbledCatchesTheReportedMessages(t *testing.T) {
	for _, msg := range []string{
		"csv must be is empty: paste a table or drop a file on the box",
		"target must be for logistic must have two labels (mapped to ±1), got the value 0",
		"G must be must be at least the loss's Lipschitz constant 1, got 0.5",
		"ranges must be needs a public range for column \"a\"",
		"features must be choose at least one feature column",
		"synthetic.ranks must be ranks, dims and losses must be non-empty",
		"loss must be output perturbation supports logistic, hinge and lad, got \"huber\"",
		"tolerance must be SDCA did not certify ‖θ − θ̂‖ ≤ 1e-06 in 50 epochs (reached 0.1)",
		"real.datasets must be at least one dataset is needed",
	} {
		if _, bad := Garbled(msg); !bad {
			t.Errorf("Garbled(%q) = false", msg)
		}
	}
	for _, msg := range []string{
		"epsilon must be a finite number > 0, got NaN",
		"radius must be such that η and μ are finite and non-zero",
		"seed must be set: only a seeded run can be replayed",
		"positive must be absent for targetType \"numeric\"",
		"x must be at least 2 rows, got 1 row",
		"positive must be a label that is not a missing-cell marker, got \"NA\"",
		"epsilon must be a finite number > 0 (or give s) for box-exponential, got 0",
	} {
		if p, bad := Garbled(msg); bad {
			t.Errorf("Garbled(%q) = %q, want a sentence", msg, p)
		}
	}
}

// TestModuleRulesReadAsSentences scans every non-test Go file of the module
// for checks.Errorf(field, "rule", …) and checks.Error{Rule: "rule"} and
// renders "field must be rule" (format verbs as placeholders), failing on a
// garbled one.
func TestModuleRulesReadAsSentences(t *testing.T) {
	root := filepath.Join("..", "..")
	verb := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		inChecks := f.Name.Name == "checks"
		check := func(pos token.Pos, rule string) {
			n++
			msg := "field must be " + verb.ReplaceAllString(rule, "X")
			if p, bad := Garbled(msg); bad {
				t.Errorf("%s: rule %q renders as %q (%s)", fset.Position(pos), rule, msg, p)
			}
		}
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.CallExpr:
				if isChecks(x.Fun, "Errorf", inChecks) && len(x.Args) >= 2 {
					if s, ok := leadString(x.Args[1]); ok {
						check(x.Pos(), s)
					}
				}
			case *ast.CompositeLit:
				if isChecks(x.Type, "Error", inChecks) {
					for _, e := range x.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Rule" {
								if s, ok := leadString(kv.Value); ok {
									check(x.Pos(), s)
								}
							}
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("found %d rules in the module, want ≥ 100 (is the scan broken?)", n)
	}
}

func isChecks(e ast.Expr, name string, inChecks bool) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "checks" && x.Sel.Name == name
	case *ast.Ident:
		return inChecks && x.Name == name
	}
	return false
}

// leadString is the literal text a rule expression starts with: a string
// literal, the format of fmt.Sprintf, or the left end of a + chain.
func leadString(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			l, ok := leadString(x.X)
			if !ok {
				return "", false
			}
			if r, ok := leadString(x.Y); ok {
				return l + r, true
			}
			return l + "X", true
		}
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
			return leadString(x.Args[0])
		}
	}
	return "", false
}
