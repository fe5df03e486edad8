package manifest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/token"
	"hash/maphash"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/scalelint/scalelint/analyzer/manifest/lines"
)

// A one-shot run over thousands of files keeps each file's bytes only
// while something reads them: once a file's views are built its text is
// dropped (DropText), and read again from its source when a finding in it
// is printed, a fix is made or a released tree is parsed again (Text).
// What is read again is checked against what was parsed.

var textSeed = maphash.MakeSeed()

// Text returns the file's bytes, reading them again if they were dropped.
func (f *File) Text() []byte {
	if t := f.text.Load(); t != nil {
		return *t
	}
	return f.readAgain()
}

// DropText frees the file's bytes and, with dropLines, its line tables;
// reload reads the bytes again on demand (nil: the reload and choice
// given before). A file without any reload keeps everything.
func (f *File) DropText(reload func() ([]byte, error), dropLines bool) {
	var into func([]byte) ([]byte, error)
	if reload != nil {
		into = func([]byte) ([]byte, error) { return reload() }
	}
	f.dropText(into, dropLines, false)
}

// DropTextInto is DropText for a run that reads thousands of files one
// after another (workspace.LoadReleased). With dropLines it keeps the
// line table packed (1-2 bytes a line), so Position needs no text for an
// ASCII file and the run's output does not read again each file with a
// finding. The file's text, which the
// caller hands over, and each text reload reads again into the memory it
// is given (TextBuffer), go back to be read into again when they are
// dropped, instead of to the garbage collector. A text is dropped, and
// its memory read into again, only where nothing holds it any more: Text
// and LineText return slices that are valid until the next drop (the
// report drops one file's text once its findings are printed; a run drops
// what its rules read again when it ends). reload may ignore the memory
// and return its own.
func (f *File) DropTextInto(reload func(buf []byte) ([]byte, error), dropLines bool) {
	f.dropText(reload, dropLines, true)
}

func (f *File) dropText(reload func([]byte) ([]byte, error), dropLines, recycle bool) {
	f.textMu.Lock()
	defer f.textMu.Unlock()
	if reload == nil {
		reload, dropLines, recycle = f.reload, f.dropLines, f.recycle
	}
	if reload == nil {
		return
	}
	t := f.text.Load()
	if t == nil {
		return
	}
	f.sum = maphash.Bytes(textSeed, *t)
	f.reload, f.dropLines, f.recycle = reload, dropLines, recycle
	f.text.Store(nil)
	f.yamlLines.Store(nil)
	if dropLines {
		// Every line query goes through Lines or Text, which read the
		// file again and restore the table first; Position goes through
		// the packed table first. Only a one-shot run's files (recycle)
		// keep one: the language server maps positions with a compact
		// table of its own (lsp.Mapper.Compact).
		old := f.Tok.Lines()
		if recycle && f.packed == nil {
			if p, ok := lines.Pack(old); ok {
				f.packed, f.ascii = p, isASCII(*t)
			}
		}
		f.Tok.SetLines([]int{0})
		if recycle && cap(old) > 1 {
			lineTables.Put(&old)
		}
	}
	if recycle {
		giveText(t)
	}
}

// isASCII reports whether b holds only ASCII bytes, eight at a time.
func isASCII(b []byte) bool {
	var or uint64
	for len(b) >= 8 {
		or |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		or |= uint64(c)
	}
	return or&0x8080808080808080 == 0
}

// compactPosition is Position from the packed line table of a file
// whose text was dropped (ok false when there is none, or the text is
// not ASCII, where a column counts code points): the line is the last
// that starts at or before pos, as token.File finds it, and the column
// the distance from its start, plus one.
func (f *File) compactPosition(pos token.Pos) (line, col int, ok bool) {
	if f.text.Load() != nil {
		return 0, 0, false
	}
	f.textMu.Lock()
	p, ascii := f.packed, f.ascii
	f.textMu.Unlock()
	if p == nil || !ascii || int(pos) < f.Tok.Base() || int(pos) > f.Tok.Base()+f.Tok.Size() {
		return 0, 0, false
	}
	off := f.Tok.Offset(pos)
	i := p.LineOf(off)
	if i < 0 {
		return 0, 0, false
	}
	return i + 1, off - p.Start(i) + 1, true
}

