package render

import (
	"io"
	"log"
	"os"
	"sync"
)

// The libraries that render write to the process's standard error on
// their own. kustomize: a line for each deprecated field of every
// kustomization it loads (internal/target/kusttarget.go,
// fmt.Fprintf(os.Stderr)), which for `vars` no conversion removes
// (withoutDeprecated converts the others), and unused vars through the
// standard logger (internal/accumulator/resaccumulator.go, log.Printf); a
// repository of overlays printed one such line per build, between
// scalelint's own messages. Helm: values it cannot merge through the
// standard logger (pkg/chart/common/util/coalesce.go, log.Printf: "warning:
// destination for X is a table. Ignoring non-table value"), a v2 chart's
// requirements.yaml as it loads one (pkg/chart/v2/loader/load.go), and its
// warnings through log/slog's default logger, which writes through the
// standard logger's output; bitnami/charts printed three such lines.
// While renders and builds run, both go nowhere: os.Stderr is the null
// device and the standard logger writes to io.Discard. scalelint itself
// reads os.Stderr only at start-up (the command's writer, the language
// server's log) and never logs through the standard logger.
//
// One count for both kinds: a chart's render and a kustomize build
// overlap, and two counts would each restore what the other had
// silenced.
var hushed struct {
	sync.Mutex
	n      int      // renders and builds running
	stderr *os.File // os.Stderr before the first of them
	log    io.Writer
	null   *os.File
}

// Hush silences the rendering libraries' own output until the returned
// function is called; renders and builds may overlap, and the last to end
// restores both.
func Hush() (restore func()) {
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
