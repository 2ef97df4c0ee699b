//go:build !js

package e2e

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// catsCSV is a synthetic 600-row table with text columns (issue 42): a
// region of three labels, 200 rows each (far above the label threshold of a
// describe({csv}) release at ε = 1: about 90 rows for 5 columns), an ID
// column whose 600 labels each occur once (none can clear it), two numbers
// and a yes/no target that depends on the region and the age. The release
// is not seeded (a seed is refused under a ledger): a region is missed with
// probability about Φ̄(6) and some ID label kept with at most 600·TV/d <
// 10⁻⁴ (core/domain's TestOneRowLabelSurvival), the tests' false-failure rate.
func catsCSV() string { return catsCSVN(600) }

// catsCSVN is catsCSV with n rows (n/3 a region, n ID labels).
func catsCSVN(n int) string {
	r := rand.New(rand.NewPCG(42, 4))
	var b strings.Builder
	b.WriteString("region,id,age,income,bought\n")
	regions := []string{"north", "south", "east"}
	for i := 0; i < n; i++ {
		reg := regions[i%3]
		age := 20 + r.IntN(50)
		p := 0.2 + 0.5*float64(i%3)/2 + 0.004*float64(age-45)
		bought := "no"
		if r.Float64() < p {
			bought = "yes"
		}
		fmt.Fprintf(&b, "%s,u%05d,%d,%d,%s\n", reg, i, age, 20000+r.IntN(80000), bought)
	}
	return b.String()
}

// setupCats puts catsCSV in the form as a logistic regression of bought
// (positive "yes", the task confirmed) with the named features ticked.
func (p *page) setupCats(features ...string) {
	p.t.Helper()
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.keepExports()
	p.setValue("est-data", "csv")
	p.setValue("est-csv", catsCSV())
	p.featureBoxes(5) // no target yet: every column is offered (issue 53 item 1)
	p.setValue("est-loss", "logistic")
	p.chooseTarget("bought")
	p.checkFeatures(features...)
	p.setValue("est-positive", "yes")
}

// coefNames are the rows of the result's coefficient table.
func (p *page) coefNames() []string {
	p.t.Helper()
	var out []string
	for _, r := range p.coefTable("#est-summary > table.coef") {
		out = append(out, r.Name)
	}
	return out
}

