// elements.js — dpsample's embeddable widgets. One tag loads everything:
//
//   <script type="module" src="site/elements.js"></script>
//   <dp-estimate dataset="penguins" epsilon="1"></dp-estimate>
//   <dp-dimension-free n="1000" rank="1" max-d="256"></dp-dimension-free>
//   <dp-bounds n="1000" d="100" rank="5"></dp-bounds>
//   <dp-trace-attack n="4" mechanism="box-exponential" s="10"></dp-trace-attack>
//   <dp-privacy-curve epsilon="1" delta="1e-5"></dp-privacy-curve>
//   <dp-median numbers="1, 2, 3, 3.5, 5, 7, 8" epsilon="1"></dp-median>
//   <dp-membership epsilon="1" delta="1e-5"></dp-membership>
//
// Every attribute is documented in docs/ELEMENTS.md and checked here, before
// anything is mounted: an element with a bad attribute shows a message naming
// the attribute and the values it takes, and mounts nothing. A valid element
// creates a <section data-view="…"> in the light DOM, copying its attributes
// as data-* (the Go UI reads them as the controls' initial values), then the
// shared WebAssembly module (main-thread UI + one worker) fills it.
// Attributes are read once, when the element is first connected.
//
// elements.js, app.js, dpsample.js, worker.js, wasm_exec.js and dpsample.wasm
// must be served from the page's own origin (see docs/ELEMENTS.md, "Hosting").
// Text a reader sees names no repository path: links go to the docs/ folder
// beside this file (the docs attribute) and to data/SOURCES.md.
// The page's Content-Security-Policy needs script-src 'self' 'wasm-unsafe-eval',
// worker-src 'self', style-src 'self', connect-src 'self'.
const here = new URL(".", import.meta.url);

if (!document.querySelector('link[data-dpsample-style]')) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("style.css", here).href;
  link.dataset.dpsampleStyle = "";
  document.head.append(link);
}

// ---- attribute rules (the same limits as the Go checks the controls apply) ----

const NUM = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INT = /^\d+$/;

const fmt = (x) => (Math.abs(x) >= 1e6 ? x.toExponential().replace("e+", "e") : String(x));

// Each rule returns an error (what the value must be) or "" if the value is fine.
const rule = {
  int: (lo, hi) => ({
    type: "integer", range: `${fmt(lo)} … ${fmt(hi)}`,
    check: (s) => (INT.test(s) && +s >= lo && +s <= hi ? "" : `an integer from ${fmt(lo)} to ${fmt(hi)}`),
  }),
  positive: () => ({
    type: "number", range: "> 0",
    check: (s) => (NUM.test(s) && +s > 0 && Number.isFinite(+s) ? "" : "a finite number > 0"),
  }),
  open01: () => ({
    type: "number", range: "(0, 1)",
    check: (s) => (NUM.test(s) && +s > 0 && +s < 1 ? "" : "a number strictly between 0 and 1"),
  }),
  between: (lo, hi) => ({
    type: "number", range: `${fmt(lo)} … ${fmt(hi)}`,
    check: (s) => (NUM.test(s) && +s >= lo && +s <= hi ? "" : `a number from ${fmt(lo)} to ${fmt(hi)}`),
  }),
  oneOf: (...vals) => ({
    type: "one of", range: vals.join(" | "),
    check: (s) => (vals.includes(s) ? "" : "one of " + vals.map((v) => `"${v}"`).join(", ")),
  }),
  numbers: (lo, hi) => ({
    type: "numbers", range: `${lo} to ${hi} numbers separated by commas`,
    check: (s) => {
      const f = s.split(/[\s,;]+/).filter((t) => t !== "");
      return f.length >= lo && f.length <= hi && f.every((t) => NUM.test(t)) ? "" : `${lo} to ${hi} numbers separated by commas`;
    },
  }),
  ident: () => ({
    type: "identifier", range: "letters, digits, - and _; starts with a letter",
    check: (s) => (/^[A-Za-z][\w-]{0,40}$/.test(s) ? "" : "a letter followed by letters, digits, - or _ (at most 41 characters)"),
  }),
  // Links only (the reader's browser opens them): any http(s) origin.
  link: () => ({
    type: "URL", range: "an http(s) folder URL, ending in /",
    check: (s) => {
      try {
        const u = new URL(s, document.baseURI);
        if (u.protocol !== "https:" && u.protocol !== "http:") return "an http: or https: URL";
        return s.endsWith("/") ? "" : "a folder URL ending in /";
      } catch { return "a URL"; }
    },
  }),
  url: () => ({
    type: "URL", range: "a folder on the page's origin, ending in /",
    check: (s) => {
      try {
        const u = new URL(s, document.baseURI);
        if (u.origin !== location.origin) return "a URL on this page's origin (" + location.origin + "): the CSP's connect-src 'self' blocks others";
        return s.endsWith("/") ? "" : "a folder URL ending in /";
      } catch { return "a URL"; }
    },
  }),
};

