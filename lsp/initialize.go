package lsp

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	pull            bool // textDocument/diagnostic: the client pulls diagnostics of open documents
	diagRefresh     bool // workspace/diagnostic/refresh
	watchDynamic    bool // dynamic registration of workspace/didChangeWatchedFiles
	configuration   bool // workspace/configuration
	documentChanges bool // versioned WorkspaceEdit.documentChanges
	snippetEdits    bool // SnippetTextEdit in workspace edits
	markdownHover   bool
	completionSnip  bool // snippet completion items
}

func readCaps(c protocol.ClientCapabilities) clientCaps {
	var cc clientCaps
	t := func(b *bool) bool { return b != nil && *b }
	if w := c.Workspace; w != nil {
		if w.Diagnostics != nil {
			cc.diagRefresh = t(w.Diagnostics.RefreshSupport)
		}
		if w.DidChangeWatchedFiles != nil {
			cc.watchDynamic = t(w.DidChangeWatchedFiles.DynamicRegistration)
		}
		cc.configuration = t(w.Configuration)
		if w.WorkspaceEdit != nil {
			cc.documentChanges = t(w.WorkspaceEdit.DocumentChanges)
			cc.snippetEdits = t(w.WorkspaceEdit.SnippetEditSupport)
		}
	}
	cc.markdownHover = true
	if td := c.TextDocument; td != nil {
		cc.pull = td.Diagnostic != nil
		if td.Hover != nil && len(td.Hover.ContentFormat) > 0 {
			cc.markdownHover = false
			for _, k := range td.Hover.ContentFormat {
				if k == protocol.MarkupKindMarkdown {
					cc.markdownHover = true
				}
			}
		}
		if td.Completion != nil && td.Completion.CompletionItem != nil {
			cc.completionSnip = t(td.Completion.CompletionItem.SnippetSupport)
		}
	}
	return cc
}

// Initialize records the client's capabilities and settings, loads the
// configuration and indexes the workspace folders, so that the first lint
// resolves scale targets across files as the CLI does.
func (s *Server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var folders []string
	if ws, ok := params.WorkspaceFolders.Get(); ok {
		for _, f := range ws {
			if u := f.URI; u.IsFile() {
				folders = append(folders, pathOf(u))
			}
		}
	}
	// Clients that send no workspaceFolders (older editors, simple
	// plugins) give only the deprecated rootUri, or older still rootPath.
	//lint:ignore SA1019 read only when workspaceFolders is absent, for those clients
	rootURI, rootPath := params.RootURI, params.RootPath
	if len(folders) == 0 && rootURI != nil && rootURI.IsFile() {
		folders = append(folders, pathOf(*rootURI))
	}
	if len(folders) == 0 {
		if p, ok := rootPath.Get(); ok && p != "" {
			folders = append(folders, filepath.Clean(p))
		}
	}
	for i, f := range folders {
		if abs, err := filepath.Abs(f); err == nil {
			folders[i] = abs
		}
	}
	st, err := parseSettings([]byte(params.InitializationOptions))
	if err != nil {
		s.showMessage(ctx, protocol.MessageTypeError, "scalelint: initializationOptions: %v", err)
	}
	s.mu.Lock()
	s.traceLevel = traceLevel(params.Trace)
	s.caps = readCaps(params.Capabilities)
	s.folders = folders
	s.takeSettingsLocked(st)
	start := time.Now()
	s.reconfigureLocked(ctx, true) // starts indexing the folders, in the background
	s.newSnapshotLocked()
	caps := s.caps
	s.mu.Unlock()
	s.log.Info("initialized", "folders", folders, "took", time.Since(start))

	sync := protocol.TextDocumentSyncKindIncremental
	t := true
	res := &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKindUTF16,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &t,
				Change:    &sync,
				Save:      protocol.Boolean(true),
			},
			HoverProvider:      protocol.Boolean(true),
			DefinitionProvider: protocol.Boolean(true),
			ReferencesProvider: protocol.Boolean(true),
			CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
				protocol.CodeActionKindQuickFix, protocol.CodeActionKindRefactorRewrite}},
			CompletionProvider: &protocol.CompletionOptions{TriggerCharacters: []string{"/"}},
			InlayHintProvider:  protocol.Boolean(true),
			Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported: &t, ChangeNotifications: protocol.Boolean(true)}},
		},
		ServerInfo: protocol.ServerInfo{Name: "scalelint"},
	}
	if s.opts.Version != "" {
		res.ServerInfo.Version = protocol.NewOptional(s.opts.Version)
	}
	if caps.pull {
		id := "scalelint"
		res.Capabilities.DiagnosticProvider = &protocol.DiagnosticOptions{Identifier: &id, InterFileDependencies: true}
	}
	return res, nil
}

// Initialized registers the file watchers, when the client lets the
// server register them: manifests and the configuration file.
func (s *Server) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	s.mu.Lock()
	dynamic := s.caps.watchDynamic
	s.mu.Unlock()
	if !dynamic {
		return nil
	}
	opts := protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{
		{GlobPattern: protocol.Pattern("**/*.{yaml,yml,json}")},
		{GlobPattern: protocol.Pattern("**/.scalelint.{yaml,yml}")},
		// What a chart reads beside its YAML: template helpers, notes,
		// .helmignore, packaged subcharts (render.go).
		{GlobPattern: protocol.Pattern("**/{*.tpl,*.txt,.helmignore,*.tgz}")},
		// A kustomization named without an extension.
		{GlobPattern: protocol.Pattern("**/Kustomization")},
	}}
	raw, err := protocol.Marshal(opts)
	if err != nil {
		return err
	}
	reg := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "scalelint-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: protocol.LSPAny(raw)}}}
	// A call to the client must not wait on the read loop that runs this
	// notification.
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := s.client.RegisterCapability(ctx, reg); err != nil {
			s.log.Warn("registering file watchers failed", "err", err)
		}
	}()
	return nil
}

// Shutdown stops linting; the client's exit notification follows.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown, s.shutdownOK = true, true
	s.mu.Unlock()
	s.stopLint()
	return nil
}

// Exit ends the session.
func (s *Server) Exit(ctx context.Context) error {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// SetTrace makes the log as verbose as the trace value asks: "messages"
// logs at info, "verbose" at debug, "off" returns to the settings' level.
func (s *Server) SetTrace(ctx context.Context, params *protocol.SetTraceParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traceLevel = traceLevel(params.Value)
	s.applyLogLevelLocked()
	return nil
}

// traceLevel is the log level a trace value asks for; nil for off.
func traceLevel(v protocol.TraceValue) *slog.Level {
	var l slog.Level
	switch v {
	case protocol.TraceValueVerbose:
		l = slog.LevelDebug
	case protocol.TraceValueMessages:
		l = slog.LevelInfo
	default:
		return nil
	}
	return &l
}

// uriOf returns the URI of a snapshot's file: the editor's for an open
// document.
func uriOf(h *fileHandle) uri.URI {
	if h.uri != "" {
		return h.uri
	}
	return uri.File(h.path)
}

// invalidParams is a request error with the InvalidParams code.
func invalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}
