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
	// users, when not nil, is shared with the Locators of other
	// goroutines (Each): a text is dropped when the last of them that
	// read it releases it, never while another reads it.
	users *textUsers
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
	if l.users != nil {
		// Every file once: each hold is one use of the shared count.
		for _, g := range l.read {
			if g == f {
				return
			}
		}
		l.users.acquire(f)
		l.read = append(l.read, f)
		return
	}
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
		if l.users != nil {
			l.users.release(f)
		} else {
			f.DropText(nil, false)
		}
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

// sources resolves the positions of a finding's input sources, by line
// alone (File.LineOf: a workload's file is not read into memory again for
// the rest of the run).
func (r *Report) sources(d analyzer.Diagnostic, loc *Locator) map[string]Source {
	if len(d.Sources) == 0 {
		return nil
	}
	out := make(map[string]Source, len(d.Sources))
	for k, fs := range d.Sources {
		s := Source{Bound: fs.Bound, Origin: fs.Origin, Text: fs.Source}
		if f := r.Workspace.FileOf(fs.Pos); f != nil && fs.Pos.IsValid() {
			s.File, s.Line = f.Path, fs.Line
			if s.Line == 0 {
				loc.hold(f) // not dropped by another goroutine meanwhile
				s.Line = f.LineOf(fs.Pos)
			}
		}
		out[k] = s
	}
	return out
}
