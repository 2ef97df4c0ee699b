// Package version holds dpsample's release version: the one place it is
// written. The JS API exposes it as dpsample.version (wasm/jsapi); ./build.sh
// dist names the release folder dist/dpsample-<Version>/ and its
// package.json after it (wasm/tools/dist), and checks that CHANGELOG.md's
// first entry is this version.
package version

// Version is dpsample's release version (semantic versioning).
const Version = "0.7.1"
