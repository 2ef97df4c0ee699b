// dpsample.js — the ES module entry point of dpsample.
//
//   import { load } from "./site/dpsample.js";
//   const dp = await load();
//   const s = await dp.privacy.calibrate(1, 1e-5);
//   const res = await dp.mechanism.sample(req, { onProgress: p => …, signal: ac.signal });
//
// load() compiles the API's module once and starts a Web Worker running it;
// the returned object has the names of globalThis.dpsample (privacy, mechanism,
// fingerprint, lowerbound, bounds, data), each returning a Promise and running
// in the worker, so the page never freezes. Progress arrives as onProgress
// calls; an AbortSignal cancels: the run stops cooperatively at its next chunk
// (well under 200 ms), and if the worker has not answered within `hardCancelMs`
// it is terminated and respawned. If the Go runtime ever exits, the worker is
// respawned and pending calls reject. If the worker cannot start at all (its
// script blocked or missing, or no "ready" within `startTimeoutMs`), load()
// rejects with a message naming the worker's URL instead of waiting forever.
//
// Ledgers (dpsample.ledger, docs/API.md "One budget per table") live in the
// worker. The loader keeps a copy of every ledger state it sees — from
// ledger calls, from each sample's result, and from the worker's "charged"
// message, which comes before sampling starts — and restores them into a
// replaced worker before any other call reaches it, so a hard cancel or a
// runtime crash never resets a budget. A ledger that cannot be restored there
// is never replaced by a fresh one: calls that would open, read, restore or
// charge it reject, naming the way out — ledger.reset(key, {epsilon, delta}),
// which starts it afresh, forgetting its releases.

//
// Two modules, built from the same Go program (wasm/main.go): dpsample.wasm,
// the page's (the JS API and the Go UI of the elements; the page's main
// thread and its worker share it), and dpsample-api.wasm, the JS API alone
// (≈ 35 % fewer bytes). load() starts dpsample-api.wasm, unless this realm has
// already fetched dpsample.wasm for the elements: then it shares that one.
// Either runs every call of the API the same way.

const here = new URL(".", import.meta.url);
const PAGE_MODULE = "dpsample.wasm";
const API_MODULE = "dpsample-api.wasm";
const compiled = new Map(); // URL → Promise of its WebAssembly.Module

function compile(wasmURL) {
  const key = wasmURL.href;
  if (!compiled.has(key)) {
    compiled.set(key, fetchModule(wasmURL).catch((e) => {
      compiled.delete(key);
      throw new Error(`the WebAssembly module ${wasmURL} could not be fetched or compiled (${e.message}); ` +
        "it must be on this page's origin, served as application/wasm");
    }));
  }
  return compiled.get(key);
}

// fetchModule compiles the module while it downloads. A server that
// compresses it (Content-Encoding br or gzip: the dev server, nginx
// gzip_static, most hosting services) is used as is. A plain static server
// (python3 -m http.server, a bare file server) would send all of it raw, ≈ 5×
// the bytes of its gzip: then, as soon as the response's headers show no
// encoding, that download is cancelled and the gzip copy beside it
// (dpsample.wasm.gz, which a release ships) is fetched and decompressed by the
// browser (DecompressionStream; Chromium has no "br" there). Whatever fails on
// that path (no .gz, no DecompressionStream, a corrupt copy) falls back to
// the raw module. Cancelled at its headers, the raw response has sent none
// of its body: one download whatever the server. A page that preloads the
// module (<link rel="preload" as="fetch"> of this URL) gets the preloaded
// response as it comes, compressed or not: the preload started that
// download before this fetch could see its headers (4.4 of 7.4 MB on
// loopback), so fetching the .gz as well made two downloads (issue 45 item
// 8). dpsample's pages do not preload it. See docs/ELEMENTS.md, "Hosting",
// for the measured times.
async function fetchModule(wasmURL) {
  const ctl = new AbortController();
  const res = await fetch(wasmURL, { signal: ctl.signal });
  if (!res.ok || res.headers.get("content-encoding") || typeof DecompressionStream !== "function" || preloaded(wasmURL)) {
    return WebAssembly.compileStreaming(res);
  }
  ctl.abort(); // the raw bytes: stop their download before it takes the bandwidth
  try {
    const gz = await fetch(wasmURL + ".gz");
    if (!gz.ok) throw new Error(`${gz.status}`);
    const body = await gunzipIfGzip(gz.body);
    return await WebAssembly.compileStreaming(new Response(body, { headers: { "Content-Type": "application/wasm" } }));
  } catch (e) {
    console.info(`dpsample: ${wasmURL}.gz not used (${e.message}); fetching the uncompressed module`);
    return WebAssembly.compileStreaming(fetch(wasmURL));
  }
}

