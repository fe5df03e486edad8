package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/scalelint/scalelint/rules"
)

// TestInitializeVSCodeParams replays the exact initialize params of
// vscode-languageclient 11 (LSP 3.18 capabilities): the server decodes
// them, advertises incremental sync and pull diagnostics, registers its
// file watchers, answers pulls and does not also push for open documents.
func TestInitializeVSCodeParams(t *testing.T) {
	raw, err := os.ReadFile("testdata/vscode-languageclient-11-initialize-params.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := workspaceDir(t, "workspace")
	var params map[string]any
	if err := json.Unmarshal(raw, &params); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	var res protocol.InitializeResult
	c.mustCall(protocol.MethodInitialize, string(raw), &res)
	opts, ok := res.Capabilities.TextDocumentSync.(*protocol.TextDocumentSyncOptions)
	if !ok || opts.Change == nil || *opts.Change != protocol.TextDocumentSyncKindIncremental {
		t.Fatalf("textDocumentSync = %#v, want incremental", res.Capabilities.TextDocumentSync)
	}
	if _, ok := res.Capabilities.DiagnosticProvider.(*protocol.DiagnosticOptions); !ok {
		t.Fatalf("diagnosticProvider = %#v, want pull diagnostics for a client that pulls", res.Capabilities.DiagnosticProvider)
	}
	if res.Capabilities.PositionEncoding != protocol.PositionEncodingKindUTF16 {
		t.Errorf("positionEncoding = %q", res.Capabilities.PositionEncoding)
	}
	c.notify(protocol.MethodInitialized, "{}")
	c.waitUntil("a registration after initialized", func() bool { return len(c.registrations) > 0 })
	c.mu.Lock()
	reg := c.registrations[0]
	c.mu.Unlock()
	if reg.Method != protocol.MethodWorkspaceDidChangeWatchedFiles || !strings.Contains(string(reg.RegisterOptions), "**/*.{yaml,yml,json}") {
		t.Errorf("registration = %s %s", reg.Method, reg.RegisterOptions)
	}
	if !strings.Contains(c.log.String(), `unknown setting \"severityOverrides\" ignored`) {
		t.Errorf("the unknown initializationOptions key was not logged:\n%s", c.log)
	}

	// No workspace folder: the documents are linted together once open.
	c.dir = dir
	dep := c.open("deployment.yaml", "")
	u := c.open("consumer.yaml", "")
	var report protocol.DocumentDiagnosticReport
	c.mustCall(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &report)
	full, ok := report.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(full.Items) != 1 || full.ResultID == nil {
		t.Fatalf("pull report = %#v", report)
	}
	if code, _ := full.Items[0].Code.(protocol.String); code != "latency-floor" {
		t.Errorf("pulled %v, want latency-floor", full.Items[0].Code)
	}
	prev := *full.ResultID
	c.mustCall(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, PreviousResultID: &prev}, &report)
	if _, ok := report.(*protocol.RelatedUnchangedDocumentDiagnosticReport); !ok {
		t.Errorf("second pull = %#v, want unchanged", report)
	}
	// The pushed channel stays empty for open documents in pull mode.
	for _, p := range append(c.published(u), c.published(dep)...) {
		if len(p.Diagnostics) > 0 {
			t.Errorf("pushed %v for an open document of a pulling client", p.rules())
		}
	}
}