const MAX_INT32 = 2147483647;
// Every element takes prefix (its controls' ids) and docs (where its links to
// dpsample's documentation point: by default the docs/ folder beside this file).
const PREFIX = { prefix: rule.ident(), docs: rule.link() };
const DOCS = new URL("docs/", here).href;

// SCHEMA: element → { view, attrs: { name → rule }, cross: [(attrs) → message] }.
// Keep in step with docs/ELEMENTS.md (wasm/tools/e2e checks that every attribute
// named here is documented there).
export const SCHEMA = {
  "dp-estimate": {
    view: "estimate",
    attrs: {
      dataset: rule.oneOf("penguins", "breast-cancer", "cancer", "csv"),
      loss: rule.oneOf("l1", "l2dist", "logistic", "hinge", "lad", "quantile", "huber", "smooth-hinge", "smooth-quantile"),
      estimator: rule.oneOf("exponential", "dp-gd"),
      epsilon: rule.positive(), delta: rule.open01(), radius: rule.positive(),
      rank: rule.int(1, 100000), samples: rule.int(1, 10000), base: rule.url(),
      budget: rule.positive(), "budget-delta": rule.open01(), workers: rule.int(1, 64), "fixed-work": rule.oneOf("on", "off"), ...PREFIX,
    },
  },
  "dp-dimension-free": {
    view: "dimfree",
    attrs: {
      n: rule.int(2, 20000), rank: rule.int(1, 64), epsilon: rule.positive(), delta: rule.open01(),
      radius: rule.positive(), "max-d": rule.int(1, 100000), trials: rule.int(1, 200), ...PREFIX,
    },
    cross: [(a) => (a.rank && a["max-d"] && +a["max-d"] < +a.rank ? `max-d="${a["max-d"]}" must be ≥ rank="${a.rank}"` : "")],
  },
  "dp-bounds": {
    view: "bounds",
    attrs: {
      n: rule.int(1, MAX_INT32), d: rule.int(1, MAX_INT32), rank: rule.int(1, MAX_INT32), epsilon: rule.positive(),
      delta: rule.open01(), g: rule.positive(), radius: rule.positive(), ...PREFIX,
    },
    cross: [(a) => (+(a.rank ?? 5) > +(a.d ?? 100) ? `rank="${a.rank ?? 5}" must be ≤ d="${a.d ?? 100}"` : "")],
  },
  "dp-trace-attack": {
    view: "trace",
    attrs: {
      n: rule.int(2, 16), xi: rule.open01(), k: rule.int(1, 8), mode: rule.oneOf("tardos", "symmetric"),
      mechanism: rule.oneOf("median", "exponential", "box-exponential", "gaussian"),
      epsilon: rule.between(0.1, 1e9), s: rule.between(0.01, 1000), delta: rule.open01(),
      verify: rule.oneOf("0", "1"), ...PREFIX,
    },
  },
  "dp-privacy-curve": {
    view: "privacy",
    attrs: { epsilon: rule.positive(), delta: rule.open01(), ...PREFIX },
  },
  "dp-median": {
    view: "median",
    attrs: {
      numbers: rule.numbers(2, 12), epsilon: rule.between(0.1, 5), n: rule.int(2, 500), range: rule.positive(),
      delta: rule.open01(), ...PREFIX,
    },
    // δ must be below 1/n for every n the slider reaches (up to 500).
    cross: [(a) => (a.delta && +a.delta >= 1 / 500 ? `delta="${a.delta}" must be below 1/500 = 0.002 (n goes up to 500 and δ must be below 1/n)` : "")],
  },
  "dp-membership": {
    view: "membership",
    attrs: {
      epsilon: rule.between(0.05, 10), delta: rule.open01(), draws: rule.int(1000, 1000000), broken: rule.oneOf("0", "1"),
      seed: rule.int(0, 2 ** 53), ...PREFIX,
    },
  },
};

