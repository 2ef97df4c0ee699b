// Boots the WebAssembly module on the page's main thread: the Go program
// registers globalThis.dpsample and builds the UI into the page's sections.
// (Heavy computations go to a Web Worker; see dpsample.js.)
const status = document.getElementById("status");

async function boot() {
  const go = new Go();
  const url = new URL("dpsample.wasm", import.meta.url);
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
  go.run(instance).then(() => {
    // main() never returns; reaching here means the runtime exited (a fatal error).
    if (status) status.textContent = "The WebAssembly runtime stopped; reload the page.";
    console.error("dpsample: Go runtime exited");
  });
  if (status) { status.textContent = "Ready. Everything below runs on this device."; status.dataset.state = "ready"; }
}

boot().catch((e) => {
  if (status) { status.textContent = "Could not start dpsample: " + e.message; status.dataset.state = "error"; }
  console.error(e);
});
