package report

import (
	"go/token"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/analyzer/manifest"
	"github.com/scalelint/scalelint/analyzer/workspace"
)

// Location is a place in the units users see: 1-based lines, columns in
// Unicode code points.
type Location struct {
	File                       string
	Line, Col, EndLine, EndCol int
	Source                     string // the template a "# Source:" comment names (helm template)
}

// A Locator resolves positions to Locations. Resolving a column reads a
// file's text, which a large run dropped after parsing; the Locator
// remembers the files it read, and Release drops their texts again. The
// report resolves one file's findings at a time (Each); the audit one
// autoscaler at a time.
type Locator struct {
	ws   *workspace.Workspace
	read []*manifest.File
}

// NewLocator returns a Locator over a workspace's files.
func NewLocator(ws *workspace.Workspace) *Locator { return &Locator{ws: ws} }

// Locate resolves a position range (end invalid or before pos: pos).
func (l *Locator) Locate(pos, end token.Pos) Location {
	f := l.ws.FileOf(pos)
	if f == nil {
		return Location{Line: 1, Col: 1, EndLine: 1, EndCol: 1}
	}
	l.hold(f)
	loc := Location{File: f.Path}
	loc.Line, loc.Col = f.Position(pos)
	if end.IsValid() && end >= pos {
		loc.EndLine, loc.EndCol = f.Position(end)
	} else {
		loc.EndLine, loc.EndCol = loc.Line, loc.Col
	}
	off := f.Tok.Offset(pos)
	for _, d := range f.Docs {
		if off >= d.Start && off < d.End {
			loc.Source = d.Source
		}
	}
	return loc
}

// LineText returns the text of a line of the file that holds pos (nil
// when none does), valid until Release.
func (l *Locator) LineText(pos token.Pos, line int) []byte {
	f := l.ws.FileOf(pos)
	if f == nil {
		return nil
	}
	l.hold(f)
	return f.LineText(line)
}

func (l *Locator) hold(f *manifest.File) {
	for i := len(l.read) - 1; i >= 0 && i >= len(l.read)-4; i-- {
		if l.read[i] == f {
			return
		}
	}
	l.read = append(l.read, f)
}

// Release drops again the texts read since the last Release (a no-op for
// a file whose text was never dropped).
func (l *Locator) Release() {
	for _, f := range l.read {
		f.DropText(nil, false)
	}
	l.read = l.read[:0]
}

// Finding is a diagnostic with every place it names resolved.
type Finding struct {
	Diagnostic analyzer.Diagnostic
	Location   Location
	Object     *ObjectRef
	Notes      []Note
	Fixes      []Fix
	// SourceLine is the text of the line the finding starts on, for a
	// snippet (nil when the finding is in no file).
	SourceLine []byte
	// Sources say where the law inputs among the facts came from, by fact
	// name (analyzer.Diagnostic.Sources, with positions resolved).
	Sources map[string]Source
}

// Source is where one input of a finding came from: its bound ("exact",
// "lower", "upper"), origin, what an inference read, and where.
type Source struct {
	Bound  string `json:"bound"`
	Origin string `json:"origin"`
	Text   string `json:"source,omitempty"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
}

// Note is a related place.
type Note struct {
	Location Location
	Message  string
}

// Fix is a suggested fix with its edits resolved.
type Fix struct {
	Message string
	Safe    bool
	Edits   []Edit
}

// Edit is a fix's edit: its range and the text that replaces it.
type Edit struct {
	Location Location
	NewText  string
}

// Each calls fn with each shown finding, or with all every finding
// (suppressed and baselined ones too), resolved, in order. The findings
// are sorted by file and position (analyzer.Run sorts them, and so the
// line and column order within a file is their order): the texts read to
// resolve one file's findings are dropped when they move on to the next,
// and a Finding is valid only during its call.
func (r *Report) Each(all bool, fn func(*Finding) error) error {
	diags := r.Shown
	if all {
		diags = r.All
	}
	loc := NewLocator(r.Workspace)
	defer loc.Release()
	ahead := r.readAhead(diags)
	defer ahead.stop()
	var file *manifest.File
	var f Finding
	for _, d := range diags {
		if df := r.Workspace.FileOf(d.Pos); df != file {
			loc.Release()
			file = df
			if file != nil {
				ahead.next()
			}
		}
		f = Finding{Diagnostic: d, Location: loc.Locate(d.Pos, d.End), Object: r.objectOf(d)}
		if file != nil {
			f.SourceLine = loc.LineText(d.Pos, f.Location.Line)
		}
		for _, rel := range d.Related {
			f.Notes = append(f.Notes, Note{Location: loc.Locate(rel.Pos, rel.End), Message: rel.Message})
		}
		f.Sources = r.sources(d)
		for _, x := range d.SuggestedFixes {
			fix := Fix{Message: x.Message, Safe: x.Safe}
			for _, e := range x.Edits {
				fix.Edits = append(fix.Edits, Edit{Location: loc.Locate(e.Pos, e.End), NewText: e.NewText})
			}
			f.Fixes = append(f.Fixes, fix)
		}
		if err := fn(&f); err != nil {
			return err
		}
	}
	return nil
}

// readAhead is the reading of the texts of the files findings are in,
// a few files ahead of Each, on a goroutine of its own: reading a dropped
// text again is most of the cost of resolving a file's findings (a system
// call per file), and otherwise the printing waits for it, on one core.
// Each waits, on reaching a file, until its text is read (so that no
// text is read after Each dropped it), and drops the texts again as it
// moves on (Locator.Release): a report holds at most aheadFiles texts
// more than it did.
type readAhead struct {
	ready chan struct{} // one per file read and not yet reached by Each
	done  chan struct{} // closed by stop
	ended chan struct{} // closed when the reading goroutine returns
}

const aheadFiles = 16

func (r *Report) readAhead(diags []analyzer.Diagnostic) *readAhead {
	var files []*manifest.File
	var last *manifest.File
	for _, d := range diags {
		if f := r.Workspace.FileOf(d.Pos); f != last {
			last = f
			if f != nil {
				files = append(files, f)
			}
		}
	}
	a := &readAhead{ready: make(chan struct{}, aheadFiles-1), done: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(a.ended)
		for _, f := range files {
			f.Text()
			select {
			case a.ready <- struct{}{}:
			case <-a.done:
				return
			}
		}
	}()
	return a
}

// next waits until the next file of the list, which Each reached, is read.
func (a *readAhead) next() {
	select {
	case <-a.ready:
	case <-a.ended: // every file is read
	}
}

// stop ends the reading and waits for it: nothing is read once Each
// returns (it may return early, on an error of its callback).
func (a *readAhead) stop() {
	close(a.done)
	<-a.ended
}

// sources resolves the positions of a finding's input sources, by line
// alone (File.LineOf: a workload's file is not read into memory again for
// the rest of the run).
func (r *Report) sources(d analyzer.Diagnostic) map[string]Source {
	if len(d.Sources) == 0 {
		return nil
	}
	out := make(map[string]Source, len(d.Sources))
	for k, fs := range d.Sources {
		s := Source{Bound: fs.Bound, Origin: fs.Origin, Text: fs.Source}
		if f := r.Workspace.FileOf(fs.Pos); f != nil && fs.Pos.IsValid() {
			s.File, s.Line = f.Path, fs.Line
			if s.Line == 0 {
				s.Line = f.LineOf(fs.Pos)
			}
		}
		out[k] = s
	}
	return out
}
