#!/usr/bin/env bash
# dpsample build script.
#   ./build.sh build   copy wasm_exec.js from this Go toolchain into site/ and build the two modules: site/dpsample.wasm
#                      (the page's: API and UI) and site/dpsample-api.wasm (the JS API alone, build tag dpsample_apionly)
#   ./build.sh serve   build, then serve the repository root on http://127.0.0.1:8080/ (ADDR overrides)
#   ./build.sh dist    the release: dist/dpsample-<version>/ (what a host serves; `npm pack` makes a tarball of
#                      it); it changes no tracked file (DIST_DOCS=write rewrites docs/ELEMENTS.md's hosting table, DIST_DOCS=check fails when it is stale)
#   ./build.sh test    everything: static checks, native tests, wasm tests under node, browser tests in Chromium,
#                      a short run of each fuzz target (FUZZTIME=3s each)
#   ./build.sh bench   benchmarks
# test and bench build the module with the tag dpsample_hooks (the hidden
# dpsample._test and dpsample._bench namespaces and the benchmark kernels);
# build and serve ship it without them.
set -euo pipefail
cd "$(dirname "$0")"

GOROOT_WASM="$(go env GOROOT)/lib/wasm"
WASM_EXEC="$GOROOT_WASM/go_js_wasm_exec"
STATICCHECK_VERSION=v0.8.2
HOOKS=dpsample_hooks
APIONLY=dpsample_apionly # the API's own module, without wasm/ui (wasm/main_apionly.go)

log() { printf '\n==> %s\n' "$*"; }

# build_module OUT TAGS: the WebAssembly module, post-linked.
build_module() {
  GOOS=js GOARCH=wasm go build -trimpath -tags "$2" -ldflags="-s -w" -o "$1" ./wasm
  # Merge the linker's ≈ 85,000 data segments across short zero runs (the
  # same memory image, ≈ 9 % less gzip) and remove the file and line tables
  # of Go's function table (tracebacks keep the function names: ≈ 9 % less
  # brotli); wasm/tools/wasmpack, -keep-lines to keep them.
  go run ./wasm/tools/wasmpack "$1"
}

