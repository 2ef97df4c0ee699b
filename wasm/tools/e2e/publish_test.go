//go:build !js

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpsample/dpsample/core/dataset/gen"
)

// Issue 53 (a result a person can publish): items 3, 6 and 7c–d.

// priceCSV is a generated price list (core/dataset/gen.PriceList: carat,
// cut, color, clarity → price, 300 … 19,000, skewed): the shape of issue
// 53's diamonds, which stay reserved.
func priceCSV(n int) string { return gen.PriceList(n, 53).CSV() }

// number reads the first number after prefix in s (thousands without
// separators, as the page writes them).
func number(t *testing.T, s, prefix string) float64 {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(prefix) + `\s*(-?[0-9.]+(?:e[-+]?[0-9]+)?)`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no number after %q in %q", prefix, s)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEstimateComparisonPriceList (issue 53 item 3): a regression of price
// on carat, cut, color and clarity of a generated 3,000-row price list,
// with the ranges a private search finds for such a table typed in one line
// (price: 0..32768) and the text features' categories found privately, run
// from the page: the comparison fitted without privacy is converged (the
// disclosure says "no size limit" and gives its stopping tolerance), its
// mean absolute error is below the median's (on main the ball-confined fit
// was worse than the median: 10,631 against 2,808 on diamonds), the words
// compare the private model with it and with the trivial answer on a
// stated scale, and never say "a little".
func TestEstimateComparisonPriceList(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", priceCSV(3000))
	p.waitJS(`[...document.getElementById("est-target").options].some(o => o.value === "price")`, 10*time.Second)
	p.selectValue("est-target", "price") // which column to predict: asked first (issue 53 item 1)
	p.waitJS(`document.querySelectorAll("#est-features input").length === 4`, 10*time.Second)
	p.checkFeatures("carat", "cut", "color", "clarity")
	p.typeInto("est-ranges-line", "carat: 0..5, price: 0..32768")
	p.click("est-ranges-apply")
	p.waitJS(`document.getElementById("est-ranges-line-msg").textContent.includes("Applied 2 ranges")`, 5*time.Second)
	p.typeInto("est-epsilon", "2")
	p.confirmTask()
	p.runEstimate()
	excess, how := p.text("#est-excess > p"), p.text("#est-excess details.excess-how")
	triv := p.text("#est-trivial")
	t.Logf("comparison: %s\n%s\n%s", excess, how, triv)
	if strings.Contains(excess+triv, "a little") || !regexp.MustCompile(`, (as low as|close to \(|[0-9.]+ % above|well above \(|far above \()`).MatchString(excess) {
		t.Errorf("the verdict of %q is not on the stated scale", excess)
	}
	for _, w := range []string{"no size limit", "within the stopping tolerance", "root mean square", "“close to”", "“far above”"} {
		if !strings.Contains(how, w) {
			t.Errorf("the disclosure lacks %q: %q", w, how)
		}
	}
	median := number(t, triv, "for every row is off by")
	fit := number(t, triv, "The non-private fit (the comparison, not released) is off by")
	if !(fit < 0.7*median) {
		t.Errorf("the non-private fit is off by %v, the median by %v: the comparison is no better than the trivial answer", fit, median)
	}
	if !regexp.MustCompile(`The private model is (close to|below|far below) the non-private fit: it keeps -?[0-9.]+ % of the non-private fit's improvement|The private model is no better than the trivial answer`).MatchString(triv) {
		t.Errorf("no share of the improvement in %q", triv)
	}
	p.shot("#est-excess", "comparison-price-list")
	p.noConsoleErrors()
}

// promiseIn reads the promise's number from a sentence "… at most N times
// in 100 …".
func promiseIn(t *testing.T, s string) string {
	t.Helper()
	m := regexp.MustCompile(`at most ([0-9.]+) times in 100`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no promise in %q", s)
	}
	return m[1]
}

// TestPromiseOneNumber (issue 53 item 6): at ε = 1, δ = 10⁻⁵ the promise —
// how often the best attacker catches a person while wrongly accusing 5 in
// 100 — is one number wherever it is printed: <dp-membership>'s line above
// its plot, its verdict after a seeded attack (which labels the measured
// rates as measured), and the estimate page's sentence under ε (typed) and
// in the result's statement after a run (Algorithm 1, exact: no sampler
// slack). At this setting it is 8.43 % rounded up to 8.5; on main the
// estimate page said 9 and the verdict 9.2.
func TestPromiseOneNumber(t *testing.T) {
	m := openPage(t, "/lesson.html", 1000, 900)
	m.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	m.buildAll(60 * time.Second)
	header := promiseIn(t, m.text("#membership-promise"))
	eval[bool](m, `(() => { const e = document.createElement("dp-membership"); e.setAttribute("seed", "7"); e.setAttribute("prefix", "att");
		e.setAttribute("draws", "5000"); document.querySelector("main").append(e); window.dpsampleBuildViews(); e.scrollIntoView(); return true })()`)
	m.waitJS(`document.getElementById("att-run") !== null`, 30*time.Second)
	m.typeInto("att-epsilon", "1")
	m.typeInto("att-delta", "1e-5")
	m.click("att-run")
	m.waitJS(`document.getElementById("att-verdict").textContent !== "" || document.getElementById("att-err").textContent !== ""`, 120*time.Second)
	verdict := m.text("#att-verdict")
	if !regexp.MustCompile(`caught the person — measured: [0-9.]+ in 100 \[[0-9.]+, [0-9.]+\]`).MatchString(verdict) ||
		!strings.Contains(verdict, "(false alarms measured: ") {
		t.Errorf("verdict %q does not label the measured rates", verdict)
	}
	inVerdict := promiseIn(t, verdict)
	m.noConsoleErrors()

	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	p.setValue("est-estimator", "exponential")
	p.typeInto("est-epsilon", "1")
	p.typeInto("est-delta", "1e-5")
	p.waitJS(`document.getElementById("est-eps-words").textContent.includes("times in 100")`, 5*time.Second)
	before := promiseIn(t, p.text("#est-eps-words"))
	p.runEstimate()
	after := promiseIn(t, p.text("#est-statement"))
	t.Logf("membership line %s, verdict %s; estimate before the run %s, its result %s", header, inVerdict, before, after)
	if header != "8.5" || inVerdict != header || before != header || after != header {
		t.Errorf("the promise at ε = 1, δ = 1e-5 reads %s (membership), %s (its verdict), %s (estimate, before the run), %s (the result): want 8.5 everywhere",
			header, inVerdict, before, after)
	}
	p.noConsoleErrors()
}

// TestElementUnknownTag (issue 53 item 7c): a course page that writes
// <dp-trace> — the obvious name of <dp-trace-attack> — sees, in its place,
// why it shows nothing and which element was meant, with a link to the
// elements' documentation (before, the page showed nothing and only the
// console said why); a dp-* element another script defines later loses
// the message; dpsample's own elements beside it still build.
func TestElementUnknownTag(t *testing.T) {
	p := newPage(t, "/embed.html")
	p.waitJS(`window.dpsampleUIReady === true`, 60*time.Second)
	eval[bool](p, `(() => { const h = document.createElement("div"); h.id = "course";
		h.innerHTML = '<dp-trace n="4" id="typo"></dp-trace><dp-later id="later"></dp-later><dp-median id="ok"></dp-median>';
		document.querySelector("main").prepend(h); return true })()`)
	p.waitJS(`document.querySelector("#typo > .dp-message") !== null && document.querySelector("#later > .dp-message") !== null`, 10*time.Second)
	shown := eval[string](p, `document.getElementById("typo").innerText`)
	for _, w := range []string{"<dp-trace> is not one of dpsample's elements, so it shows nothing", "Did you mean <dp-trace-attack>?",
		"<dp-membership>", "the elements and their attributes"} {
		if !strings.Contains(shown, w) {
			t.Errorf("<dp-trace> shows %q, without %q", shown, w)
		}
	}
	if h := eval[float64](p, `document.getElementById("typo").getBoundingClientRect().height`); h < 40 {
		t.Errorf("the message in <dp-trace> is %.0f px high: not visible", h)
	}
	if href := eval[string](p, `document.querySelector("#typo .dp-message a").href`); !strings.HasSuffix(href, "/ELEMENTS.md") {
		t.Errorf("the message links to %q", href)
	}
	if w := p.warningsWith("<dp-trace>"); len(w) != 1 {
		t.Errorf("console warnings about <dp-trace>: %q, want one", w)
	}
	eval[bool](p, `(customElements.define("dp-later", class extends HTMLElement {}), true)`)
	p.waitJS(`document.querySelector("#later > .dp-message") === null`, 5*time.Second)
	p.buildAll(30 * time.Second)
	p.waitJS(`document.querySelector("#ok section[data-built]") !== null`, 30*time.Second)
	p.shot("#course", "unknown-tag")
	p.noConsoleErrors()
}

// TestDistPythonServer (issue 53 item 7d): the release's plain-server
// instructions. A course page and the module served by Python's own
// http.server load (the loader cancels the raw module's download at its
// headers and fetches the .gz); the server then prints an exception for
// the cancelled request, and the instructions name that exception and say
// it is harmless.
func TestDistPythonServer(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed for this test (Debian: apt-get install python3)")
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "site"), filepath.Join(dir, "site")); err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(fmt.Sprintf(coursePage, "site", ""), "<dp-estimate epsilon=\"1\"></dp-estimate>", "", 1)
	if err := os.WriteFile(filepath.Join(dir, "course.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv := exec.Command(py, "-u", "-m", "http.server", strconv.Itoa(port), "--bind", "127.0.0.1", "--directory", dir)
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	var mu sync.Mutex
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
		}
		io.Copy(io.Discard, stderr)
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/course.html", port)
	for i := 0; ; i++ { // the server is up
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		} else if i == 100 {
			t.Fatalf("python3 -m http.server did not start: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	p := openURL(t, url)
	p.waitJS(`window.dpsampleUIReady === true`, 90*time.Second)
	p.buildAll(60 * time.Second)
	p.waitJS(`document.querySelector("dp-privacy-curve section[data-built] svg") !== null`, 20*time.Second)
	time.Sleep(500 * time.Millisecond) // the server writes its log
	mu.Lock()
	out := log.String()
	mu.Unlock()
	t.Logf("python3 -m http.server printed:\n%s", out)
	if !strings.Contains(out, `"GET /site/dpsample.wasm.gz HTTP/1.1" 200`) {
		t.Errorf("the loader did not fetch the module's .gz from Python's server")
	}
	var seen string
	for _, e := range []string{"ConnectionResetError", "BrokenPipeError"} {
		if strings.Contains(out, e) {
			seen = e
		}
	}
	if seen == "" {
		t.Fatalf("Python's server printed no exception for the cancelled download: the instructions' warning is stale")
	}
	elements, err := os.ReadFile(filepath.Join(root, "docs", "ELEMENTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "wasm", "tools", "dist", "docs.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string]string{"docs/ELEMENTS.md": string(elements), "the release's README (wasm/tools/dist/docs.go)": string(readme)} {
		if !strings.Contains(doc, seen) || !strings.Contains(doc, "harmless") {
			t.Errorf("%s does not name %s as harmless", name, seen)
		}
	}
	p.noConsoleErrors()
}

// TestTaskPromptNames (issue 53 item 7a): the task a file suggests is
// named in the prompt that asks to confirm it as the Task list names it —
// "regression: smooth median (fast)", not the API's "smooth-quantile" —
// so a newcomer finds it in the list (names.TaskWords; the list's labels
// are names.LossLabel). Needs wasm/ui/estimate's view.go (lossOptions) and
// its form's press.go (checkTask) to use them.
func TestTaskPromptNames(t *testing.T) {
	p := newPage(t, "/")
	p.waitJS(`window.dpsampleUIReady === true`, 30*time.Second)
	eval[bool](p, `(localStorage.clear(), true)`)
	p.setValue("est-data", "csv")
	p.setValue("est-csv", fieldCSV())
	p.waitJS(`[...document.getElementById("est-target").options].some(o => o.value === "yield_t")`, 10*time.Second)
	p.selectValue("est-target", "yield_t")
	p.waitJS(`document.querySelectorAll("#est-features input").length === 3`, 5*time.Second)
	p.typeInto("est-ranges-line", "rain_mm: 0..1500, temp_c: -10..40, yield_t: 0..12")
	p.click("est-ranges-apply")
	p.clickRun()
	label := eval[string](p, `document.getElementById("est-loss").selectedOptions[0].textContent`)
	prompt := p.text("#est-err")
	t.Logf("list: %q; prompt: %q", label, prompt)
	if !strings.Contains(prompt, "Check the task first: “"+label) || strings.Contains(prompt, "smooth-quantile") {
		t.Errorf("the prompt %q does not name the task as the list does (%q)", prompt, label)
	}
	if label != "regression: smooth median (fast)" {
		t.Errorf("the list's label %q", label)
	}
}