// TestOpenEditDiagnostics: open, incremental edits (including an insert
// at 0:0), versioned publications, codeDescription, relatedInformation,
// and a diagnostic cleared when its cause goes away.
func TestOpenEditDiagnostics(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	p := c.waitVersion(u, 1)
	if len(p.Diagnostics) != 1 || !p.has("latency-floor") {
		t.Fatalf("diagnostics = %v, want latency-floor", p.rules())
	}
	d := p.Diagnostics[0]
	if got := c.textOf(u, d.Range); got != `"10"` {
		t.Errorf("range covers %q, want the threshold", got)
	}
	if d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("severity = %d", d.Severity)
	}
	if want := rules.LatencyFloor.URL; string(d.CodeDescription.Href) != want || want == "" {
		t.Errorf("codeDescription = %q, want %q", d.CodeDescription.Href, want)
	}
	if src, _ := d.Source.Get(); src != "scalelint" {
		t.Errorf("source = %q", src)
	}
	if len(d.RelatedInformation) != 2 || !strings.Contains(d.RelatedInformation[0].Message, "dead time") {
		t.Errorf("relatedInformation = %+v", d.RelatedInformation)
	}

	// An insert at 0:0 must not be read as a whole-document change.
	v := c.change(u, []protocol.TextEdit{{Range: protocol.Range{}, NewText: "# a comment\n"}})
	p = c.waitVersion(u, v)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Line != 19 {
		t.Fatalf("after an insert at 0:0: %v at %+v", p.rules(), p.Diagnostics)
	}
	// Mid-edit: the threshold half typed; then fixed.
	v = c.edit(u, `lagThreshold: "10"`, `lagThreshold: "9`)
	c.waitVersion(u, v)
	v = c.edit(u, `lagThreshold: "9`, `lagThreshold: "985"`)
	p = c.waitVersion(u, v)
	if len(p.Diagnostics) != 0 {
		t.Fatalf("after the fix: %v, want none", p.rules())
	}
	if c.srv.current().files.get(filepath.Join(dir, "deployment.yaml")) == nil {
		t.Fatal("the workspace's other files were not indexed")
	}
}

// TestNewerVersionSupersedes: with a debounce, a quick second edit
// supersedes the first: only the newest version is published.
func TestNewerVersionSupersedes(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{Debounce: 300 * 1000 * 1000})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)
	v2 := c.edit(u, `lagThreshold: "10"`, `lagThreshold: "985"`)
	v3 := c.edit(u, `lagThreshold: "985"`, `lagThreshold: "11"`)
	p := c.waitVersion(u, v3)
	if !p.has("latency-floor") {
		t.Errorf("version %d: %v", v3, p.rules())
	}
	for _, p := range c.published(u) {
		if p.Version == v2 {
			t.Errorf("version %d was published although %d superseded it", v2, v3)
		}
	}
}

// TestHover: the rule's documentation on a finding, the evaluated laws on
// the autoscaler's fields, an annotation's documentation.
func TestHover(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)
	hover := func(s string, delta int) string {
		t.Helper()
		var h protocol.Hover
		c.mustCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, s, delta)}}, &h)
		mc, ok := h.Contents.(*protocol.MarkupContent)
		if !ok {
			t.Fatalf("hover at %q: %#v", s, h.Contents)
		}
		return mc.Value
	}
	v := hover(`lagThreshold: "10"`, 16)
	for _, want := range []string{"latency-floor", "What it does", "§2 latency floor", "D = T/c = 10/10 = 1s vs τ_eff·Φ = 100s × 0.895 = 89.5s", "**hunts**: threshold ≥ 985 rests", "`ceiling-over-peak` needs `scalelint.dev/scalability-peak`"} {
		if !strings.Contains(v, want) {
			t.Errorf("hover on the threshold lacks %q:\n%s", want, v)
		}
	}
	v = hover("ScaledObject", 2)
	if !strings.Contains(v, "**ScaledObject orders** → Deployment orders") || !strings.Contains(v, "| §2 latency floor |") {
		t.Errorf("hover on the kind:\n%s", v)
	}
	v = hover("scalelint.dev/dead-time", 3)
	if !strings.Contains(v, "**scalelint.dev/dead-time** (τ)") || !strings.Contains(v, "| law | numbers | verdict |") {
		t.Errorf("hover on an annotation:\n%s", v)
	}
	var h *protocol.Hover
	c.mustCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "bootstrapServers", 2)}}, &h)
	if h != nil {
		t.Errorf("hover on a field no law reads: %#v", h)
	}
}

// TestOverrideOptionsAgree: a per-path override's rule option is the one
// the quick fix (analyzer.Run, as in check) and the hover both apply:
// latency-floor's margin 1.0 makes the smallest resting threshold
// ceil(10 x 89.49 x 2) = 1790 (rules/laws/README.md §2), not the default
// 10% margin's 985.
func TestOverrideOptionsAgree(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	if err := os.WriteFile(filepath.Join(dir, ".scalelint.yaml"), []byte("overrides:\n- paths: [\"consumer.yaml\"]\n  rules:\n    latency-floor: {margin: 1.0}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	p := c.waitVersion(u, 1)
	if actions := c.codeActions(u, p.Diagnostics[0].Range); actions["Set lagThreshold to 1790"] == nil {
		t.Errorf("the quick fix ignores the override's margin: actions %v", keys(actions))
	}
	var h protocol.Hover
	c.mustCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, `lagThreshold: "10"`, 16)}}, &h)
	if mc, ok := h.Contents.(*protocol.MarkupContent); !ok || !strings.Contains(mc.Value, "**hunts**: threshold ≥ 1790 rests") {
		t.Errorf("hover: %#v", h.Contents)
	}
}

