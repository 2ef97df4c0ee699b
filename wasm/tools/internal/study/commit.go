//go:build !js

package study

import (
	"os/exec"
	"strings"
)

// GitCommit names the code a run measured: HEAD, with "+dirty" when tracked
// files under core/, wasm/ or site/ differ from it.
func GitCommit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no", "--", "core", "wasm", "site").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+dirty"
	}
	return c
}
