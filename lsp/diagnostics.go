package lsp

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/analyzer"
	"github.com/scalelint/scalelint/rules"
)

// lintState is the debounced, cancellable lint of the latest snapshot.
type lintState struct {
	mu     sync.Mutex
	timer  *time.Timer
	cancel context.CancelFunc
	done   bool // shut down
	// latest is the newest snapshot scheduled: an older one is never
	// scheduled after it (the index, finished in the background, makes
	// its snapshot under the lock and schedules it after; a change may
	// have made and scheduled a newer one in between).
	latest uint64
	// life ends when linting stops (stopLint): the lint of a snapshot
	// others derive from runs in it, not in the cancellable context of
	// its own publication (Snapshot.compute).
	life     context.Context
	stopLife context.CancelFunc
}

// publishState is what the client was last sent, per file.
type publishState struct {
	mu        sync.Mutex
	published map[string]publishedFile // by path
	lastID    uint64                   // the snapshot last published
}

type publishedFile struct {
	uri     uri.URI
	key     string // the encoded diagnostics and version last published
	pushed  bool   // the last publication held diagnostics
	open    bool
	version int32
	pulled  bool // the client pulls this document's diagnostics
	// items identifies the slice the key was computed from: a file the
	// edit did not reach has the very same slice (fileDiags.protocol),
	// so its key need not be computed again.
	items *protocol.Diagnostic
	n     int
}

// next returns the state of a file's next publication (its key not yet
// set) after pf: the file's handle (nil when it left the snapshot) and
// findings.
func (pf publishedFile) next(path string, h *fileHandle, items []protocol.Diagnostic, pull bool) publishedFile {
	next := publishedFile{uri: pf.uri}
	if h != nil {
		next.uri, next.open, next.version = uriOf(h), h.open, h.version
	} else if next.uri == "" {
		next.uri = uri.File(path)
	}
	next.pulled = pull && next.open
	if len(items) > 0 {
		next.items, next.n = &items[0], len(items)
	}
	return next
}

// current reports whether a publication was made from the very same
// findings, in the same state of the file: nothing to publish.
func (pf publishedFile) current(h *fileHandle, items []protocol.Diagnostic, pull bool) bool {
	if pf.key == "" || h == nil {
		return false
	}
	n := pf.next("", h, items, pull)
	return pf.items == n.items && pf.n == n.n && pf.uri == n.uri && pf.open == n.open &&
		pf.version == n.version && pf.pulled == n.pulled
}

// scheduleLint lints snap after the debounce delay. A newer snapshot
// supersedes it: the pending or running lint of the older one is
// cancelled (its results, if it finishes, are not published).
func (s *Server) scheduleLint(snap *Snapshot) {
	s.mu.Lock()
	delay := s.debounce
	s.mu.Unlock()
	s.scheduleLintAfter(snap, delay)
}

// scheduleLintAfter is scheduleLint with a given delay.
func (s *Server) scheduleLintAfter(snap *Snapshot, delay time.Duration) {
	if snap.indexing != nil {
		// The index, once built, lints the snapshot it makes; until then,
		// once its walk is done, the open documents' local findings.
		if e := snap.indexing.early.Load(); e != nil {
			s.scheduleEarlyLint(snap, e, delay)
		}
		return
	}
	s.scheduleRun(snap, delay, func(ctx context.Context) { s.runLint(ctx, snap) })
}

