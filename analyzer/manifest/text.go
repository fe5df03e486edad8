package manifest

import (
	"fmt"
	"hash/maphash"
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

// DropText frees the file's bytes; reload reads them again on demand (nil:
// the reload given before). A file without any reload keeps its bytes.
func (f *File) DropText(reload func() ([]byte, error)) {
	f.textMu.Lock()
	defer f.textMu.Unlock()
	if reload == nil {
		reload = f.reload
	}
	if reload == nil {
		return
	}
	t := f.text.Load()
	if t == nil {
		return
	}
	f.sum = maphash.Bytes(textSeed, *t)
	f.reload = reload
	f.text.Store(nil)
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
	data, err := f.reload()
	if err == nil && (len(data) != f.size || maphash.Bytes(textSeed, data) != f.sum) {
		err = fmt.Errorf("changed while scalelint read it; its findings may point at the wrong lines")
	}
	if err != nil {
		// Keep the positions valid: blanks in the parsed file's line
		// structure, and the error for the driver to report.
		f.textErr = fmt.Errorf("%s: %w", f.Path, err)
		data = make([]byte, f.size)
		for i := range data {
			data[i] = ' '
		}
		for l := 2; l <= f.Tok.LineCount(); l++ {
			if at := f.Tok.Offset(f.Tok.LineStart(l)) - 1; at >= 0 && at < len(data) {
				data[at] = '\n'
			}
		}
	}
	f.text.Store(&data)
	return data
}

// MentionsScalelint reports whether the file's text holds "scalelint:",
// which every comment directive starts with: the files without it need
// not be read again to look for directives.
func (f *File) MentionsScalelint() bool { return f.mentions }