// codeActions returns the code actions on the first diagnostic of u.
func (c *testClient) codeActions(u uri.URI, r protocol.Range) map[string]*protocol.CodeAction {
	c.t.Helper()
	var res []protocol.CommandOrCodeAction
	c.mustCall(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: r}, &res)
	out := map[string]*protocol.CodeAction{}
	for _, a := range res {
		if ca, ok := a.(*protocol.CodeAction); ok {
			out[ca.Title] = ca
		}
	}
	return out
}

// TestCodeActions: the rule's fix as a quick fix with the document's
// version; applied, the diagnostic goes away. "Ignore RULE here" and "Add
// the annotations this autoscaler needs" do what they say.
func TestCodeActions(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	p := c.waitVersion(u, 1)
	actions := c.codeActions(u, p.Diagnostics[0].Range)
	fix := actions["Set lagThreshold to 985"]
	if fix == nil || fix.Kind == nil || *fix.Kind != protocol.CodeActionKindQuickFix || len(fix.Diagnostics) != 1 {
		t.Fatalf("actions = %v", keys(actions))
	}
	ignore := actions["Ignore latency-floor here"]
	add := actions["Add the annotations this autoscaler needs (demand, retries, scalability-peak)"]
	if ignore == nil || add == nil {
		t.Fatalf("actions = %v", keys(actions))
	}
	v := c.applyEdit(u, fix.Edit)
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Fatalf("after the fix: %v", p.rules())
	}
	if !strings.Contains(c.texts[u], `lagThreshold: "985"`) {
		t.Errorf("fixed text:\n%s", c.texts[u])
	}

	// Back to the finding; suppress it with a reason.
	v = c.edit(u, `"985"`, `"10"`)
	p = c.waitVersion(u, v)
	ignore = c.codeActions(u, p.Diagnostics[0].Range)["Ignore latency-floor here"]
	v = c.applyEdit(u, ignore.Edit)
	if !strings.Contains(c.texts[u], "      # scalelint:ignore latency-floor <reason>\n      lagThreshold: \"10\"") {
		t.Fatalf("ignore directive not inserted above the finding:\n%s", c.texts[u])
	}
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Fatalf("after the directive: %v", p.rules())
	}

	// Add the annotations: the evaluation's missing inputs, with placeholders.
	add = c.codeActions(u, protocol.Range{Start: c.positionOf(u, "ScaledObject", 0), End: c.positionOf(u, "ScaledObject", 0)})["Add the annotations this autoscaler needs (demand, retries, scalability-peak)"]
	if add == nil || add.Kind == nil || *add.Kind != protocol.CodeActionKindRefactorRewrite {
		t.Fatalf("no add-annotations action: %#v", add)
	}
	v = c.applyEdit(u, add.Edit)
	want := "    scalelint.dev/pod-rate: \"10\"\n    scalelint.dev/demand: \"2000\"\n    scalelint.dev/retries: \"2,2\"\n    scalelint.dev/scalability-peak: \"18\"\nspec:"
	if !strings.Contains(c.texts[u], want) {
		t.Fatalf("annotations not added:\n%s", c.texts[u])
	}
	p = c.waitVersion(u, v)
	if p.has("yaml-syntax") || p.has("invalid-annotation") {
		t.Errorf("the added annotations broke the manifest: %v", p.rules())
	}
}