// preloaded reports whether this document preloads url for fetch()
// (<link rel="preload" as="fetch" href=url>); false in a worker.
function preloaded(url) {
  if (typeof document === "undefined") return false;
  for (const l of document.querySelectorAll('link[rel~="preload"][as="fetch"]')) {
    if (l.href === url.href) return true;
  }
  return false;
}

// gunzipIfGzip decompresses a stream that starts with gzip's magic bytes and
// passes any other through: a server that labels .gz files with
// Content-Encoding has the browser decompress them already.
async function gunzipIfGzip(stream) {
  const reader = stream.getReader();
  let head = new Uint8Array(0);
  let done = false;
  while (head.length < 2 && !done) {
    const r = await reader.read();
    done = r.done;
    if (r.value) head = head.length ? new Uint8Array([...head, ...r.value]) : r.value;
  }
  const rest = new ReadableStream({
    start(c) { if (head.length) c.enqueue(head); if (done) c.close(); },
    async pull(c) { const r = await reader.read(); if (r.done) c.close(); else c.enqueue(r.value); },
    cancel(why) { return reader.cancel(why); },
  });
  return head[0] === 0x1f && head[1] === 0x8b ? rest.pipeThrough(new DecompressionStream("gzip")) : rest;
}

function abortError(msg) {
  const e = new Error(msg || "the run was cancelled (AbortSignal)");
  e.name = "AbortError";
  return e;
}

// Calls whose last argument carries {onProgress, signal} (or a bare progress function).
const RUNS = { "mechanism.sample": 1, "mechanism.membership": 1, "describe": 1, "lowerbound.run": 1, "demo.dimensionFree": 1, "data.profileCSV": 2, "data.parseCSV": 2, "_test.spin": 1 };
// The fields those options may have (the Go side rejects others; the loader
// must too, since it does not forward the object: a typo such as {ledgr: key}
// would otherwise run without the budget).
const RUN_FIELDS = { "mechanism.sample": ["ledger", "onLedger", "onProgress", "signal"], "describe": ["ledger", "onLedger"] };
const RUN_DEFAULT_FIELDS = ["onProgress", "signal"];

const NAMES = {
  privacy: ["delta", "calibrate", "epsilon", "tradeoff", "catch"],
  mechanism: ["plan", "sample", "membership"],
  ledger: ["open", "get", "reset", "restore"],
  fingerprint: ["code", "rows", "trace"],
  lowerbound: ["run"],
  bounds: ["table"],
  data: ["parseCSV", "profileCSV", "tableKey"],
  demo: ["dimensionFree"],
};

class Runtime {
  constructor(module, opts) {
    this.module = module;
    this.hardCancelMs = opts.hardCancelMs ?? 1000;
    this.startTimeoutMs = opts.startTimeoutMs ?? 20000;
    this.started = false; // a worker has reported "ready" at least once
    this.workerURL = opts.workerURL;
    this.pending = new Map();
    this.ledgers = new Map(); // key → the latest ledger state seen
    this.lost = new Map(); // key → why its state could not be restored into a replaced worker
    this.nextId = 1;
    this.restarts = 0;
    this.spawn();
  }

  spawn() {
    const w = new Worker(this.workerURL);
    this.worker = w;
    this.ready = new Promise((resolve, reject) => { this._ready = resolve; this._readyFail = reject; });
    w.onmessage = ({ data: m }) => this.onMessage(w, m);
    w.onerror = (e) => {
      e.preventDefault?.();
      if (!this.started) return this.failStart(w, `the worker script ${this.workerURL} could not be loaded or run` + (e.message ? ` (${e.message})` : " (blocked, missing, or not served as JavaScript)"));
      this.crash(w, new Error("dpsample worker error: " + (e.message || "unknown")));
    };
    if (!this.started) {
      this.startTimer = setTimeout(() => this.failStart(w, `the worker ${this.workerURL} did not start within ${this.startTimeoutMs / 1000} s`), this.startTimeoutMs);
    }
    w.postMessage({ type: "init", module: this.module });
  }