// lineTables holds the line tables of dropped texts (DropTextInto), as
// *[]int, for the next file's (lineTable).
var lineTables sync.Pool

// lineTable returns memory for a line table (appendLineStarts), from the
// tables dropped; nil when there is none.
func lineTable() []int {
	if p, ok := lineTables.Get().(*[]int); ok {
		return *p
	}
	return nil
}

// texts holds the memory of dropped texts (DropTextInto), as *[]byte,
// for the next read; the garbage collector empties it as it likes.
var texts sync.Pool

// maxRecycled bounds the texts kept for reading into again: a file of
// megabytes is rare, and its memory is not held for the next.
const maxRecycled = 1 << 20

// TextBuffer returns memory to read a file's text into (empty: append to
// it, or read into its capacity), from the texts dropped (DropTextInto);
// nil when there is none.
func TextBuffer() []byte {
	if p, ok := texts.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return nil
}

func giveText(t *[]byte) {
	if c := cap(*t); c > 0 && c <= maxRecycled {
		texts.Put(t)
	}
}

// Lines returns the file's token.File with its line table, reading the
// file again when the table was dropped with its text (DropText): what
// asks for a line number, a line start or the line count goes through
// here, never through Tok directly.
func (f *File) Lines() *token.File {
	f.Text()
	return f.Tok
}

// TextErr reports why the bytes read again are not those parsed (the file
// changed or vanished during the run), or nil.
func (f *File) TextErr() error {
	f.textMu.Lock()
	defer f.textMu.Unlock()
	return f.textErr
}

func (f *File) readAgain() []byte {
	f.textMu.Lock()
	defer f.textMu.Unlock()
	if t := f.text.Load(); t != nil {
		return *t
	}
	var buf []byte
	if f.recycle {
		buf = TextBuffer()
	}
	data, err := f.reload(buf)
	if err == nil && (len(data) != f.Tok.Size() || maphash.Bytes(textSeed, data) != f.sum) {
		err = fmt.Errorf("changed while scalelint read it; its findings may point at the wrong lines")
	}
	if err != nil {
		// Keep every offset valid (blanks of the parsed size) and leave
		// the error for the driver to report.
		f.textErr = fmt.Errorf("%s: %w", f.Path, err)
		data = bytes.Repeat([]byte{' '}, f.Tok.Size())
	}
	if f.dropLines {
		f.Tok.SetLines(appendLineStarts(lineTable(), data))
	}
	f.text.Store(&data)
	return data
}

// yamlLineStarts returns the line starts as yaml.v3 counts lines (see
// lineStarts), built on first use after parsing or reading again: the
// token.File's own table when the file breaks lines only with "\n".
func (f *File) yamlLineStarts(src []byte) []int {
	if l := f.yamlLines.Load(); l != nil {
		return *l
	}
	var l []int
	if sameBreaks(src) {
		l = f.Tok.Lines()
	} else {
		l = lineStarts(src)
	}
	f.yamlLines.Store(&l)
	return l
}

// MentionsScalelint reports whether the file's text holds "scalelint:",
// which every comment directive starts with: the files without it need
// not be read again to look for directives.
func (f *File) MentionsScalelint() bool { return f.mentions }

// SlashPath returns the file's path cleaned and with forward slashes,
// computed once per file, as a workspace compares the paths of every
// autoscaler and its candidate targets on each snapshot the language
// server makes.
func (f *File) SlashPath() string {
	f.pathOnce.Do(f.cleanPath)
	return f.slashPath
}

func (f *File) cleanPath() {
	f.slashPath = filepath.ToSlash(filepath.Clean(f.Path))
}

// dir returns the directories of SlashPath, without a leading "/" ("" for
// a file in "." or "/").
func (f *File) dir() string {
	d := path.Dir(f.SlashPath())
	if d == "." || d == "/" {
		return ""
	}
	return strings.TrimPrefix(d, "/")
}