// Attributes any HTML element may carry; they are not copied to the section.
const GLOBAL = /^(id|class|style|hidden|title|lang|dir|tabindex|slot|part|role|translate|inert|aria-.*|data-.*|on.*)$/;

/** Returns the problems with el's attributes, one message per problem (empty if none). */
export function validate(el) {
  const spec = SCHEMA[el.localName];
  const problems = [];
  const given = {};
  for (const a of el.attributes) {
    if (GLOBAL.test(a.name)) continue;
    const r = spec.attrs[a.name];
    if (!r) {
      const names = Object.keys(spec.attrs);
      problems.push(`unknown attribute ${a.name}="${a.value}"; <${el.localName}> takes ` +
        (names.length ? names.join(", ") : "no attributes") + ".");
      continue;
    }
    const v = a.value.trim();
    const must = r.check(v);
    if (must) problems.push(`${a.name}="${a.value}" is not allowed: ${a.name} must be ${must}.`);
    else given[a.name] = v;
  }
  if (!problems.length) for (const c of spec.cross || []) { const m = c(given); if (m) problems.push(m + "."); }
  return problems;
}

// Console warnings, each text once per page: attribute problems (beside the
// message in the element) and dp-* tags that are not dpsample's.
const warned = new Set();
function warnOnce(text) {
  if (warned.has(text)) return;
  warned.add(text);
  console.warn("dpsample: " + text);
}

// Levenshtein distance, for "did you mean" on a misspelled tag.
function distance(a, b) {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

// Says, in the element itself and once in the console, that an undefined
// dp-* element in root (or root itself) is not dpsample's: a misspelled
// <dp-trace> rendered nothing and explained only in the console (issue 53
// item 7c), so a course-page author saw an empty space. The message names
// the element probably meant and lists them all. An element some other
// script defines is :defined and left alone (the page's own elements are
// looked at from its load event on, when the page's scripts have defined
// theirs); one defined later loses the message.
function warnUnknownTags(root) {
  const found = [...root.querySelectorAll(":not(:defined)")];
  if (root.matches?.(":not(:defined)")) found.push(root);
  for (const el of found) {
    const name = el.localName;
    if (!name.startsWith("dp-") || SCHEMA[name]) continue;
    // a name that begins with this one (<dp-trace> for <dp-trace-attack>), else the nearest by edits
    const near = Object.keys(SCHEMA).find((t) => t.startsWith(name)) ??
      Object.keys(SCHEMA).sort((a, b) => distance(name, a) - distance(name, b))[0];
    const all = Object.keys(SCHEMA).map((t) => "<" + t + ">").join(", ");
    warnOnce(`<${name}> is not an element of dpsample and shows nothing; did you mean <${near}>? The elements are ${all}.`);
    if (el.querySelector(":scope > .dp-message")) continue;
    message(el, [`Did you mean <${near}>? Rename the tag (its attributes can stay).`, `dpsample's elements are ${all}.`], "tag");
    customElements.whenDefined(name).then(() => el.querySelector(':scope > .dp-message[data-kind="tag"]')?.remove());
  }
}
if (document.readyState === "complete") warnUnknownTags(document);
else addEventListener("load", () => warnUnknownTags(document), { once: true });
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) warnUnknownTags(n);
}).observe(document.documentElement, { childList: true, subtree: true });