func keys(m map[string]*protocol.CodeAction) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestDefinitionReferences: scaleTargetRef -> workload, workload ->
// autoscalers, across files.
func TestDefinitionReferences(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)
	var locs protocol.LocationSlice
	c.mustCall(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "    name: orders", 12)}}, &locs)
	dep := uri.File(filepath.Join(dir, "deployment.yaml"))
	if len(locs) != 1 || locs[0].URI != dep || locs[0].Range.Start != (protocol.Position{Line: 3, Character: 8}) ||
		locs[0].Range.End != (protocol.Position{Line: 3, Character: 14}) {
		t.Fatalf("definition = %+v", locs)
	}
	var refs []protocol.Location
	c.mustCall(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: dep}, Position: protocol.Position{Line: 3, Character: 10}},
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
	if len(refs) != 2 || refs[0].URI != dep || refs[1].URI != u || refs[1].Range.Start != (protocol.Position{Line: 10, Character: 10}) {
		t.Fatalf("references = %+v", refs)
	}
}

// TestConfiguration: initializationOptions and didChangeConfiguration
// carry .scalelint.yaml's keys; a bad setting is shown to the user.
func TestConfiguration(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, `{"rules": {"latency-floor": "warning"}, "logLevel": "debug"}`)
	u := c.open("consumer.yaml", "")
	p := c.waitVersion(u, 1)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Severity != protocol.DiagnosticSeverityWarning {
		t.Fatalf("with latency-floor at warning: %+v", p.Diagnostics)
	}
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings": {"scalelint": {"rules": {"latency-floor": "off"}}}}`)
	c.waitFor(u, "latency-floor off", func(p publication) bool { return len(p.Diagnostics) == 0 })
	// The pull model: no settings in the notification, the server asks.
	c.mu.Lock()
	c.configuration = `{"defaults": {"pod-rate": "1000"}}`
	c.mu.Unlock()
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings": null}`)
	c.waitFor(u, "configuration pulled", func(p publication) bool { return p.has("latency-floor") })
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, `{"settings": {"scalelint": {"rules": {"latency-flor": "off"}}}}`)
	c.waitUntil("a message on the unknown rule", func() bool { return len(c.messages) > 0 })
	c.mu.Lock()
	msg := c.messages[0]
	c.mu.Unlock()
	if msg.Type != protocol.MessageTypeError || !strings.Contains(msg.Message, `unknown rule "latency-flor" (did you mean "latency-floor"?)`) {
		t.Errorf("message = %+v", msg)
	}
}

// TestConfigFileAndWatchedFiles: a new file on disk that makes a conflict
// (reported in both files, cleared in both when it is deleted), and a
// .scalelint.yaml that turns a rule off, or is broken.
func TestConfigFileAndWatchedFiles(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)

	hpa := filepath.Join(dir, "hpa.yaml")
	hpaText := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: orders-cpu\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: orders}\n  maxReplicas: 10\n  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}\n"
	if err := os.WriteFile(hpa, []byte(hpaText), 0o644); err != nil {
		t.Fatal(err)
	}
	hu := uri.File(hpa)
	watch := func(u uri.URI, typ protocol.FileChangeType) {
		c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: u, Type: typ}}})
	}
	watch(hu, protocol.FileChangeTypeCreated)
	c.waitFor(u, "conflict in the open file", func(p publication) bool { return p.has("conflicting-autoscalers") })
	hp := c.waitFor(hu, "conflict in the file on disk", func(p publication) bool { return p.has("conflicting-autoscalers") })
	if hp.HasVersion {
		t.Errorf("a file that is not open was published with a version")
	}
	if err := os.Remove(hpa); err != nil {
		t.Fatal(err)
	}
	watch(hu, protocol.FileChangeTypeDeleted)
	c.waitFor(u, "conflict cleared", func(p publication) bool { return !p.has("conflicting-autoscalers") })
	c.waitFor(hu, "conflict cleared in the deleted file", func(p publication) bool { return len(p.Diagnostics) == 0 })

	cfg := filepath.Join(dir, ".scalelint.yaml")
	must(t, os.WriteFile(cfg, []byte("rules:\n  latency-floor: off\n"), 0o644))
	watch(uri.File(cfg), protocol.FileChangeTypeCreated)
	c.waitFor(u, "the rule turned off by .scalelint.yaml", func(p publication) bool { return len(p.Diagnostics) == 0 })
	must(t, os.WriteFile(cfg, []byte("rules:\n  latency-floor: off\nrulez: {}\n"), 0o644))
	watch(uri.File(cfg), protocol.FileChangeTypeChanged)
	cp := c.waitFor(uri.File(cfg), "the config error on .scalelint.yaml", func(p publication) bool { return p.has("config") })
	if d := cp.Diagnostics[0]; d.Range.Start.Line != 2 || !strings.Contains(string(d.Message.(protocol.String)), `unknown key "rulez" (did you mean "rules"?)`) {
		t.Errorf("config diagnostic = %+v", d)
	}
}

