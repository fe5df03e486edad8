package lsp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// TestDiskFileKeepsNoText: a file read from disk keeps neither its text
// nor its documents' (only a compact Mapper), yet its findings are placed
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