// DirDepth returns the number of directories in SlashPath (0 for a file
// in "." or "/").
func (f *File) DirDepth() int {
	d := f.dir()
	if d == "" {
		return 0
	}
	return strings.Count(d, "/") + 1
}

// CommonDirDepth returns the number of leading directories the paths of
// two files share. It splits nothing: a run keeps a File for each of
// tens of thousands of files, and their directories' names were 3 MB.
func CommonDirDepth(a, b *File) int {
	da, db := a.dir(), b.dir()
	n := 0
	for da != "" && db != "" {
		ha, ra, _ := strings.Cut(da, "/")
		hb, rb, _ := strings.Cut(db, "/")
		if ha != hb {
			break
		}
		n++
		da, db = ra, rb
	}
	return n
}

// LineBounds returns the offsets of the start of the line holding pos and
// of the start of the next line (the file's length on the last line), as
// Lines counts lines ("\n", "\r\n" and "\r" end one). A file whose text
// was dropped (DropText) is read again for the answer alone and not kept:
// a rule that makes a fix for each of thousands of workloads must not
// bring their texts back into memory for the rest of the run.
func (f *File) LineBounds(pos token.Pos) (start, end int, ok bool) {
	if !pos.IsValid() || f.Tok == nil || int(pos) < f.Tok.Base() || int(pos) > f.Tok.Base()+f.Tok.Size() {
		return 0, 0, false
	}
	src := f.peekText()
	off := f.Tok.Offset(pos)
	if off < len(src) && off > 0 && src[off] == '\n' && src[off-1] == '\r' {
		off-- // the "\n" of a "\r\n" ends the line the "\r" is on
	}
	start = off
	for start > 0 && src[start-1] != '\n' && src[start-1] != '\r' {
		start--
	}
	end = off
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	switch {
	case end+1 < len(src) && src[end] == '\r' && src[end+1] == '\n':
		end += 2
	case end < len(src):
		end++
	}
	return start, end, true
}

// HeldLineBounds is LineBounds when the file's text is in memory, and
// ok=false (nothing read) when it was dropped: for a view that records,
// while its file is parsed, the line a fix will delete, so the fix does
// not read the file again.
func (f *File) HeldLineBounds(pos token.Pos) (start, end int, ok bool) {
	if f.text.Load() == nil {
		return 0, 0, false
	}
	return f.LineBounds(pos)
}

// peekText returns the file's text without keeping it when it was
// dropped: read again and checked as Text does; on any difference it
// falls back to Text, which records the error for the driver.
func (f *File) peekText() []byte {
	if t := f.text.Load(); t != nil {
		return *t
	}
	f.textMu.Lock()
	reload, size, sum := f.reload, f.Tok.Size(), f.sum
	f.textMu.Unlock()
	if reload != nil {
		// Not into recycled memory: the caller keeps no text, and the
		// garbage collector takes it back.
		if data, err := reload(nil); err == nil && len(data) == size && maphash.Bytes(textSeed, data) == sum {
			return data
		}
	}
	return f.Text()
}

// LineOf returns the 1-based line of pos as Lines counts lines, without
// keeping a dropped text: a finding that names where an inferred input was
// read (a probe in a workload's file) must not bring that file's text back
// into memory for the rest of the run. 0 when pos is not in the file.
func (f *File) LineOf(pos token.Pos) int {
	if !pos.IsValid() || f.Tok == nil || int(pos) < f.Tok.Base() || int(pos) > f.Tok.Base()+f.Tok.Size() {
		return 0
	}
	if f.text.Load() != nil {
		return f.Tok.Line(pos)
	}
	f.textMu.Lock()
	kept := !f.dropLines
	f.textMu.Unlock()
	if kept { // the text was dropped, its line table kept
		return f.Tok.Line(pos)
	}
	src := f.peekText()
	off := min(f.Tok.Offset(pos), len(src))
	if off == len(src) && off > 0 {
		off-- // a final line break opens no line
	}
	line := 1
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line++
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				if i+1 == off {
					return line // the "\n" of a "\r\n" ends the "\r"'s line
				}
				i++
			}
			line++
		}
	}
	return line
}
