// elements.js — dpsample's embeddable widgets. One tag loads everything:
//
//   <script type="module" src="site/elements.js"></script>
//   <dp-estimate dataset="penguins" epsilon="1"></dp-estimate>
//   <dp-dimension-free n="1000" rank="1" max-d="256"></dp-dimension-free>
//   <dp-bounds n="1000" d="100" rank="5"></dp-bounds>
//   <dp-trace-attack n="4" mechanism="box-exponential" s="10"></dp-trace-attack>
//
// Each element creates a <section data-view="…"> in the light DOM, copying its
// attributes as data-* (the Go UI reads them as defaults), then the shared
// WebAssembly module (main thread UI + one worker) fills it. The page's
// Content-Security-Policy needs script-src 'self' 'wasm-unsafe-eval',
// worker-src 'self', style-src 'self', connect-src 'self'.
const here = new URL(".", import.meta.url);

if (!document.querySelector('link[data-dpsample-style]')) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("style.css", here).href;
  link.dataset.dpsampleStyle = "";
  document.head.append(link);
}

const VIEWS = { "dp-estimate": "estimate", "dp-dimension-free": "dimfree", "dp-bounds": "bounds", "dp-trace-attack": "trace" };

class DPWidget extends HTMLElement {
  connectedCallback() {
    if (this.querySelector(":scope > section[data-view]")) return;
    const s = document.createElement("section");
    s.dataset.view = VIEWS[this.localName];
    for (const a of this.attributes) s.setAttribute("data-" + a.name, a.value);
    if (!s.hasAttribute("data-base")) s.dataset.base = new URL("data/", here).href;
    this.append(s);
    globalThis.dpsampleBuildViews?.(); // after start-up; before it, start-up builds every section
  }
}
for (const name of Object.keys(VIEWS)) {
  if (!customElements.get(name)) customElements.define(name, class extends DPWidget {});
}

// Boot once: wasm_exec.js defines globalThis.Go; app.js starts the worker and the UI.
if (!globalThis.dpsampleBooting) {
  globalThis.dpsampleBooting = true;
  if (!globalThis.Go) await import(new URL("wasm_exec.js", here).href);
  await import(new URL("app.js", here).href);
}