build() {
  mkdir -p site
  cp "$GOROOT_WASM/wasm_exec.js" site/wasm_exec.js
  build_module site/dpsample.wasm "${WASM_TAGS:-}"
  build_module site/dpsample-api.wasm "${WASM_TAGS:-} $APIONLY"
  # Precompressed siblings of the module, the built-in data, the scripts, the
  # stylesheet and the pages, served by the dev server (and by static hosts
  # that honour them) when the browser accepts the encoding; the dev server
  # skips a sibling older than its original (a file edited since the build).
  # The modules' .gz are written by zopfli (≈ 5 % smaller, still plain gzip)
  # when it is installed (Debian: apt-get install zopfli), else gzip -9; the
  # compressed copies of an unchanged file (same sha256) are kept.
  local f sum
  for f in site/dpsample.wasm site/dpsample-api.wasm site/data/*.csv site/*.js site/*.css site/*.svg *.html; do
    sum="$(sha256sum < "$f")"
    if [ -f "$f.gz" ] && [ -f "$f.sha256" ] && [ "$(cat "$f.sha256")" = "$sum" ]; then
      touch "$f.gz" # not older than the original: the dev server serves it
      if [ -f "$f.br" ]; then touch "$f.br"; fi
      continue
    fi
    if [ "${f%.wasm}" != "$f" ] && command -v zopfli >/dev/null 2>&1; then
      zopfli --i1 -c "$f" > "$f.gz"
    else
      gzip -9 -n -c "$f" > "$f.gz"
    fi
    if command -v node >/dev/null 2>&1; then
      node -e 'const z=require("zlib"),fs=require("fs");const b=fs.readFileSync(process.argv[1]);fs.writeFileSync(process.argv[1]+".br",z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11,[z.constants.BROTLI_PARAM_SIZE_HINT]:b.length}}))' "$f"
    fi
    printf '%s' "$sum" > "$f.sha256"
  done
  for f in site/dpsample.wasm site/dpsample-api.wasm; do
    printf 'built %s (%s bytes; gzip %s, brotli %s)\n' "$f" "$(wc -c < "$f")" \
      "$(wc -c < "$f.gz")" "$( [ -f "$f.br" ] && wc -c < "$f.br" || echo n/a)"
  done
}

# dist writes the release (wasm/tools/dist): its own two modules, built
# without the test hooks whatever WASM_TAGS says (site/ is left alone),
# Go's wasm_exec.js, and the files of site/ and docs/ a host needs.
dist() {
  dist_tmp="$(mktemp -d)"
  trap 'rm -rf "$dist_tmp"' EXIT
  build_module "$dist_tmp/dpsample.wasm" ""
  build_module "$dist_tmp/dpsample-api.wasm" "$APIONLY"
  go run ./wasm/tools/dist -root . -out dist -wasm "$dist_tmp/dpsample.wasm" -wasm-api "$dist_tmp/dpsample-api.wasm" -wasm-exec "$GOROOT_WASM/wasm_exec.js" -docs "${DIST_DOCS:-warn}"
}

# ensure_tools installs what a fresh machine lacks: node (for GOOS=js tests)
# and Debian's chromium (for the browser tests), via apt-get when root.
ensure_tools() {
  local missing=()
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v zopfli >/dev/null 2>&1 || missing+=(zopfli) # optional for build (a smaller dpsample.wasm.gz); dist needs it
  command -v npm >/dev/null 2>&1 || missing+=(npm)       # the release test packs and installs the release
  if ((${#missing[@]})); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      log "installing ${missing[*]} with apt-get"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      echo "missing: ${missing[*]} — install them (Debian: apt-get install ${missing[*]})" >&2
      exit 1
    fi
  fi
}

static_checks() {
  log "gofmt"
  local unformatted
  unformatted="$(gofmt -l core wasm)"
  if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi
  if grep -rl --include='*.go' '"syscall/js"' core >/dev/null 2>&1; then
    echo "core/ must not import syscall/js:"; grep -rl --include='*.go' '"syscall/js"' core; exit 1
  fi
  layout_checks
  log "go vet (native and js/wasm, with and without the hooks)"
  go vet ./...
  GOOS=js GOARCH=wasm go vet ./core/... ./wasm/...
  GOOS=js GOARCH=wasm go vet -tags "$HOOKS" ./wasm/...
  GOOS=js GOARCH=wasm go vet -tags "$APIONLY" ./wasm
  log "staticcheck $STATICCHECK_VERSION"
  GOBIN="$(go env GOPATH)/bin" go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
  local sc; sc="$(go env GOPATH)/bin/staticcheck"
  "$sc" ./...
  GOOS=js GOARCH=wasm "$sc" ./wasm/...
  GOOS=js GOARCH=wasm "$sc" -tags "$HOOKS" ./wasm/...
}

# layout_checks fails when a package boundary of README's layout is crossed:
# wasm/jsapi and wasm/ui (or its packages) import each other, a view's
# package under wasm/ui imports another view's, a package of wasm/ outside
# wasm/tools passes 3,000 lines (its non-test .go files), core/ imports os or
# syscall/js (for either GOOS), the shipped module links the benchmark
# kernels, or the API's own module (-tags dpsample_apionly) links wasm/ui or
# its DOM bindings.
layout_checks() {
  log "layout (go list)"
  local mod deps fail=0
  mod="$(go list -m)"
  local ui="^$mod/wasm/ui(/|\$)" # wasm/ui and its packages
  deps="$(GOOS=js GOARCH=wasm go list -deps ./wasm/jsapi)"
  if grep -qE "$ui" <<<"$deps"; then echo "wasm/jsapi imports wasm/ui"; fail=1; fi
  deps="$(GOOS=js GOARCH=wasm go list -deps ./wasm/ui/...)"
  if grep -qx "$mod/wasm/jsapi" <<<"$deps"; then echo "wasm/ui imports wasm/jsapi"; fail=1; fi
  # The views (issue 46): wasm/ui/<view> and its packages import
  # wasm/ui/internal/kit, core/ and wasm/internal, never another view.
  local views v other
  views="$(GOOS=js GOARCH=wasm go list ./wasm/ui/... | grep -v -x -e "$mod/wasm/ui" -e "$mod/wasm/ui/internal/.*" -e "$mod/wasm/ui/[^/]*/.*")"
  if [ "$(wc -l <<<"$views")" -lt 6 ]; then echo "only $(wc -l <<<"$views") views under wasm/ui: the check below tests little"; fail=1; fi
  for v in $views; do
    deps="$(GOOS=js GOARCH=wasm go list -deps "$v/...")"
    for other in $views; do
      if [ "$other" != "$v" ] && grep -qE "^$other(/|\$)" <<<"$deps"; then echo "${v#$mod/} imports ${other#$mod/}: a view never imports another"; fail=1; fi
    done
  done
  local dir n
  for dir in $(GOOS=js GOARCH=wasm go list -e -f '{{.Dir}}' ./wasm/... | grep -v "/wasm/tools\(/\|$\)"); do
    n="$(find "$dir" -maxdepth 1 -name '*.go' ! -name '*_test.go' -exec cat {} + | wc -l)"
    if [ "$n" -gt 3000 ]; then echo "${dir#$PWD/}: $n lines of Go (at most 3,000 a package outside wasm/tools)"; fail=1; fi
  done
  local goos bad
  for goos in "$(go env GOOS)" js; do
    bad="$(GOOS=$goos GOARCH=$( [ $goos = js ] && echo wasm || go env GOARCH ) go list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' ./core/... |
      awk '{for (i = 2; i <= NF; i++) if ($i == "os" || $i == "syscall/js") print $1 " imports " $i}')"
    if [ -n "$bad" ]; then echo "core/ must stay pure (GOOS=$goos):"; echo "$bad"; fail=1; fi
  done
  deps="$(GOOS=js GOARCH=wasm go list -deps ./wasm)"
  if grep -qx "$mod/core/benchkit" <<<"$deps"; then echo "the shipped module links core/benchkit (build it without -tags $HOOKS)"; fail=1; fi
  deps="$(GOOS=js GOARCH=wasm go list -tags "$HOOKS" -deps ./wasm)"
  if ! grep -qx "$mod/core/benchkit" <<<"$deps"; then echo "-tags $HOOKS no longer links core/benchkit: the check above tests nothing"; fail=1; fi
  deps="$(GOOS=js GOARCH=wasm go list -tags "$APIONLY" -deps ./wasm)"
  if grep -qE -e "$ui" -e '^honnef.co/go/js/dom/v2$' <<<"$deps"; then echo "-tags $APIONLY (dpsample-api.wasm) links wasm/ui or honnef.co/go/js/dom/v2"; fail=1; fi
  deps="$(GOOS=js GOARCH=wasm go list -deps ./wasm)"
  if ! grep -qx "$mod/wasm/ui" <<<"$deps"; then echo "dpsample.wasm no longer links wasm/ui: the check above tests nothing"; fail=1; fi
  return $fail
}

