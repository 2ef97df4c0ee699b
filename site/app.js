// Boots dpsample on the page: the Web Worker (for every computation that can
// take more than a few milliseconds) and, on the main thread, the Go UI that
// fills the page's sections. Both run the same site/dpsample.wasm, compiled once.
import { load, wasmModule } from "./dpsample.js";

const status = document.getElementById("status");
const say = (text, state) => { if (status) { status.textContent = text; if (state) status.dataset.state = state; } };

// The UI awaits this Promise (wasm/ui/remote.go) before its first remote call.
globalThis.dpsampleRemote = load();
globalThis.dpsampleRemote.catch((e) => console.error("dpsample worker:", e));

async function boot() {
  const go = new Go();
  // The same compiled module as the worker's: one download, one compile.
  const instance = await WebAssembly.instantiate(await wasmModule(), go.importObject);
  go.run(instance).then(() => {
    // main() never returns; reaching here means the runtime exited (a fatal error).
    say("The WebAssembly runtime stopped; reload the page.", "error");
    console.error("dpsample: Go runtime exited");
  });
  await globalThis.dpsampleRemote;
  say("Ready. Everything below runs on this device.", "ready");
}

boot().catch((e) => {
  say("Could not start dpsample: " + e.message, "error");
  console.error(e);
});