// scheduleRun runs a snapshot's lint after the debounce delay, unless a
// newer snapshot was scheduled: it supersedes the lint pending or running
// (cancelled) for an older one, early or complete.
func (s *Server) scheduleRun(snap *Snapshot, delay time.Duration, run func(context.Context)) {
	s.lint.mu.Lock()
	defer s.lint.mu.Unlock()
	if s.lint.done || snap.id < s.lint.latest {
		return
	}
	s.lint.latest = snap.id
	if s.lint.cancel != nil {
		s.lint.cancel()
	}
	if s.lint.timer != nil {
		s.lint.timer.Stop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.lint.cancel = cancel
	s.lint.timer = time.AfterFunc(max(delay, 0), func() { run(ctx) })
}

// stopLint cancels any lint and stops scheduling new ones.
func (s *Server) stopLint() {
	s.lint.mu.Lock()
	defer s.lint.mu.Unlock()
	s.lint.done = true
	s.lint.stopLife()
	if s.lint.cancel != nil {
		s.lint.cancel()
	}
	if s.lint.timer != nil {
		s.lint.timer.Stop()
	}
}

// runLint computes the snapshot's diagnostics and publishes, for every
// file whose diagnostics changed, the new set; open documents get theirs
// with their version each time it changes.
func (s *Server) runLint(ctx context.Context, snap *Snapshot) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("lint panicked", "panic", r)
		}
	}()
	if s.testHook != nil {
		s.testHook(ctx, testHookLint)
	}
	start := time.Now()
	fds, err := snap.fileDiagnostics(ctx)
	if err != nil {
		return // superseded
	}
	itemsOf := func(p string) []protocol.Diagnostic { return protocolFor(snap, fds, p) }
	s.mu.Lock()
	pull := s.caps.pull
	refresh := s.caps.diagRefresh
	s.mu.Unlock()

	s.pub.mu.Lock()
	defer s.pub.mu.Unlock()
	if ctx.Err() != nil {
		return // a newer snapshot's lint will publish
	}
	// The files to publish again: those with findings, open ones, and
	// those last published with findings, less those published from the
	// very same findings in the same state (most of them, after an edit).
	paths := map[string]bool{}
	consider := func(p string) {
		if !paths[p] && !s.pub.published[p].current(snap.files.get(p), itemsOf(p), pull) {
			paths[p] = true
		}
	}
	if snap.relinted != nil && s.pub.lastID == snap.derivedFrom {
		// What was last published is the base's: only the files linted
		// again can differ (and open documents, whose state is checked
		// anyway); every other file's findings are the base's slices.
		for p := range snap.relinted {
			consider(p)
		}
	} else {
		convertAll(snap, fds)
		fds.each(func(p string, _ *fileDiags) { consider(p) })
		for p, pf := range s.pub.published {
			if pf.pushed || pf.open {
				consider(p)
			}
		}
	}
	for p, h := range snap.files.over {
		if h != nil && h.open {
			consider(p)
		}
	}
	if h, _, ok := configDiagnostic(snap); ok {
		consider(h.path)
	}
	s.pub.lastID = snap.id
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	// The open documents first: they are what the user looks at, and
	// after an index thousands of other files may follow.
	open := func(p string) bool { h := snap.files.get(p); return h != nil && h.open }
	sort.Slice(sorted, func(i, j int) bool {
		if oi, oj := open(sorted[i]), open(sorted[j]); oi != oj {
			return oi
		}
		return sorted[i] < sorted[j]
	})
	needRefresh := false
	published := 0
	for _, p := range sorted {
		h := snap.files.get(p)
		items := itemsOf(p)
		prev := s.pub.published[p]
		next := prev.next(p, h, items, pull)
		if next.pulled {
			// The client pulls this document's diagnostics: clear what was
			// pushed for it, and ask for a new pull when they changed
			// without an edit of it (a change in another file).
			next.key = diagKey(items, 0, false)
			if prev.open && prev.version == next.version && prev.key != next.key {
				needRefresh = true
			}
			if prev.pushed {
				s.push(next.uri, nil, nil)
			}
			s.pub.published[p] = next
			continue
		}
		var version *int32
		if next.open {
			v := next.version
			version = &v
		}
		next.key = diagKey(items, next.version, next.open)
		next.pushed = len(items) > 0
		if next.key == prev.key && prev.uri == next.uri {
			s.pub.published[p] = next
			continue
		}
		s.push(next.uri, version, items)
		published++
		if !next.pushed && !next.open {
			delete(s.pub.published, p)
		} else {
			s.pub.published[p] = next
		}
	}
	if needRefresh && refresh {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.client.DiagnosticRefresh(ctx); err != nil {
				s.log.Debug("workspace/diagnostic/refresh", "err", err)
			}
		}()
	}
	if snap.afterIndex {
		s.log.Info("published the indexed workspace's diagnostics", "files", published, "took", time.Since(start))
		s.limitMemory()
	}
	s.log.Debug("lint", "snapshot", snap.id, "files", snap.files.len(), "with-diagnostics", fds.len(), "published", published, "took", time.Since(start))
}

