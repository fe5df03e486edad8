package kustomize

import (
	"io"
	"log"
	"os"
	"sync"
)

// kustomize's library writes to the process's standard error on its own:
// a line for each deprecated field of every kustomization it loads
// (internal/target/kusttarget.go, fmt.Fprintf(os.Stderr)), which for
// `vars` no conversion removes (withoutDeprecated converts the others),
// and unused vars through the standard logger
// (internal/accumulator/resaccumulator.go, log.Printf). A repository of
// overlays printed one such line per build, between scalelint's own
// messages. While builds run both go nowhere: os.Stderr is the null
// device and the standard logger writes to io.Discard. scalelint itself
// reads os.Stderr only at start-up (the command's writer, the language
// server's log) and never logs through the standard logger.
var hushed struct {
	sync.Mutex
	n      int      // builds running
	stderr *os.File // os.Stderr before the first of them
	log    io.Writer
	null   *os.File
}

// hush silences kustomize's own output until the returned function is
// called; builds may overlap, and the last to end restores both.
func hush() (restore func()) {
	hushed.Lock()
	defer hushed.Unlock()
	if hushed.n == 0 {
		if hushed.null == nil {
			hushed.null, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		}
		hushed.stderr, hushed.log = os.Stderr, log.Writer()
		if hushed.null != nil {
			os.Stderr = hushed.null
		}
		log.SetOutput(io.Discard)
	}
	hushed.n++
	return func() {
		hushed.Lock()
		defer hushed.Unlock()
		if hushed.n--; hushed.n == 0 {
			os.Stderr = hushed.stderr
			log.SetOutput(hushed.log)
		}
	}
}