// TestMalformedYAMLKeepsOtherFiles: a document broken mid-edit reports a
// syntax error and never loses the other files' diagnostics.
func TestMalformedYAMLKeepsOtherFiles(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	dep := c.open("deployment.yaml", "")
	c.waitVersion(u, 1)
	c.waitVersion(dep, 1)
	other := filepath.Join(dir, "other.yaml")
	otherText := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: lonely\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: missing}\n  maxReplicas: 10\n"
	o := c.open(other, otherText)
	op := c.waitVersion(o, 1)
	if !op.has("unresolved-scale-target") {
		t.Fatalf("other.yaml: %v", op.rules())
	}
	v := c.edit(dep, "spec:\n  selector:", "spec:\n\tselector:")
	p := c.waitVersion(dep, v)
	if !p.has("yaml-syntax") {
		t.Fatalf("broken deployment: %v", p.rules())
	}
	// The consumer lost its target (not its diagnostics): its finding
	// needs no target; other.yaml keeps its own.
	if lp := c.latestOf(u); !lp.has("latency-floor") {
		t.Errorf("consumer.yaml lost its diagnostics: %v", lp.rules())
	}
	if lp := c.latestOf(o); !lp.has("unresolved-scale-target") {
		t.Errorf("other.yaml lost its diagnostics: %v", lp.rules())
	}
	v = c.edit(dep, "spec:\n\tselector:", "spec:\n  selector:")
	if p := c.waitVersion(dep, v); len(p.Diagnostics) != 0 {
		t.Errorf("repaired deployment: %v", p.rules())
	}
}

func (c *testClient) latestOf(u uri.URI) publication {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.latest[u]
}

// TestCloseClearsOutsideWorkspace: a document outside every workspace
// folder is linted while open and cleared when closed.
func TestCloseClearsOutsideWorkspace(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize("", "")
	c.dir = workspaceDir(t, "workspace")
	u := c.open("consumer.yaml", "")
	if p := c.waitVersion(u, 1); !p.has("latency-floor") || !p.has("unresolved-scale-target") {
		t.Fatalf("open: %v", p.rules())
	}
	c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	c.waitFor(u, "cleared on close", func(p publication) bool { return !p.HasVersion && len(p.Diagnostics) == 0 })
}

// TestUnknownMethod: requests the server does not implement get
// MethodNotFound; unknown notifications are ignored; the connection lives.
func TestUnknownMethod(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(workspaceDir(t, "workspace"), "")
	err := c.call("scalelint/nonexistent", "{}", nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("custom method: %v (code %d), want MethodNotFound", err, rpcCode(err))
	}
	err = c.call(protocol.MethodTextDocumentFormatting, `{"textDocument": {"uri": "file:///x.yaml"}, "options": {"tabSize": 2, "insertSpaces": true}}`, nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("formatting: %v, want MethodNotFound", err)
	}
	c.notify("$/unknownNotification", "{}")
	c.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, `{"event": {"added": [], "removed": []}}`)
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
}

// TestHandlerPanic: a panic in a handler is recovered, logged and
// answered with an InternalError; the server goes on.
func TestHandlerPanic(t *testing.T) {
	c := newClient(t, Options{})
	c.srv.testHook = func(ctx context.Context, method string) {
		if method == protocol.MethodTextDocumentHover {
			panic("boom")
		}
	}
	c.initialize(workspaceDir(t, "workspace"), "")
	u := c.open("consumer.yaml", "")
	c.waitVersion(u, 1)
	err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}}}, nil)
	if rpcCode(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("hover: %v, want an InternalError", err)
	}
	if !strings.Contains(c.log.String(), "handler panicked") || !strings.Contains(c.log.String(), "boom") {
		t.Errorf("the panic was not logged:\n%s", c.log)
	}
	v := c.edit(u, `"10"`, `"985"`)
	c.waitVersion(u, v)
	var res []protocol.CommandOrCodeAction
	c.mustCall(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &res)
}