// push sends textDocument/publishDiagnostics.
func (s *Server) push(u uri.URI, version *int32, items []protocol.Diagnostic) {
	if items == nil {
		items = []protocol.Diagnostic{}
	}
	p := &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: items}
	if version != nil {
		p.Version = protocol.NewOptional(*version)
	}
	if err := s.client.PublishDiagnostics(context.Background(), p); err != nil {
		s.log.Debug("publishDiagnostics", "uri", u, "err", err)
	}
}

// convertAll converts every file's findings to the protocol's form
// (fileDiags.protocol) on every processor, ahead of a publication of the
// whole workspace: each file's findings are placed with its Mapper, built
// from its text read again for a file read from disk (fileHandle.Mapper),
// thousands of reads after an index.
func convertAll(snap *Snapshot, fds diagMap) {
	var all []*fileDiags
	fds.each(func(_ string, fd *fileDiags) { all = append(all, fd) })
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(all)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(all); i = int(next.Add(1)) - 1 {
				all[i].protocol(snap)
			}
		}()
	}
	wg.Wait()
}

// diagKey identifies a publication: the diagnostics, and the version for
// an open document. It hashes the fields scalelint sets (the code
// description and source follow from the code); a field of a type it does
// not know is hashed through its JSON encoding.
func diagKey(items []protocol.Diagnostic, version int32, open bool) string {
	var h maphash.Hash
	h.SetSeed(diagSeed)
	num := func(v uint32) {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], v)
		h.Write(b[:])
	}
	str := func(s string) {
		num(uint32(len(s)))
		h.WriteString(s)
	}
	rng := func(r protocol.Range) {
		num(r.Start.Line)
		num(r.Start.Character)
		num(r.End.Line)
		num(r.End.Character)
	}
	union := func(v any) {
		switch x := v.(type) {
		case nil:
			str("")
		case protocol.String:
			str(string(x))
		default:
			b, _ := protocol.Marshal(x)
			str(string(b))
		}
	}
	num(uint32(len(items)))
	for i := range items {
		d := &items[i]
		rng(d.Range)
		num(uint32(d.Severity))
		union(d.Code)
		union(d.Message)
		num(uint32(d.Tags.Len()))
		for _, t := range d.Tags.Slice() {
			num(uint32(t))
		}
		num(uint32(len(d.RelatedInformation)))
		for _, r := range d.RelatedInformation {
			str(string(r.Location.URI))
			rng(r.Location.Range)
			str(r.Message)
		}
		if d.Data != nil {
			b, _ := protocol.Marshal(d.Data)
			str(string(b))
		}
	}
	if open {
		num(uint32(version))
		num(1)
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

var diagSeed = maphash.MakeSeed()

// protocolFor returns a file's findings in the protocol's form, with the
// configuration file's error when it is that file. The slice may be shared
// with other snapshots: do not change it.
func protocolFor(snap *Snapshot, fds diagMap, path string) []protocol.Diagnostic {
	var items []protocol.Diagnostic
	if fd := fds.get(path); fd != nil && path != "" {
		items = fd.protocol(snap)
	}
	if h, pd, ok := configDiagnostic(snap); ok && h.path == path {
		items = append(slices.Clip(items), pd)
		sortByPosition(items)
	}
	return items
}

// sortByPosition orders a file's findings by position.
func sortByPosition(items []protocol.Diagnostic) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i].Range.Start, items[j].Range.Start
		return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
	})
}

