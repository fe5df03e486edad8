package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestConfiguredLimits: the server parses within the limits of
// .scalelint.yaml, as the CLI does: a file over the configured number of
// documents is reported (input-limit) in an open document and in a file
// on disk; when the configuration changes the limits, every file is
// parsed again within the new ones.
func TestConfiguredLimits(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".scalelint.yaml")
	if err := os.WriteFile(cfg, []byte("limits:\n  maxDocuments: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	three := strings.Repeat("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n", 2) + "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	disk := filepath.Join(dir, "disk.yaml")
	if err := os.WriteFile(disk, []byte(three), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("open.yaml", three)
	// The limit (2) is below the default (10,000): only the configured
	// limit refuses 3 documents.
	refused := func(p publication) bool {
		for _, d := range p.Diagnostics {
			if strings.Contains(string(d.Message.(protocol.String)), "file has 3 documents, over the limit of 2") {
				return true
			}
		}
		return false
	}
	c.waitFor(u, "the configured document limit in the open file", refused)
	du := uri.File(disk)
	c.waitFor(du, "the configured document limit in the file on disk", refused)

	if err := os.WriteFile(cfg, []byte("limits:\n  maxDocuments: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{
		Changes: []protocol.FileEvent{{URI: uri.File(cfg), Type: protocol.FileChangeTypeChanged}}})
	c.waitFor(u, "the open file parsed again within the new limit", func(p publication) bool { return !refused(p) })
	c.waitFor(du, "the file on disk parsed again within the new limit", func(p publication) bool { return !refused(p) })
}