  // failStart gives up on a worker that never became ready: no respawn loop,
  // and load() rejects with the reason.
  failStart(w, msg) {
    if (w !== this.worker || this.started) return;
    clearTimeout(this.startTimer);
    try { w.terminate(); } catch { /* already gone */ }
    this._readyFail(new Error(msg));
  }

  onMessage(w, m) {
    if (w !== this.worker) return;
    switch (m.type) {
      case "ready": {
        const first = !this.started;
        this.version = m.version; this.started = true; clearTimeout(this.startTimer);
        if (first || this.ledgers.size === 0) { this._ready(); return; }
        // A replaced worker: its ledgers are gone. Put them back before
        // any queued call can charge one.
        const states = [...this.ledgers.values()];
        const done = this._ready; // this worker's; a crash meanwhile spawns another with its own
        Promise.all(states.map((st) => this.send("ledger.restore", [st]).catch((e) => {
          this.lost.set(st.key, { message: e.message, releases: st.history.length, budget: st.budget });
          console.error("dpsample: could not restore ledger", st.key, e);
        })))
          .then(() => { if (w === this.worker) done(); });
        return;
      }
      case "fatal":
        if (!this.started) return this.failStart(w, "the dpsample worker could not start the WebAssembly module: " + m.message);
        this._readyFail(new Error(m.message)); this.crash(w, new Error(m.message)); return;
      case "exited": this.crash(w, new Error("the dpsample runtime exited; it has been restarted")); return;
    }
    const call = this.pending.get(m.id);
    if (!call) return;
    if (m.type === "progress") { try { call.onProgress?.(m.p); } catch (e) { console.error(e); } return; }
    if (m.type === "ledger") {
      this.remember(m.state);
      try { call.onLedger?.(m.state); } catch (e) { console.error(e); }
      return;
    }
    this.settle(m.id);
    if (m.type === "result") {
      if (call.path.startsWith("ledger.")) this.remember(m.value);
      else if (call.path === "mechanism.sample" || call.path === "describe") this.remember(m.value?.privacy?.ledger);
      call.resolve(m.value);
    }
    else {
      const e = m.name === "AbortError" ? abortError(m.message) : new Error(m.message);
      call.reject(e);
    }
  }

  // remember keeps the latest state of a ledger (a state has key, budget
  // and history); states are merged by release id on restore, so keeping
  // the last one seen is enough.
  remember(st) {
    if (st && typeof st.key === "string" && st.budget && Array.isArray(st.history)) this.ledgers.set(st.key, st);
  }

  settle(id) {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    clearTimeout(call.timer);
    call.signal?.removeEventListener("abort", call.onAbort);
  }

  // crash rejects every pending call and starts a fresh worker.
  crash(w, err) {
    if (w !== this.worker) return;
    this.restart(err);
  }

  restart(err, except) {
    try { this.worker.terminate(); } catch { /* already gone */ }
    this.restarts++;
    for (const [id, call] of [...this.pending]) {
      this.settle(id);
      call.reject(id === except?.id ? except.err : err);
    }
    this.spawn();
  }

  async call(path, args) {
    const runOpts = path in RUNS ? args[RUNS[path]] : undefined;
    let onProgress, signal, ledger, onLedger;
    if (typeof runOpts === "function") onProgress = runOpts;
    else if (runOpts && typeof runOpts === "object") {
      const known = RUN_FIELDS[path] ?? RUN_DEFAULT_FIELDS;
      for (const k of Object.keys(runOpts)) {
        if (!known.includes(k)) throw new Error(`opts.${k} must be a known field (${[...known].sort().join(", ")}), got an unknown field`);
      }
      ({ onProgress, signal, ledger, onLedger } = runOpts);
      if ("ledger" in runOpts && ledger === undefined) throw new Error("opts.ledger must be a non-empty string of at most 256 bytes (a ledger's key), got undefined");
    }
    if (onProgress !== undefined && typeof onProgress !== "function") throw new Error("opts.onProgress must be a function");
    if (onLedger !== undefined && typeof onLedger !== "function") throw new Error("opts.onLedger must be a function");
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new Error("opts.signal must be an AbortSignal");
    if (signal?.aborted) throw abortError();
    await this.ready;
    // The ledger the call uses: a charged run (mechanism.sample, describe) is
    // keyed by its opts.ledger, so a ledger lost in a restart refuses it too.
    const key = path.startsWith("ledger.") ? (path === "ledger.open" || path === "ledger.restore" ? args[0]?.key : args[0])
      : path === "mechanism.sample" || path === "describe" ? ledger : path.startsWith("mechanism.") ? args[1]?.ledger : undefined;
    const lost = typeof key === "string" ? this.lost.get(key) : undefined;
    if (lost && path === "ledger.reset") {
      // The way out: a fresh ledger with the given (or the lost one's) budget.
      const b = args[1] ?? lost.budget;
      const st = await this.send("ledger.open", [{ key, epsilon: b.epsilon, delta: b.delta }]);
      this.lost.delete(key);
      this.remember(st);
      return st;
    }
    if (lost) {
      throw new Error(`ledger ${JSON.stringify(key)} must be restored into the restarted worker before it is used, but could not be ` +
        `(${lost.message}): it held ${lost.releases} release(s), so it is not replaced by a fresh budget. ` +
        `ledger.reset(key, {epsilon, delta}) starts it afresh, forgetting those releases.`);
    }
    return this.send(path, args, { onProgress, signal, ledger, onLedger });
  }