function message(el, lines, kind) {
  el.querySelector(":scope > .dp-message")?.remove();
  const box = document.createElement("div");
  box.className = "dp-message";
  box.setAttribute("role", "alert");
  box.dataset.kind = kind;
  const head = document.createElement("p");
  head.textContent = {
    attributes: `This <${el.localName}> was not started because of its attributes:`,
    tag: `<${el.localName}> is not one of dpsample's elements, so it shows nothing:`,
  }[kind] ?? "dpsample could not start completely (what runs in its background worker, or all of it, will not work):";
  box.append(head);
  const ul = document.createElement("ul");
  for (const l of lines) { const li = document.createElement("li"); li.textContent = l; ul.append(li); }
  box.append(ul);
  // Where to read more: the elements' documentation in the release's docs/ folder.
  const more = document.createElement("p");
  const a = document.createElement("a");
  a.href = DOCS + "ELEMENTS.md";
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = { attributes: "the attributes each element takes", tag: "the elements and their attributes" }[kind] ??
    "how to host dpsample's files";
  more.append("See ", a, ".");
  box.append(more);
  el.append(box);
}

// Start-up messages (site/app.js): progress goes to elements still waiting
// for the UI; a failure (which may come after the UI is built, e.g. a worker
// that cannot start) goes to every started element, above its figure.
function showBoot(text, state) {
  for (const el of document.querySelectorAll(Object.keys(SCHEMA).join(","))) {
    if (el.querySelector(":scope > .dp-message")) continue; // attribute errors stay; one boot message
    const wait = el.querySelector(":scope > .dp-loading");
    if (state === "error") {
      wait?.remove();
      message(el, [text], "boot");
      el.prepend(el.querySelector(":scope > .dp-message"));
    } else if (wait && state !== "ready") wait.textContent = text;
  }
}
addEventListener("dpsample:boot-status", (e) => showBoot(e.detail.text, e.detail.state));
// Only the elements' own loading lines: a host element with the same class is left alone.
const OWN_LOADING = Object.keys(SCHEMA).map((t) => t + " > .dp-loading").join(",");
addEventListener("dpsample:ui-ready", () => document.querySelectorAll(OWN_LOADING).forEach((p) => p.remove()));

class DPWidget extends HTMLElement {
  connectedCallback() {
    if (this.querySelector(":scope > section[data-view], :scope > .dp-message")) return;
    const problems = validate(this);
    if (problems.length) {
      message(this, problems, "attributes");
      for (const m of problems) warnOnce(`<${this.localName}> was not started: ${m}`);
      return;
    }
    const s = document.createElement("section");
    s.dataset.view = SCHEMA[this.localName].view;
    for (const a of this.attributes) if (!GLOBAL.test(a.name)) s.setAttribute("data-" + a.name, a.value.trim());
    if (!s.hasAttribute("data-base")) s.dataset.base = new URL("data/", here).href;
    if (!s.hasAttribute("data-docs")) s.dataset.docs = DOCS;
    if (globalThis.dpsampleBootError) { message(this, [globalThis.dpsampleBootError], "boot"); return; }
    if (!globalThis.dpsampleUIReady) {
      const wait = document.createElement("p");
      wait.className = "dp-loading";
      wait.setAttribute("role", "status");
      wait.textContent = "Loading the interactive figure…";
      this.append(wait);
    }
    this.append(s);
    globalThis.dpsampleBuildViews?.(); // after start-up; before it, start-up builds every section
  }
}
for (const name of Object.keys(SCHEMA)) {
  if (!customElements.get(name)) customElements.define(name, class extends DPWidget {});
}

// Boot once: wasm_exec.js defines globalThis.Go; app.js starts the worker and the UI.
if (!globalThis.dpsampleBooting) {
  globalThis.dpsampleBooting = true;
  try {
    if (!globalThis.Go) await import(new URL("wasm_exec.js", here).href);
    await import(new URL("app.js", here).href);
  } catch (e) {
    const text = `a script next to elements.js could not be loaded (${e.message}); ` +
      "app.js, dpsample.js, worker.js and wasm_exec.js must be served from this page's origin, beside elements.js";
    globalThis.dpsampleBootError = text;
    showBoot(text, "error");
    console.warn("dpsample:", e);
  }
}