// TestTextFeatureFoundPrivately (issue 42 items 4 and 6): a text column can
// be ticked as a feature; with its categories and a range blank, the cost
// is said before anything is spent, and the first Run charges one release
// (describe({csv}): the range and the categories together) and then the
// model. The coefficient table and chart have one row per category, named
// region=label; the statement and the export name the categories and the
// release. An ID-like column ticked with it finds no category ("no category
// has enough rows"), is left out, and the next Run charges no second
// release for it — nor does a Run after a reload (the lists are remembered
// per header, and the table's ledger still holds their release). A typed list then wins over the found one and costs
// nothing (a label that never occurs is fine); an empty typed list is an
// error naming categories, before anything is spent.
func TestTextFeatureFoundPrivately(t *testing.T) {
	p := newPage(t, "/")
	p.setupCats("region", "id", "age")
	st := eval[map[string]bool](p, `Object.fromEntries([...document.querySelectorAll("#est-features input")].map(c => [c.value, c.disabled]))`)
	if st["region"] || st["id"] {
		t.Fatalf("text columns not offered as features: disabled %v", st)
	}
	if _, ok := st["bought"]; ok {
		t.Errorf("the target is offered as a feature: %v", st)
	}
	if s := p.text("#est-private-cost"); !strings.Contains(s, "Blank ranges (age) and the categories of region, id will be found privately when you press Run") ||
		!strings.Contains(s, "ε = 1") || !strings.Contains(s, "one release describes all 5 columns") {
		t.Errorf("cost line: %q", s)
	}
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(2) // ranges and categories in one release, then the model
	// Reference coding (issue 53 item 2): the most frequent released region
	// is the reference, with no row; the two others compare with it.
	names := p.coefNames()
	ref := checkRegionRows(t, names)
	cats := eval[[]string](p, `[...document.querySelectorAll("#est-plot svg text.category")].map(t => t.textContent)`)
	if !strings.Contains(strings.Join(cats, ","), "region=") || strings.Contains(strings.Join(cats, ","), "region="+ref) {
		t.Errorf("chart rows %q: want the regions other than the reference %q", cats, ref)
	}
	if s := p.text(`#est-ranges [data-private-cat="region"]`); !strings.Contains(s, "found privately (ε = 1)") || !strings.Contains(s, "north") {
		t.Errorf("region's note: %q", s)
	}
	if s := p.text(`#est-ranges [data-private-cat="id"]`); !strings.Contains(s, "no category has enough rows") {
		t.Errorf("id's note: %q", s)
	}
	s := p.text("#est-statement")
	for _, w := range []string{"Text features one-hot coded from categories found privately by a separate (ε = 1,", "region (", "north", "south", "east",
		ref + " = reference", "Left out: id — no category has enough rows", "Each is coded against its reference label"} {
		if !strings.Contains(s, w) {
			t.Errorf("statement lacks %q: %q", w, s)
		}
	}
	exp := eval[string](p, `window.lastExport.text()`)
	if !strings.Contains(exp, `"categories"`) || !strings.Contains(exp, `"source": "private"`) || !strings.Contains(exp, `"release"`) ||
		!strings.Contains(exp, `"reference": "`+ref+`"`) {
		t.Errorf("export lacks the categories and their release: %.600s", exp)
	}
	p.shot("#estimate", "categories-found-privately")
	p.shot("#est-ranges", "categories-fields")

	// Run again: neither the categories (the ID column's none included) nor the range is paid for twice.
	p.runEstimate()
	p.ledgerReleases(3)

	// After a reload the same table's found lists and range are remembered
	// and still held by its ledger: the next Run charges the model only.
	p.reloadPage()
	p.keepExports()
	p.setValue("est-data", "csv")
	p.setValue("est-csv", catsCSV())
	p.featureBoxes(5)
	p.setValue("est-loss", "logistic")
	p.chooseTarget("bought")
	p.checkFeatures("region", "id", "age")
	p.waitJS(`(document.querySelector('#est-ranges [data-private-cat="region"]')?.textContent ?? "").includes("found privately")`, 10*time.Second)
	if s := eval[string](p, `document.getElementById("est-private-cost")?.textContent ?? ""`); s != "" {
		t.Errorf("after a reload the cost line still offers to find what is held: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(4)
	if r := checkRegionRows(t, p.coefNames()); r != ref {
		t.Errorf("reference after a reload %q, want the one the release gave, %q", r, ref)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "categories found privately by a separate (ε = 1,") || !strings.Contains(s, "Left out: id") {
		t.Errorf("statement after a reload: %q", s)
	}

	// A typed list wins and costs nothing; a label that never occurs is fine.
	p.setValue("est-cat-0", "north, south, nowhere")
	p.runEstimate()
	p.ledgerReleases(5) // the model only
	names = p.coefNames()
	if strings.Join(names, ",") != "region=south (vs north),region=nowhere (vs north),age,intercept" {
		t.Errorf("coefficient rows with a typed list (its first label the reference): %q", names)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "categories typed (public, no budget): region (north = reference, south, nowhere)") {
		t.Errorf("statement with a typed list: %q", s)
	}
	if exp := eval[string](p, `window.lastExport.text()`); !strings.Contains(exp, `"source": "typed"`) || !strings.Contains(exp, `"nowhere"`) ||
		!strings.Contains(exp, `"reference": "north"`) {
		t.Errorf("export with a typed list: %.600s", exp)
	}

	// An empty typed list is an error naming categories; nothing is spent.
	p.setValue("est-cat-0", " , ")
	p.clickRun()
	if s := p.text("#est-ranges-err"); !strings.HasPrefix(s, "categories.region must be a non-empty list of labels") {
		t.Errorf("empty list: %q", s)
	}
	p.ledgerReleases(5)
	p.noConsoleErrors()
}

// checkRegionRows checks catsCSV's coefficient rows with region's
// categories found privately (every region found: 200 rows each, far above
// the threshold) and coded against a reference (issue 53 item 2): two rows
// "region=X (vs R)" naming the same reference R, which has no row of its own,
// then age and the intercept. It returns R.
func checkRegionRows(t *testing.T, names []string) string {
	t.Helper()
	re := regexp.MustCompile(`^region=(north|south|east) \(vs (north|south|east)\)$`)
	if len(names) != 4 || names[2] != "age" || names[3] != "intercept" {
		t.Errorf("coefficient rows %q, want two regions against the reference, age and the intercept", names)
		return ""
	}
	m0, m1 := re.FindStringSubmatch(names[0]), re.FindStringSubmatch(names[1])
	if m0 == nil || m1 == nil || m0[2] != m1[2] || m0[1] == m1[1] || m0[1] == m0[2] || m1[1] == m1[2] {
		t.Errorf("coefficient rows %q: want region=X (vs R) for the two regions other than one reference R", names)
		return ""
	}
	return m0[2]
}

// TestTextFeatureTyped (issue 42 item 4): with every range and category
// typed, the first Run charges the model only; the one-hot columns are named
// by the typed labels. The target is never one-hot coded: a text column
// ticked as a feature and then chosen as the target leaves the features,
// and the run codes it as the ±1 target only.
func TestTextFeatureTyped(t *testing.T) {
	p := newPage(t, "/")
	p.setupCats("region", "age")
	p.setValue("est-lo-1", "18")
	p.setValue("est-hi-1", "90")
	if s := p.text("#est-private-cost"); !strings.HasPrefix(s, "The categories of region will be found privately") {
		t.Errorf("cost line with the range typed: %q", s)
	}
	p.setValue("est-cat-0", "east,north")
	if s := p.text("#est-private-cost"); !strings.HasPrefix(s, "Nothing is left to find") {
		t.Errorf("cost line with everything typed: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(1)
	if names := p.coefNames(); strings.Join(names, ",") != "region=north (vs east),age,intercept" {
		t.Errorf("coefficient rows %q, want north against the first typed label, east", names)
	}
	if s := p.text("#est-declared"); !strings.Contains(s, "region=north one-hot 0/1") || strings.Contains(s, "region=east") || !strings.Contains(s, "age [18, 90]") {
		t.Errorf("declarations line: %q", s)
	}

	// region becomes the target: it leaves the features and is not one-hot coded.
	p.setValue("est-target", "region")
	p.waitJS(`![...document.querySelectorAll("#est-features input")].some(c => c.value === "region")`, 5*time.Second)
	p.setValue("est-positive", "north")
	p.runEstimate()
	p.ledgerReleases(2)
	for _, n := range p.coefNames() {
		if strings.HasPrefix(n, "region=") {
			t.Errorf("the target was one-hot coded: rows %q", p.coefNames())
		}
	}
	if exp := eval[string](p, `window.lastExport.text()`); strings.Contains(exp, `"categories"`) {
		t.Errorf("export names categories for a run without text features: %.400s", exp)
	}
	p.noConsoleErrors()
}

// TestTextFeatureIDColumn (issue 42 item 6): a 6,000-row table, held by the
// page out of the box (parsed and described in the worker), with an ID
// column of 6,000 distinct labels ticked beside a typed region list and a
// typed range. The first Run charges one describe({csv}) release, which
// finds no category for the ID column: it says "no category has enough
// rows", the model runs without it (one-hot columns from the typed list),
// and the next Run charges the model only, as does a Run after a reload.
func TestTextFeatureIDColumn(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.paste("est-csv", strconv.Quote(catsCSVN(6000)))
	p.waitJS(`document.getElementById("est-csv-held").textContent.includes("is loaded") && document.querySelectorAll("#est-features input").length === 5`, 60*time.Second)
	p.setValue("est-loss", "logistic")
	p.chooseTarget("bought")
	p.checkFeatures("region", "id", "age")
	p.setValue("est-positive", "yes")
	p.setValue("est-cat-0", "north,south,east")
	p.setValue("est-lo-2", "18")
	p.setValue("est-hi-2", "90")
	if s := p.text("#est-private-cost"); !strings.HasPrefix(s, "The categories of id will be found privately") {
		t.Errorf("cost line: %q", s)
	}
	p.ledgerReleases(0)
	p.runEstimate()
	p.ledgerReleases(2) // the categories (none for id), then the model
	if s := p.text(`#est-ranges [data-private-cat="id"]`); !strings.Contains(s, "no category has enough rows") {
		t.Errorf("id's note: %q", s)
	}
	if names := p.coefNames(); strings.Join(names, ",") != "region=south (vs north),region=east (vs north),age,intercept" {
		t.Errorf("coefficient rows %q", names)
	}
	if s := p.text("#est-statement"); !strings.Contains(s, "Left out: id — no category has enough rows") || !strings.Contains(s, "region (north = reference, south, east)") {
		t.Errorf("statement: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(3) // not charged a second time for id

	// After a reload, id's empty list is remembered and, once the table's
	// ledger is known, said again; the cost line offers nothing and Run
	// charges the model only.
	p.reloadPage()
	p.setValue("est-data", "csv")
	p.paste("est-csv", strconv.Quote(catsCSVN(6000)))
	p.waitJS(`document.getElementById("est-csv-held").textContent.includes("is loaded") && document.querySelectorAll("#est-features input").length === 5`, 60*time.Second)
	p.setValue("est-loss", "logistic")
	p.chooseTarget("bought")
	p.checkFeatures("region", "id", "age")
	p.waitJS(`(document.querySelector('#est-ranges [data-private-cat="id"]')?.textContent ?? "").includes("no category has enough rows")`, 10*time.Second)
	if s := eval[string](p, `document.getElementById("est-private-cost")?.textContent ?? ""`); s != "" {
		t.Errorf("after a reload the cost line still offers to find what is held: %q", s)
	}
	p.runEstimate()
	p.ledgerReleases(4)
	p.noConsoleErrors()
}