  // send posts a call to the current worker without waiting for ready (the
  // restore calls of a replaced worker use it directly).
  send(path, args, run = {}) {
    const { onProgress, signal, ledger, onLedger } = run;
    const id = this.nextId++;
    const msgArgs = args.slice();
    if (path in RUNS) msgArgs[RUNS[path]] = undefined;
    return new Promise((resolve, reject) => {
      const call = { resolve, reject, onProgress, signal, onLedger, path };
      if (signal) {
        call.onAbort = () => {
          this.worker.postMessage({ type: "abort", id });
          // Hard fallback: a run that does not yield is stopped by replacing the worker.
          call.timer = setTimeout(() => {
            if (this.pending.has(id)) this.restart(new Error("the dpsample worker was restarted to cancel a run"), { id, err: abortError("cancelled (the worker was restarted)") });
          }, this.hardCancelMs);
        };
        signal.addEventListener("abort", call.onAbort, { once: true });
      }
      this.pending.set(id, call);
      try {
        this.worker.postMessage({ type: "call", id, path, args: msgArgs, progress: !!onProgress, signal: !!signal, ledger, optsIndex: RUNS[path] });
      } catch (e) {
        this.settle(id);
        reject(new Error(`arguments of ${path} cannot be sent to the worker: ${e.message}`));
      }
    });
  }

  terminate() {
    this.restart(new Error("dpsample was terminated"));
    this.worker.terminate();
  }
}

/**
 * Resolves to the compiled WebAssembly.Module of the page, dpsample.wasm (the
 * API and the UI; fetched and compiled once per page, the elements' UI and
 * their worker share it).
 * @param {string|URL} [wasmURL]
 */
export function wasmModule(wasmURL) {
  return compile(new URL(wasmURL ?? PAGE_MODULE, here));
}

/**
 * Starts dpsample in a Web Worker and resolves to its API. The worker runs
 * options.wasmURL, by default dpsample-api.wasm (the API alone), or
 * dpsample.wasm when this realm has already fetched it (a page with the
 * elements): one download either way.
 * @param {{wasmURL?: string|URL, workerURL?: string|URL, hardCancelMs?: number, startTimeoutMs?: number}} [options]
 */
export async function load(options = {}) {
  const page = new URL(PAGE_MODULE, here);
  const wasmURL = new URL(options.wasmURL ?? (compiled.has(page.href) ? page : API_MODULE), here);
  const workerURL = new URL(options.workerURL ?? "worker.js", here);
  const module = await compile(wasmURL);
  const rt = new Runtime(module, { ...options, workerURL });
  await rt.ready;
  const api = { version: rt.version, terminate: () => rt.terminate(), get restarts() { return rt.restarts; } };
  api.describe = (...args) => rt.call("describe", args);
  for (const [ns, fns] of Object.entries(NAMES)) {
    api[ns] = {};
    for (const fn of fns) {
      const path = `${ns}.${fn}`;
      api[ns][fn] = (...args) => rt.call(path, args);
    }
  }
  api._test = {
    panic: () => rt.call("_test.panic", []), spin: (ms, opts) => rt.call("_test.spin", [ms, opts]),
    crashShard: (k) => rt.call("_test.crashShard", [k]), poolMode: (m) => rt.call("_test.poolMode", [m]), poolStats: () => rt.call("_test.poolStats", []),
    slowShard: (ms) => rt.call("_test.slowShard", [ms]), keepWorkers: (b) => rt.call("_test.keepWorkers", [b]),
  };
  return api;
}
