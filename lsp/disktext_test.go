package lsp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer/manifest"
)

// TestDiskFileKeepsNoText: a file read from disk keeps neither its text
// nor its documents' (nor a line table: its Mapper is built from the text
// read again, when a finding is placed), yet its findings are placed
// exactly where those of the same text opened in the editor are, which
// keeps its text and maps with a full Mapper. Its text is read again on
// demand, and refused once the disk no longer holds what was indexed.
func TestDiskFileKeepsNoText(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	path := filepath.Join(dir, "consumer.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A document before the ScaledObject: its parse starts past offset 0,
	// where its text is read again from.
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n---\n" + string(data)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := uri.File(path)
	disk := c.waitFor(u, "the index's findings", func(p publication) bool { return len(p.Diagnostics) > 0 })
	if !disk.has("latency-floor") {
		t.Fatalf("findings of the disk file: %v, want latency-floor (the workspace's one finding)", disk.rules())
	}

	h := c.srv.snapshot(context.Background()).File(path)
	if h == nil || h.open {
		t.Fatalf("no disk handle for %s", path)
	}
	if h.content != nil || h.Mapper().content != nil {
		t.Error("the disk file keeps its text")
	}
	if len(h.chunks) != 2 {
		t.Fatalf("%d documents, want 2", len(h.chunks))
	}
	for _, ch := range h.chunks {
		// Each document's text, read again from where it starts.
		got := string(ch.file.Text())
		if got == "" || !strings.HasPrefix(text[ch.start:], got) || ch.file.TextErr() != nil {
			t.Errorf("document at %d read again: %q, %v", ch.start, got, ch.file.TextErr())
		}
	}
	if got, ok := h.text(); !ok || string(got) != text {
		t.Errorf("text() = %q, %v; want the disk's", got, ok)
	}

	c.open("consumer.yaml", "")
	open := c.waitVersion(u, 1)
	if !reflect.DeepEqual(disk.Diagnostics, open.Diagnostics) {
		t.Errorf("the disk file's findings differ from those of its text opened:\ndisk %+v\nopen %+v", disk.Diagnostics, open.Diagnostics)
	}

	// The disk changes without the server being told (yet): the text
	// read again is not the one indexed, of the same length or not.
	for _, changed := range []string{strings.Replace(text, `lagThreshold: "10"`, `lagThreshold: "11"`, 1), text + "# more\n"} {
		if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := h.text(); ok {
			t.Errorf("text() after a change on disk = %q, true; want false", got)
		}
	}
}

// TestDiskFileMapperOnDemand: a file read from disk holds no line table
// until a finding or a request asks for one (most files of a large
// workspace never do); the Mapper then built from its text read again
// maps every offset and position as the plain model, NewMapper of the
// text, does. Once the disk no longer holds the text indexed, its offsets
// map as those of blanks of the size indexed (fileHandle.Mapper), within
// the text. A text that is not ASCII keeps its text and a full Mapper.
func TestDiskFileMapperOnDemand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hpa.yaml")
	text := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n---\n\nkind: X\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newParseCache(manifest.Limits{})
	h := c.diskHandle(path, []byte(text))
	if h.content != nil || h.mapper != nil {
		t.Fatalf("the disk file holds its text (%v) or a line table (%v) before any is asked", h.content != nil, h.mapper != nil)
	}
	m, want := h.Mapper(), NewMapper([]byte(text))
	if m.content != nil {
		t.Error("the Mapper built on demand holds the text")
	}
	for off := -1; off <= len(text)+1; off++ {
		if got, want := m.Position(off), want.Position(off); got != want {
			t.Errorf("Position(%d) = %+v, want %+v", off, got, want)
		}
	}
	for line := 0; line <= want.LineCount(); line++ {
		for char := uint32(0); char < 40; char++ {
			if got, want := m.Offset(pos(uint32(line), char)), want.Offset(pos(uint32(line), char)); got != want {
				t.Errorf("Offset(%d:%d) = %d, want %d", line, char, got, want)
			}
		}
	}

	// Changed on disk before the server is told: the blanks' places.
	h = c.diskHandle(path, []byte(text))
	if err := os.WriteFile(path, []byte("kind: Y\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	m = h.Mapper()
	if got, want := m.Position(len(text)+5), (protocol.Position{Line: 0, Character: uint32(len(text))}); got != want {
		t.Errorf("changed on disk: Position(past the end) = %+v, want %+v", got, want)
	}
	if m.LineCount() != 1 {
		t.Errorf("changed on disk: %d lines, want the blanks' 1", m.LineCount())
	}

	// Not ASCII: the text is kept, and mapped as an open document's.
	utf := "metadata:\n  name: 注文\n"
	h = c.diskHandle(path, []byte(utf))
	if string(h.content) != utf || h.Mapper().content == nil {
		t.Errorf("a text that is not ASCII: content %q, full Mapper %v", h.content, h.Mapper().content != nil)
	}
}
