// A test worker (TestLoaderLostLedger): site/worker.js, except that it
// refuses ledger.restore for keys starting with "lost-" — as a worker of
// another version would refuse a state it cannot read.
const realImport = self.importScripts.bind(self);
self.importScripts = (...urls) => realImport(...urls.map((u) => new URL(u, self.location.origin + "/site/").href));
self.importScripts("worker.js");
const handle = self.onmessage;
self.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === "call" && m.path === "ledger.restore" && String(m.args[0]?.key).startsWith("lost-")) {
    postMessage({ type: "error", id: m.id, name: "Error", message: "state.extra must be a known field (the test worker's refusal)" });
    return;
  }
  return handle(ev);
};