// configDiagnostic places a configuration file's error at its position.
func configDiagnostic(snap *Snapshot) (*fileHandle, protocol.Diagnostic, bool) {
	var ce *analyzer.ConfigError
	if !errors.As(snap.cfgErr, &ce) {
		return nil, protocol.Diagnostic{}, false
	}
	h := snap.files.get(ce.Path)
	if h == nil {
		return nil, protocol.Diagnostic{}, false
	}
	var r protocol.Range
	if ce.Line > 0 {
		line := ce.Line - 1
		start := h.Mapper().LineStart(line)
		// The column counts code points: walk them.
		off := start
		for c := 1; c < ce.Col && off < len(h.content) && h.content[off] != '\n'; c++ {
			_, size := utf8.DecodeRune(h.content[off:])
			off += size
		}
		end := off
		for end < len(h.content) && h.content[end] != '\n' && h.content[end] != '\r' && h.content[end] != ':' {
			end++
		}
		r = h.Mapper().Range(off, end)
	}
	return h, protocol.Diagnostic{
		Range: r, Severity: protocol.DiagnosticSeverityError, Code: protocol.String("config"),
		Source: protocol.NewOptional("scalelint"), Message: protocol.String(ce.Msg),
	}, true
}

// severity maps a finding's severity.
func severity(s analyzer.Severity) protocol.DiagnosticSeverity {
	switch s {
	case analyzer.Error:
		return protocol.DiagnosticSeverityError
	case analyzer.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// toProtocol converts one finding: UTF-16 range, severity, the rule as
// code with a link to its documentation, related places, tags.
func toProtocol(snap *Snapshot, d *analyzer.Diagnostic) (*fileHandle, protocol.Diagnostic, bool) {
	h, start, end := snap.span(d.Pos, d.End)
	if h == nil {
		return nil, protocol.Diagnostic{}, false
	}
	pd := protocol.Diagnostic{
		Range:    h.Mapper().Range(start, end),
		Severity: severity(d.Severity),
		Code:     protocol.String(d.Rule),
		Source:   protocol.NewOptional("scalelint"),
		Message:  protocol.String(d.Message),
	}
	if a, ok := rules.ByName(d.Rule); ok && a.URL != "" {
		pd.CodeDescription = protocol.CodeDescription{Href: uri.URI(a.URL)}
	}
	if d.Rule == analyzer.UnusedSuppression.Name {
		pd.Tags = protocol.NewDiagnosticTags(protocol.DiagnosticTagUnnecessary)
	}
	for _, r := range d.Related {
		rh, rs, re := snap.span(r.Pos, r.End)
		if rh == nil {
			continue
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uriOf(rh), Range: rh.Mapper().Range(rs, re)},
			Message:  r.Message,
		})
	}
	return h, pd, true
}

// Diagnostic answers a pull (textDocument/diagnostic) with the document's
// full report, or "unchanged" when it matches the client's previous one.
func (s *Server) Diagnostic(ctx context.Context, params *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	snap := s.snapshot(ctx)
	path := pathOf(params.TextDocument.URI)
	fds, err := snap.fileDiagnostics(ctx)
	if err != nil {
		return nil, err
	}
	items := protocolFor(snap, fds, path)
	if items == nil {
		items = []protocol.Diagnostic{}
	}
	if h := snap.files.get(path); h != nil && h.open {
		s.withdrawPush(path)
	}
	id := diagKey(items, 0, false)
	if params.PreviousResultID != nil && *params.PreviousResultID == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{
			UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
				Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id}}, nil
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: items}}, nil
}

// withdrawPush clears what was pushed for a document whose diagnostics the
// client now pulls. VS Code keeps pushed and pulled diagnostics in two
// collections and shows both, so a file pushed while it was closed (the
// whole workspace is published after indexing) showed each finding twice
// from its first pull until the next lint withdrew the push, a debounce
// and a lint later. Called before the pull is answered, so the withdrawal
// reaches the client first.
func (s *Server) withdrawPush(path string) {
	s.pub.mu.Lock()
	defer s.pub.mu.Unlock()
	if pf, ok := s.pub.published[path]; ok && pf.pushed {
		s.push(pf.uri, nil, nil)
		delete(s.pub.published, path) // as if nothing had been pushed
	}
}
