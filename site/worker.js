// dpsample worker: runs the module load() gives it (dpsample-api.wasm, or on a
// page with the elements the page's own dpsample.wasm), so every call of the
// JS API can run off the main thread. Protocol (structured-clone messages):
//   main → worker  {type:"init", module: WebAssembly.Module}
//   worker → main  {type:"ready", version} | {type:"exited"} | {type:"fatal", message}
//   main → worker  {type:"call", id, path:"mechanism.sample", args:[…], progress:bool, signal:bool, ledger?:key}
//   worker → main  {type:"progress", id, p} | {type:"ledger", id, state} | {type:"result", id, value} | {type:"error", id, name, message}
// A call with a ledger gets opts.ledger and an onLedger that posts the
// ledger's state right after the charge, before sampling starts.
//   main → worker  {type:"abort", id}
importScripts("wasm_exec.js");

let ready = null;
const controllers = new Map();

async function start(module) {
  // For wasm/internal/pool: the shard workers of a run with workers > 1 are
  // new instances of this module running shard.js.
  self.dpsampleModule = module;
  self.dpsampleShardURL = new URL("shard.js", self.location.href).href;
  self.dpsampleAwaitShard = awaitShard;
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance).then(() => postMessage({ type: "exited" }));
  // main() registers globalThis.dpsample synchronously before it blocks.
  if (!self.dpsample) throw new Error("dpsample did not register in the worker");
  postMessage({ type: "ready", version: self.dpsample.version });
}

// awaitShard(ctl, i, old, spinMs, waitMs) waits, for wasm/internal/pool,
// until ctl[i] differs from old: it polls for up to spinMs (a shard's pass
// ends within a pass's time of the owner's, and waking a sleeping thread
// costs about a pass of 2,000 rows), then sleeps in Atomics.wait for up to
// waitMs. It returns ctl[i].
function awaitShard(ctl, i, old, spinMs, waitMs) {
  const t0 = performance.now();
  for (let k = 1; ; k++) {
    const v = Atomics.load(ctl, i);
    if (v !== old) return v;
    if ((k & 255) === 0 && performance.now() - t0 > spinMs) {
      Atomics.wait(ctl, i, old, waitMs);
      return Atomics.load(ctl, i);
    }
  }
}

function resolve(path) {
  let obj = self.dpsample, parent = null;
  for (const part of path.split(".")) {
    if (obj == null || !Object.prototype.hasOwnProperty.call(obj, part)) throw new Error(`dpsample.${path} is not a function`);
    parent = obj;
    obj = obj[part];
  }
  if (typeof obj !== "function") throw new Error(`dpsample.${path} is not a function`);
  return obj.bind(parent);
}

onmessage = async ({ data: m }) => {
  if (m.type === "init") {
    ready = start(m.module).catch((e) => postMessage({ type: "fatal", message: String(e && e.message || e) }));
    return;
  }
  if (m.type === "abort") {
    const c = controllers.get(m.id);
    if (c) c.abort();
    return;
  }
  if (m.type !== "call") return;
  await ready;
  const { id } = m;
  try {
    const fn = resolve(m.path);
    const args = m.args.slice();
    if (m.progress || m.signal || m.ledger !== undefined) {
      const ctl = new AbortController();
      controllers.set(id, ctl);
      const opts = {};
      if (m.progress) opts.onProgress = (p) => postMessage({ type: "progress", id, p: { done: p.done, total: p.total, fraction: p.fraction } });
      if (m.signal) opts.signal = ctl.signal;
      if (m.ledger !== undefined) {
        opts.ledger = m.ledger;
        opts.onLedger = (state) => postMessage({ type: "ledger", id, state });
      }
      args[m.optsIndex] = opts;
    }
    const value = await fn(...args);
    postMessage({ type: "result", id, value });
  } catch (e) {
    postMessage({ type: "error", id, name: (e && e.name) || "Error", message: String((e && e.message) || e) });
  } finally {
    controllers.delete(id);
  }
};