// TestUTF16Positions: emoji and CJK before a field on the same line: the
// diagnostic's columns count UTF-16 units, and the code action's edit
// lands on the field.
func TestUTF16Positions(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	text := `# 注文 consumer 🚀
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
  annotations: {scalelint.dev/dead-time: "90s", scalelint.dev/pod-rate: "10", note: "注文🚀"}
spec:
  scaleTargetRef: {name: orders}
  triggers:
  - type: kafka
    metadata: {topic: "注文🚀", bootstrapServers: "kafka:9092", consumerGroup: 注文, lagThreshold: "10"}
`
	u := c.open("consumer.yaml", text)
	p := c.waitVersion(u, 1)
	if len(p.Diagnostics) != 1 {
		t.Fatalf("diagnostics: %v\n%s", p.rules(), text)
	}
	r := p.Diagnostics[0].Range
	line := strings.Split(text, "\n")[r.Start.Line]
	prefix := line[:strings.Index(line, `"10"}`)]
	if want := uint32(utf16Len(prefix)); r.Start.Character != want || r.End.Character != want+4 {
		t.Errorf("range %+v, want UTF-16 columns %d-%d on %q", r, want, want+4, line)
	}
	fix := c.codeActions(u, r)["Set lagThreshold to 985"]
	if fix == nil {
		t.Fatal("no fix")
	}
	v := c.applyEdit(u, fix.Edit)
	if !strings.Contains(c.texts[u], `consumerGroup: 注文, lagThreshold: "985"}`) {
		t.Fatalf("the fix landed elsewhere:\n%s", c.texts[u])
	}
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Errorf("after the fix: %v", p.rules())
	}
}

func mustRead(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// TestCompletion: scalelint.dev keys inside metadata.annotations, minus
// those present, with documentation; values for a key.
func TestCompletion(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	text := strings.Replace(mustRead(t, filepath.Join(dir, "consumer.yaml")), "    scalelint.dev/pod-rate: \"10\"\n", "    scalelint.dev/pod-rate: \"10\"\n    scal\n", 1)
	u := c.open("consumer.yaml", text)
	var list protocol.CompletionList
	c.mustCall(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "    scal\n", 8)}}, &list)
	labels := map[string]protocol.CompletionItem{}
	for _, it := range list.Items {
		labels[it.Label] = it
	}
	if _, ok := labels["scalelint.dev/dead-time"]; ok {
		t.Errorf("offered a key already present")
	}
	it, ok := labels["scalelint.dev/overload"]
	if !ok {
		t.Fatalf("items: %v", labels)
	}
	te, _ := it.TextEdit.(*protocol.TextEdit)
	if te == nil || te.NewText != `scalelint.dev/overload: "10"` || te.Range.Start.Character != 4 || te.Range.End.Character != 8 {
		t.Errorf("overload item edit = %+v", it.TextEdit)
	}
	if doc, _ := it.Documentation.(*protocol.MarkupContent); doc == nil || !strings.Contains(doc.Value, "Design overload") {
		t.Errorf("overload documentation = %#v", it.Documentation)
	}
	// Outside annotations: nothing.
	var none protocol.CompletionList
	c.mustCall(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "      topic", 8)}}, &none)
	if len(none.Items) != 0 {
		t.Errorf("completion outside annotations: %d items", len(none.Items))
	}
	// A value.
	v := c.edit(u, "    scal\n", "    scalelint.dev/signal: \n")
	_ = v
	var vals protocol.CompletionList
	c.mustCall(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: c.positionOf(u, "signal: \n", 8)}}, &vals)
	if len(vals.Items) != 2 || vals.Items[0].Label != `"backlog"` || vals.Items[1].Label != `"rate"` {
		t.Errorf("signal values = %+v", vals.Items)
	}
}

// TestInlayHints: the floor next to the threshold.
func TestInlayHints(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	u := c.open("consumer.yaml", "")
	var hints []protocol.InlayHint
	c.mustCall(protocol.MethodTextDocumentInlayHint, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 100}}}, &hints)
	if len(hints) != 1 {
		t.Fatalf("hints = %+v", hints)
	}
	if l, _ := hints[0].Label.(protocol.String); l != "D 1s · needs ≥ 89.5s · rests at ≥ 985" || hints[0].Position != c.positionOf(u, `lagThreshold: "10"`, 18) {
		t.Errorf("hint = %q at %+v", hints[0].Label, hints[0].Position)
	}
}

