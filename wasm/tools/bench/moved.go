//go:build !js

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// movedFlags are the modes that were the bench's until issue 46 and are
// commands of their own now (each prints or appends its study and exits;
// none measures the bench's sections): the flag → the command's package.
var movedFlags = map[string]string{
	"ranges":           "wasm/tools/ranges",
	"ranges-model":     "wasm/tools/ranges",
	"categories-model": "wasm/tools/ranges",
	"study":            "wasm/tools/study",
	"dpgd-schedule":    "wasm/tools/study",
	"compare-load":     "wasm/tools/compareload",
}

// moved reports the command an old command line is for: the package of the
// first moved mode among args (its companion flags, such as -ranges-reps,
// go with it).
func moved(args []string) (string, bool) {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if pkg, ok := movedFlags[name]; ok {
			return pkg, true
		}
	}
	return "", false
}

// forward runs `go run` on the command, with the same arguments, standard
// streams and exit status, so the old command lines (`go run
// ./wasm/tools/bench -ranges development`) keep working.
func forward(pkg string, args []string) {
	fmt.Fprintf(os.Stderr, "bench: this mode is `go run ./%s` now; running it\n", pkg)
	cmd := exec.Command("go", append([]string{"run", "github.com/dpsample/dpsample/" + pkg}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			os.Exit(ee.ExitCode())
		}
		fatal(err)
	}
}
