//go:build !js

// Command serve is the development server behind `./build.sh serve`.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/dpsample/dpsample/wasm/tools/devserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	dir := flag.String("dir", ".", "repository root to serve")
	flag.Parse()
	log.Printf("dpsample: serving %s on http://%s/", *dir, *addr)
	log.Fatal(http.ListenAndServe(*addr, devserver.Handler(*dir)))
}
