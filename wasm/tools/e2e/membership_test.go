//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestMembershipElement (issue 44 item 3): <dp-membership> on lesson.html
// draws the promise of ε = 1, δ = 1e-5 and says it in words (8.5 in 100 at a
// 5 % false alarm: ⌈1000·Φ̄(1.645 − 0.268)⌉/10); a seeded attack
// on the real mechanism (mechanism.membership in the worker, 20,000 answers a
// table) puts its eight points with intervals under the curve, and the same
// attack with the noise halved puts points above it, and the verdicts say
// so. The seeds make the verdicts fixed: with fresh seeds the first fails
// with probability ≤ 0.05 (the element's simultaneous intervals) and the
// second with a probability far below 1e-9 (TestMembershipCatchesBroken).
// At 375 px nothing overflows.
func TestMembershipElement(t *testing.T) {
	p := openPage(t, "/lesson.html", 375, 900)
	p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	p.buildAll(60 * time.Second)
	if !strings.Contains(p.text("#membership-promise"), "The promise at ε = 1, δ = 1e-5: wrongly accusing at most 5 in 100 outsiders, any attacker is right about the person at most 8.5 times in 100 (5 without any answer)") {
		t.Errorf("lesson's promise line %q", p.text("#membership-promise"))
	}
	// A seeded instance of the element, as a course page would embed it.
	eval[bool](p, `(() => { const e = document.createElement("dp-membership"); e.setAttribute("seed", "7"); e.setAttribute("prefix", "att");
		document.querySelector("main").append(e); window.dpsampleBuildViews(); e.scrollIntoView(); return true })()`)
	p.waitJS(`document.querySelector("#att-plot svg") !== null`, 30*time.Second)
	if n := eval[int](p, `document.querySelectorAll("#att-plot svg circle").length`); n != 0 {
		t.Errorf("%d points before any attack", n)
	}
	for _, broken := range []bool{false, true} {
		if broken {
			p.click("att-broken")
		}
		eval[bool](p, `(() => { document.getElementById("att-verdict").textContent = ""; return true })()`)
		p.click("att-run")
		p.waitJS(`document.getElementById("att-verdict").textContent !== "" || document.getElementById("att-err").textContent !== ""`, 90*time.Second)
		if s := p.text("#att-err"); s != "" {
			t.Fatalf("broken %v: error %q", broken, s)
		}
		verdict := p.text("#att-verdict")
		want := "No point lies above the promise: the mechanism kept it"
		if broken {
			want = "lie above the promise: with its noise halved the mechanism breaks the promise it states"
		}
		if !strings.Contains(verdict, want) || !strings.Contains(verdict, "The promise at 5 false alarms in 100: at most 8.5 times in 100") {
			t.Errorf("broken %v: verdict %q, want %q", broken, verdict, want)
		}
		// Eight points and the legend's swatch, each point with its two interval bars.
		if n := eval[int](p, `document.querySelectorAll("#att-plot svg circle").length`); n != 9 {
			t.Errorf("broken %v: %d circles, want 8 points and a legend swatch", broken, n)
		}
		if n := eval[int](p, `document.querySelectorAll("#att-table tbody tr").length`); n != 8 {
			t.Errorf("broken %v: %d rows in the tests' table", broken, n)
		}
		if s := p.text("#att-status"); s != "Done." {
			t.Errorf("broken %v: status %q", broken, s)
		}
		p.shot("#att-plot", fmt.Sprintf("membership-broken-%v", broken))
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 375 {
		t.Errorf("the page is %d px wide at 375 px", w)
	}
	p.noConsoleErrors()
}