// TestInlayHintWhereTheFindingIs: the inlay hint of a backlog threshold
// sits at the end of the range latency-floor reports, also when neither
// the threshold (KEDA's default applies) nor the trigger has a position:
// here the trigger list sits under an alias key, which the typed decode
// reads and path lookups do not, so the finding falls back to the
// autoscaler's kind. Before, the language server had its own copy of the
// rule's choice of field without that fallback, and showed no hint.
func TestInlayHintWhereTheFindingIs(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(t.TempDir(), "")
	text := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
spec:
  template:
    spec:
      containers:
      - name: c
        image: orders
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: orders
  annotations:
    scalelint.dev/dead-time: "90s"
    scalelint.dev/pod-rate: "10"
    note: &t triggers
spec:
  scaleTargetRef:
    name: orders
  *t :
  - type: kafka
    metadata:
      topic: orders
`
	u := c.open("aliased.yaml", text)
	p := c.waitVersion(u, 1)
	var floor *protocol.Diagnostic
	for i, d := range p.Diagnostics {
		if d.Code == protocol.String("latency-floor") {
			floor = &p.Diagnostics[i]
		}
	}
	if floor == nil {
		t.Fatalf("diagnostics: %v, want latency-floor", p.rules())
	}
	if want := c.positionOf(u, "kind: ScaledObject", len("kind: ")); floor.Range.Start != want {
		t.Fatalf("latency-floor at %+v, want the kind at %+v", floor.Range.Start, want)
	}
	var hints []protocol.InlayHint
	c.mustCall(protocol.MethodTextDocumentInlayHint, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 100}}}, &hints)
	if len(hints) != 1 {
		t.Fatalf("hints = %+v, want one at %+v", hints, floor.Range.End)
	}
	// 985: the smallest resting threshold of latency-floor's worked example
	// (the same kafka default of 10, pod rate 10, dead time 90s).
	if l, _ := hints[0].Label.(protocol.String); !strings.Contains(string(l), "rests at ≥ 985") || hints[0].Position != floor.Range.End {
		t.Errorf("hint %q at %+v, want the floor's at %+v", hints[0].Label, hints[0].Position, floor.Range.End)
	}
}

// TestUnusedSuppressionTag: a suppression that matched nothing is tagged
// Unnecessary (editors fade it) and its fix removes it.
func TestUnusedSuppressionTag(t *testing.T) {
	dir := workspaceDir(t, "workspace")
	c := newClient(t, Options{})
	c.initialize(dir, "")
	text := strings.Replace(mustRead(t, filepath.Join(dir, "consumer.yaml")), "      topic: orders\n",
		"      topic: orders # scalelint:ignore ceiling-trap demand is capped upstream\n", 1)
	u := c.open("consumer.yaml", text)
	p := c.waitVersion(u, 1)
	var unused *protocol.Diagnostic
	for i, d := range p.Diagnostics {
		if d.Code == protocol.String("unused-suppression") {
			unused = &p.Diagnostics[i]
		}
	}
	if unused == nil {
		t.Fatalf("diagnostics: %v", p.rules())
	}
	if tags := unused.Tags.Slice(); len(tags) != 1 || tags[0] != protocol.DiagnosticTagUnnecessary {
		t.Errorf("tags = %v, want Unnecessary", tags)
	}
	fix := c.codeActions(u, unused.Range)["Remove the unused suppression"]
	if fix == nil {
		t.Fatal("no removal fix")
	}
	v := c.applyEdit(u, fix.Edit)
	if p := c.waitVersion(u, v); p.has("unused-suppression") || !strings.Contains(c.texts[u], "      topic: orders\n") {
		t.Errorf("after removal: %v\n%s", p.rules(), c.texts[u])
	}
}

// TestWorkspaceFoldersChange: a folder the client adds after initialize is
// indexed (the autoscaler's target in it resolves), and a folder it
// removes is forgotten (the target is missing again).
func TestWorkspaceFoldersChange(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: 10\n"
	dep := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {requests: {cpu: 250m}}\n"
	if err := os.WriteFile(filepath.Join(a, "hpa.yaml"), []byte(hpa), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "deployment.yaml"), []byte(dep), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{})
	res := c.initialize(a, "")
	if w := res.Capabilities.Workspace; w == nil || w.WorkspaceFolders == nil || w.WorkspaceFolders.Supported == nil || !*w.WorkspaceFolders.Supported {
		t.Fatalf("workspace folders not advertised: %+v", res.Capabilities.Workspace)
	}
	u := c.open("hpa.yaml", "")
	if p := c.waitVersion(u, 1); !p.has("unresolved-scale-target") {
		t.Fatalf("target in a folder not yet added: %v", p.rules())
	}
	change := func(added, removed string) {
		ev := map[string]any{"added": []any{}, "removed": []any{}}
		if added != "" {
			ev["added"] = []any{map[string]string{"uri": string(uri.File(added)), "name": "b"}}
		}
		if removed != "" {
			ev["removed"] = []any{map[string]string{"uri": string(uri.File(removed)), "name": "b"}}
		}
		c.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, map[string]any{"event": ev})
	}
	change(b, "")
	c.waitFor(u, "target resolved once its folder is added", func(p publication) bool { return !p.has("unresolved-scale-target") })
	change("", b)
	c.waitFor(u, "target missing once its folder is removed", func(p publication) bool { return p.has("unresolved-scale-target") })
}

// TestBrokenUnreadKindReported: a document of a kind no rule reads (a
// ConfigMap) is not decoded, but a syntax error in it is published at its
// line, and goes away when the text is repaired. The file holds a second
// document, so the error comes through the per-document parse cache.
func TestBrokenUnreadKindReported(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(workspaceDir(t, "workspace"), "")
	const good = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n  level: \"3\"\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n"
	u := c.open("settings.yaml", good)
	if p := c.waitVersion(u, 1); len(p.Diagnostics) != 0 {
		t.Fatalf("valid ConfigMap: %v", p.rules())
	}
	v := c.edit(u, "  level:", "   level:")
	p := c.waitVersion(u, v)
	if len(p.Diagnostics) != 1 || !p.has("yaml-syntax") || p.Diagnostics[0].Range.Start.Line != 6 {
		t.Fatalf("broken ConfigMap: %v at %v, want yaml-syntax on line 7", p.rules(), p.Diagnostics)
	}
	v = c.edit(u, "   level:", "  level:")
	if p := c.waitVersion(u, v); len(p.Diagnostics) != 0 {
		t.Errorf("repaired ConfigMap: %v", p.rules())
	}
}

// must fails the test when setting up its files fails: a write or a
// permission change that did not happen would test something else.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPullWithdrawsPushOnOpen: VS Code shows pushed and pulled
// diagnostics side by side (two collections), so the latency-floor pushed
// for consumer.yaml while it was closed, after the workspace was indexed,
// is withdrawn before the first pull of the opened file is answered. The
// debounce is long so that no lint after the open can withdraw it first:
// without the withdrawal the file's last push still holds the finding
// when the pull returns it, and the editor showed it twice.
func TestPullWithdrawsPushOnOpen(t *testing.T) {
	raw, err := os.ReadFile("testdata/vscode-languageclient-11-initialize-params.json")
	if err != nil {
		t.Fatal(err)
	}
	var params map[string]any
	if err := json.Unmarshal(raw, &params); err != nil {
		t.Fatal(err)
	}
	dir := workspaceDir(t, "workspace")
	params["rootUri"] = string(uri.File(dir))
	c := newClient(t, Options{Debounce: time.Minute})
	c.dir = dir
	var res protocol.InitializeResult
	c.mustCall(protocol.MethodInitialize, params, &res)
	c.notify(protocol.MethodInitialized, "{}")
	u := uri.File(filepath.Join(dir, "consumer.yaml"))
	c.waitFor(u, "the closed file's pushed latency-floor", func(p publication) bool { return p.has("latency-floor") })

	c.open("consumer.yaml", "")
	var report protocol.DocumentDiagnosticReport
	c.mustCall(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &report)
	if full, ok := report.(*protocol.RelatedFullDocumentDiagnosticReport); !ok || len(full.Items) != 1 {
		t.Fatalf("pull report = %#v, want the latency-floor", report)
	}
	pubs := c.published(u)
	if last := pubs[len(pubs)-1]; len(last.Diagnostics) != 0 {
		t.Errorf("when the pull was answered the push still held %v: the editor shows the finding twice", last.rules())
	}
}
