// Boots dpsample on the page: the Web Worker (for every computation that can
// take more than a few milliseconds) and, on the main thread, the Go UI that
// fills the page's sections. Both run the same site/dpsample.wasm (the page's
// module: the API and the UI), compiled once.
//
// Start-up never waits silently: #status says which stage is running, a stage
// that fails says why (naming the file), and a stage still running after
// SLOW_MS says so and keeps waiting (a slow network is not an error). Pages
// without #status (custom elements, site/elements.js) get the same messages
// through the "dpsample:boot-status" event and globalThis.dpsampleBootError.
// If this file itself cannot load, index.html's CSS-only notice (#status-stuck)
// appears after 20 s; it is hidden as soon as #status carries a data-state.
import { load, wasmModule } from "./dpsample.js";

const SLOW_MS = 15000;
// index.html's status line; a host page's own #status is never written to.
const status = document.querySelector("#status[data-dpsample-status]");
let stage = "downloading and compiling dpsample.wasm";
let finished = false;

function say(text, state) {
  if (status) {
    status.textContent = text;
    status.dataset.state = state;
  }
  if (state === "error") globalThis.dpsampleBootError = text;
  dispatchEvent(new CustomEvent("dpsample:boot-status", { detail: { text, state } }));
}

say("Loading the WebAssembly module…", "loading");

const slow = setTimeout(() => {
  if (!finished) say(`Still ${stage} after ${SLOW_MS / 1000} s. A slow connection can take this long; if nothing changes, reload the page.`, "slow");
}, SLOW_MS);

function fail(e) {
  if (finished) return;
  finished = true;
  clearTimeout(slow);
  const why = String(e && e.message || e).replace(/\.+$/, "");
  const hint = e && e.name === "SecurityError"
    ? "dpsample's files must be served from this page's own origin (see “Hosting” in dpsample's ELEMENTS.md)."
    : "Reload the page; if this stays, dpsample's files (beside app.js) may be blocked or missing.";
  say(`Could not start dpsample: ${why}. ${hint}`, "error");
  console.warn("dpsample start-up failed:", e);
}

// The UI awaits this Promise (wasm/ui/internal/kit/remote.go) before its first remote call.
globalThis.dpsampleRemote = load({ wasmURL: "dpsample.wasm" }); // not the API's own module: one download
globalThis.dpsampleRemote.catch(fail);

async function boot() {
  const go = new Go();
  // The same compiled module as the worker's: one download, one compile.
  const module = await wasmModule();
  performance.mark("dpsample:module-compiled");
  stage = "starting the worker (worker.js) and the page's interface";
  const instance = await WebAssembly.instantiate(module, go.importObject);
  performance.mark("dpsample:go-start");
  go.run(instance).then(() => {
    // main() never returns; reaching here means the runtime exited (a fatal error).
    finished = true;
    say("The WebAssembly runtime stopped; reload the page.", "error");
    console.error("dpsample: Go runtime exited");
  });
  await globalThis.dpsampleRemote;
  if (finished) return;
  finished = true;
  clearTimeout(slow);
  performance.mark("dpsample:ready");
  say("Ready. Everything below runs on this device.", "ready");
}

boot().catch(fail);
