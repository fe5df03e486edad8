package load

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// progress shows "parsed N/M files" while a long run loads its files:
// only on a terminal, only after a second, and only for 100 files or more.
type progress struct {
	w     io.Writer
	total int
	n     atomic.Int64
	stop  chan struct{}
	ended chan struct{}
}

func startProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || total < 100 {
		return p
	}
	p.stop, p.ended = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.ended)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		start := time.Now()
		shown := false
		for {
			select {
			case <-p.stop:
				if shown {
					fmt.Fprint(p.w, "\r\x1b[K")
				}
				return
			case <-t.C:
				if time.Since(start) < time.Second {
					continue
				}
				shown = true
				fmt.Fprintf(p.w, "\rscalelint: parsed %d/%d files", p.n.Load(), p.total)
			}
		}
	}()
	return p
}

// file counts one parsed file; safe from several goroutines.
func (p *progress) file() { p.n.Add(1) }

// done clears the line.
func (p *progress) done() {
	if p.stop != nil {
		close(p.stop)
		<-p.ended
	}
}