test_native() {
  log "native tests (core, dev server, browser tests in headless Chromium)"
  # The browser tests alone take minutes on a loaded 2-core machine: go test's default 10 min is too tight.
  E2E_REQUIRE=1 go test -count=1 -timeout 40m ./...
}

# test_fuzz runs each fuzz target of the parsers of untrusted input (issue
# 41 item 7) for FUZZTIME (3s) on top of its seed corpus, which every go test
# runs anyway: the CSV parse and profile, the ranges line and describe({csv})'s
# cell reader (core/dataset),
# describe's inputs (core/domain), a stored ledger's restore (core/privacy).
# go test allows one -fuzz target per package per run. A failing input is
# written under the package's testdata/fuzz/<target>/ (commit it: it becomes
# a regression test) and fails the run.
test_fuzz() {
  log "fuzzing (${FUZZTIME:-3s} per target)"
  local pair pkg target
  for pair in "core/dataset FuzzParse" "core/dataset FuzzProfile" "core/dataset FuzzParseRanges" "core/dataset FuzzReadCells" \
    "core/domain FuzzDescribe" "core/privacy FuzzLedgerRestore"; do
    read -r pkg target <<<"$pair"
    go test -run '^$' -fuzz "^$target\$" -fuzztime "${FUZZTIME:-3s}" "./$pkg"
  done
}

test_wasm() {
  log "js/wasm tests under node"
  GOOS=js GOARCH=wasm go test -count=1 -timeout 40m -tags "$HOOKS" -exec="$WASM_EXEC" ./core/... ./wasm/...
}

case "${1:-}" in
  build) build ;;
  dist) dist ;;
  serve)
    build
    ADDR="${ADDR:-127.0.0.1:8080}"
    exec go run ./wasm/tools/devserver/serve -addr "$ADDR" -dir . ;;
  test)
    ensure_tools
    static_checks
    WASM_TAGS=$HOOKS build
    test_wasm
    test_native
    test_fuzz
    log "all tests passed" ;;
  bench)
    # The benchmark report (issue 9): go test -bench natively and as wasm
    # under node (raw outputs and ratios kept), then wasm/tools/bench times the
    # benchkit kernels natively, under node and in headless Chromium from the
    # same site/dpsample.wasm, and writes docs/BENCHMARKS.md,
    # docs/benchmarks.json, docs/bench/*.svg and README's headline table.
    # BENCH_QUICK=1 shortens everything (for iterating; not for quoting).
    ensure_tools
    build # the shipped module, kept aside for the size section
    shipped="$(mktemp -d)/dpsample.wasm"
    cp site/dpsample.wasm "$shipped"
    WASM_TAGS=$HOOKS build
    pkgs=(./core/sampler/exact ./core/sampler ./core/fingerprint)
    pattern='^Benchmark(Sampler|L1Binary|L1Separable|Gen|Trace)$'
    benchtime="${BENCHTIME:-300ms}"
    if [ -n "${BENCH_QUICK:-}" ]; then benchtime="${BENCHTIME:-30ms}"; fi
    mkdir -p docs
    log "go test -bench natively"
    go test -run '^$' -bench "$pattern" -benchmem -benchtime "$benchtime" "${pkgs[@]}" | tee docs/bench-native.txt
    log "go test -bench as wasm under node"
    GOOS=js GOARCH=wasm go test -exec="$WASM_EXEC" -run '^$' -bench "$pattern" -benchtime "$benchtime" "${pkgs[@]}" | tee docs/bench-wasm.txt
    log "benchmark report (wasm/tools/bench)"
    go run ./wasm/tools/bench -root . -gotest-native docs/bench-native.txt -gotest-wasm docs/bench-wasm.txt -shipped-wasm "$shipped" -rows-baseline auto ;;
  *)
    echo "usage: $0 build|serve|dist|test|bench" >&2
    exit 2 ;;
esac
