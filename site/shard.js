// dpsample shard worker: one module instance holding one shard of the rows of
// a first-order run (wasm/internal/pool). It is started by the sampling
// worker (worker.js), never by a page. Protocol (structured-clone messages):
//   owner → shard  {type:"init", module: WebAssembly.Module}
//   shard → owner  {type:"ready"} | {type:"fatal", message}
//   owner → shard  {type:"load", loss, clip, tau, huber, ball, d, x: Float64Array, y: Float64Array,
//                   crashAfter?, slowMs?, shared?: {ctl: Int32Array, vec: Float64Array, part: Float64Array, slot}}
//   shard → owner  {type:"loaded", error}
// Then either, by messages:
//   owner → shard  {type:"op", seq, op, v: Float64Array}
//   shard → owner  {type:"part", seq, part: Float64Array} | {type:"failed", seq, message}
// or, with shared memory (crossOriginIsolated), without messages: the shard
// (dpsampleShard.serve, a loop in Go) waits for ctl[0] to change (polling,
// then Atomics.wait), runs op ctl[1] on vec into its slice of part, stores
// the sequence number in ctl[2 + slot] and notifies it; op 0 ends the loop.
// crashAfter (a test hook of the dpsample_hooks build) throws after that many
// ops, as a crashed worker would; slowMs (another) busy-waits that long after
// each op, as a shard on a busy core would.
importScripts("wasm_exec.js");

let ops = 0;
let crashAfter = 0;
let slowMs = 0;

function tick() {
  ops++;
  if (crashAfter > 0 && ops >= crashAfter) throw new Error(`shard worker crashed after ${ops} passes (test hook)`);
}

function slow() {
  for (const end = performance.now() + slowMs; performance.now() < end; );
}

async function init(module) {
  try {
    const go = new Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    go.run(instance);
    if (!self.dpsampleShard) throw new Error("the module did not register dpsampleShard");
    postMessage({ type: "ready" });
  } catch (e) {
    postMessage({ type: "fatal", message: String((e && e.message) || e) });
  }
}

// Not async: an exception in a pass (a crash) is uncaught and reaches the
// owner as an error event on this worker.
onmessage = ({ data: m }) => {
  switch (m.type) {
    case "init":
      init(m.module);
      return;
    case "load": {
      crashAfter = m.crashAfter || 0;
      slowMs = m.slowMs || 0;
      const error = self.dpsampleShard.load(m.loss, m.clip, m.tau, m.huber, m.ball, m.d, m.x, m.y);
      const seen = m.shared ? Atomics.load(m.shared.ctl, 0) : 0;
      postMessage({ type: "loaded", error });
      if (!error && m.shared) {
        // Serves passes until op 0 (wasm/internal/pool's shardServe, which
        // polls for the next pass before it sleeps in Atomics.wait).
        const { ctl, vec, part, slot } = m.shared;
        const err = self.dpsampleShard.serve(ctl, vec, part, slot, seen, crashAfter, slowMs);
        if (err) throw new Error(err);
      }
      return;
    }
    case "op": {
      tick();
      const part = new Float64Array(self.dpsampleShard.partLength(m.op));
      const err = self.dpsampleShard.run(m.op, m.v, part);
      slow();
      if (err) postMessage({ type: "failed", seq: m.seq, message: err });
      else postMessage({ type: "part", seq: m.seq, part }, [part.buffer]);
      return;
    }
  }
};
