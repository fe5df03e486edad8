package report

import (
	"bytes"
	"io"
	"runtime"
	"sync"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
)

// Select says which findings Each and Render resolve, and what of each.
type Select uint8

const (
	// ShownFindings are the unsuppressed findings (Report.Shown).
	ShownFindings Select = 0
	// AllFindings are every finding, suppressed and baselined ones too
	// (Report.All).
	AllFindings Select = 1 << iota
	// WithSourceLines sets each finding's SourceLine. Only a format that
	// prints it should ask: the text of a large run's files was dropped
	// after parsing, and reading a line reads its file again, where
	// positions alone mostly need no text (manifest.File.Position).
	WithSourceLines
)

// Each calls fn with each finding sel selects, resolved, in order; a
// Finding is valid only during its call. The findings are resolved on
// every core, a few dozen at a time (a chunk), ahead of fn (Render).
func (r *Report) Each(sel Select, fn func(*Finding) error) error {
	return r.run(sel, nil, nil, fn)
}

// A Renderer writes the output of the i-th finding of a Render (i counts
// from 0) to buf. Each goroutine of a Render has its own (NewRenderer), so
// it may keep buffers from call to call.
type Renderer func(i int, f *Finding, buf *bytes.Buffer) error

// Render writes each finding sel selects to w, in order, as the
// renderers make of them: the findings are resolved, and
// their output made, on every core, and written in order. newRenderer is
// called once for each goroutine. The output is that of calling one
// renderer with each finding in turn, whatever the scheduling.
func (r *Report) Render(sel Select, w io.Writer, newRenderer func() Renderer) error {
	return r.run(sel, w, newRenderer, nil)
}

// Findings are resolved a chunk at a time: at least minChunk findings,
// then up to the end of their file (so a file's text is read once), and
// at most maxChunk. At most ahead chunks per goroutine are resolved and
// not yet written or given to fn: their texts, findings and outputs are
// what the report holds more than a serial one.
const (
	minChunk = 32
	maxChunk = 512
	ahead    = 4
)

// chunk is a run of findings, diags[start:end], resolved (findings, for
// Each) or rendered (out, for Render) by a worker; done is closed then.
type chunk struct {
	start, end int
	findings   []Finding
	out        *bytes.Buffer // from outs, back to it once written
	err        error
	done       chan struct{}
}

// run is Each (fn) and Render (w, newRenderer). A reading of a file's
// dropped text, the position of each finding and its output are the work
// of a chunk's worker, whose Locator drops the texts it read when the
// chunk is done (textUsers: not while another worker reads them).
// Reading a dropped text again is a system call per file, and resolving
// and encoding the findings of a large repository took a sixth of a run
// on one core.
func (r *Report) run(sel Select, w io.Writer, newRenderer func() Renderer, fn func(*Finding) error) error {
	diags := r.Shown
	if sel&AllFindings != 0 {
		diags = r.All
	}
	if len(diags) == 0 {
		return nil
	}
	files := make([]*manifest.File, len(diags))
	for i, d := range diags {
		files[i] = r.Workspace.FileOf(d.Pos)
	}
	workers := runtime.GOMAXPROCS(0)
	users := &textUsers{n: map[*manifest.File]int{}}
	work := make(chan *chunk)
	ordered := make(chan *chunk, ahead*workers)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loc := &Locator{ws: r.Workspace, users: users}
			var render Renderer
			if newRenderer != nil {
				render = newRenderer()
			}
			for c := range work {
				c.err = r.resolve(c, diags, files, sel&WithSourceLines != 0, loc, render)
				loc.Release()
				close(c.done)
			}
		}()
	}
	// The chunks go to the workers and, in the same order, to the
	// writer below; ordered's capacity bounds how far ahead they run.
	go func() {
		defer close(work)
		defer close(ordered)
		for start := 0; start < len(diags); {
			end := start + 1
			for end < len(diags) && end-start < maxChunk && (end-start < minChunk || files[end] == files[end-1]) {
				end++
			}
			c := &chunk{start: start, end: end, done: make(chan struct{})}
			select {
			case ordered <- c:
			case <-quit:
				return
			}
			select {
			case work <- c:
			case <-quit:
				close(c.done) // never given to a worker
				return
			}
			start = end
		}
	}()
	err := r.consume(ordered, w, fn)
	close(quit)
	for c := range ordered { // let the feeder end
		<-c.done
	}
	wg.Wait()
	return err
}

// consume takes the chunks in order, as each is done: writes its output,
// or calls fn with its findings. It stops at the first error.
func (r *Report) consume(ordered <-chan *chunk, w io.Writer, fn func(*Finding) error) error {
	for c := range ordered {
		<-c.done
		if c.err != nil {
			return c.err
		}
		if w != nil {
			_, err := w.Write(c.out.Bytes())
			c.out.Reset()
			outs.Put(c.out)
			if err != nil {
				return err
			}
			continue
		}
		for i := range c.findings {
			if err := fn(&c.findings[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// outs are the buffers of chunks written, to render the next into: a
// chunk's output grows its buffer to tens of kilobytes, which were
// garbage thousands of times a run.
var outs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// resolve resolves a chunk's findings and renders them (render) or keeps
// them (Each).
func (r *Report) resolve(c *chunk, diags []analyzer.Diagnostic, files []*manifest.File, lines bool, loc *Locator, render Renderer) error {
	if render == nil {
		c.findings = make([]Finding, 0, c.end-c.start)
	} else {
		c.out = outs.Get().(*bytes.Buffer)
	}
	var f Finding
	for i := c.start; i < c.end; i++ {
		d := diags[i]
		f = Finding{Diagnostic: d, Location: loc.Locate(d.Pos, d.End), Object: r.objectOf(d)}
		if lines && files[i] != nil {
			f.SourceLine = loc.LineText(d.Pos, f.Location.Line)
			if render == nil && f.SourceLine != nil {
				// The text is dropped when the chunk is done, before
				// fn sees the finding.
				f.SourceLine = bytes.Clone(f.SourceLine)
			}
		}
		for _, rel := range d.Related {
			f.Notes = append(f.Notes, Note{Location: loc.Locate(rel.Pos, rel.End), Message: rel.Message})
		}
		f.Sources = r.sources(d, loc)
		for _, x := range d.SuggestedFixes {
			fix := Fix{Message: x.Message, Safe: x.Safe}
			for _, e := range x.Edits {
				fix.Edits = append(fix.Edits, Edit{Location: loc.Locate(e.Pos, e.End), NewText: e.NewText})
			}
			f.Fixes = append(f.Fixes, fix)
		}
		if render == nil {
			c.findings = append(c.findings, f)
			continue
		}
		if err := render(i, &f, c.out); err != nil {
			return err
		}
	}
	return nil
}

// textUsers counts, for each file whose text the Locators of a report's
// goroutines read, the Locators that hold it: the last to release it
// drops it again. The count and the drop are under one lock, so a text
// is never dropped, its memory recycled for another file, while a
// goroutine that holds it reads it.
type textUsers struct {
	mu sync.Mutex
	n  map[*manifest.File]int
}

func (u *textUsers) acquire(f *manifest.File) {
	u.mu.Lock()
	u.n[f]++
	u.mu.Unlock()
}

func (u *textUsers) release(f *manifest.File) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.n[f]--; u.n[f] > 0 {
		return
	}
	delete(u.n, f)
	f.DropText(nil, false) // a no-op for a file whose text was never dropped
}
