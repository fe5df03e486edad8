// End-to-end test of `scalelint lsp` through vscode-languageserver-protocol,
// the protocol layer VS Code's client is built on: it spawns the real
// binary, opens a fixture, waits for the expected diagnostics, asks for a
// hover and a code action, applies the fix with an incremental change and
// sees the diagnostic go away. Run by run.sh (SCALELINT_BIN, FIXTURE).
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');

const bin = process.env.SCALELINT_BIN;
const fixture = process.env.FIXTURE || path.join(__dirname, '..', 'testdata', 'workspace');

function copyFixture() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-e2e-'));
  for (const f of fs.readdirSync(fixture)) {
    fs.copyFileSync(path.join(fixture, f), path.join(dir, f));
  }
  return dir;
}

// offsetAt and positionAt convert with UTF-16 columns, as editors do
// (JavaScript strings are UTF-16).
function positionAt(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}
function offsetAt(text, pos) {
  const lines = text.split('\n');
  let off = 0;
  for (let i = 0; i < pos.line; i++) off += lines[i].length + 1;
  return off + pos.character;
}

function applyEdits(text, edits) {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offsetAt(text, e.range.start)) + e.newText + text.slice(offsetAt(text, e.range.end));
  }
  return text;
}

test('scalelint lsp through vscode-languageserver-protocol', { timeout: 60000 }, async () => {
  assert.ok(bin, 'SCALELINT_BIN must name the scalelint binary');
  const dir = copyFixture();
  const child = cp.spawn(bin, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));

  const latest = new Map();
  const waiters = [];
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    latest.set(p.uri, p);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.cond(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  const waitFor = (uri, what, cond) => new Promise((resolve, reject) => {
    const p = latest.get(uri);
    if (p && cond(p)) return resolve(p);
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; last: ${JSON.stringify(latest.get(uri))}\n${stderr}`)), 20000);
    waiters.push({ uri, cond, resolve: (x) => { clearTimeout(timer); resolve(x); } });
  });
  let registered;
  const registration = new Promise((resolve) => { registered = resolve; });
  conn.onRequest(rpc.RegistrationRequest.type, (p) => { registered(p.registrations); return null; });
  conn.onNotification(rpc.ShowMessageNotification.type, (p) => { throw new Error(`unexpected message: ${p.message}`); });
  conn.listen();

  const init = await conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'fixture' }],
    initializationOptions: { debounceMs: 0 },
    capabilities: {
      workspace: {
        workspaceEdit: { documentChanges: true },
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor.rewrite'] } } },
      },
    },
  });
  assert.strictEqual(init.capabilities.textDocumentSync.change, rpc.TextDocumentSyncKind.Incremental);
  assert.strictEqual(init.capabilities.diagnosticProvider, undefined, 'no pull diagnostics for a client that does not pull');
  await conn.sendNotification(rpc.InitializedNotification.type, {});

  const file = path.join(dir, 'consumer.yaml');
  const uri = pathToFileURL(file).href;
  let text = fs.readFileSync(file, 'utf8');
  let version = 1;
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text } });
  let pub = await waitFor(uri, 'latency-floor on version 1', (p) => p.version === 1);
  assert.deepStrictEqual(pub.diagnostics.map((d) => d.code), ['latency-floor']);
  const diag = pub.diagnostics[0];
  assert.strictEqual(text.slice(offsetAt(text, diag.range.start), offsetAt(text, diag.range.end)), '"10"');
  assert.match(diag.codeDescription.href, /rules\/README\.md#latency-floor$/);
  assert.strictEqual(diag.relatedInformation.length, 2);
  const registrations = await registration;
  assert.ok(registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'), 'file watchers registered');

  // Hover on the finding: the rule's documentation and the evaluated laws.
  const hover = await conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: diag.range.start });
  assert.match(hover.contents.value, /latency-floor/);
  assert.match(hover.contents.value, /§2 latency floor \| D = T\/c = 10\/10 = 1s vs τ_eff·Φ = 100s × 0\.895 = 89\.5s/);

  // Definition goes to the workload in the other file.
  const def = await conn.sendRequest(rpc.DefinitionRequest.type, { textDocument: { uri }, position: positionAt(text, text.indexOf('name: orders\n  maxReplica') + 7) });
  assert.strictEqual(def[0].uri, pathToFileURL(path.join(dir, 'deployment.yaml')).href);

  // A cancelled request is answered (cancelled or not) and the server goes on.
  const source = new rpc.CancellationTokenSource();
  const cancelled = conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri }, position: diag.range.start }, source.token);
  source.cancel();
  await cancelled.then(() => {}, (e) => assert.ok(e.code === rpc.LSPErrorCodes.RequestCancelled || e instanceof Error));

  // An unknown method gets MethodNotFound.
  await assert.rejects(conn.sendRequest('scalelint/unknown', {}), (e) => e.code === rpc.ErrorCodes.MethodNotFound);

  // The quick fix, applied as an incremental change.
  const actions = await conn.sendRequest(rpc.CodeActionRequest.type, { textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] } });
  const fix = actions.find((a) => a.title === 'Set lagThreshold to 985');
  assert.ok(fix, `actions: ${actions.map((a) => a.title)}`);
  assert.ok(actions.some((a) => a.title === 'Ignore latency-floor here'));
  const change = fix.edit.documentChanges[0];
  assert.strictEqual(change.textDocument.version, version);
  text = applyEdits(text, change.edits);
  version++;
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version },
    contentChanges: change.edits.map((e) => ({ range: e.range, text: e.newText })),
  });
  pub = await waitFor(uri, 'no diagnostics on version 2', (p) => p.version === version);
  assert.deepStrictEqual(pub.diagnostics, []);
  assert.match(text, /lagThreshold: "985"/);

  // Emoji and CJK before the field: UTF-16 columns.
  const emojiText = text.replace('lagThreshold: "985"', 'lagThreshold: "10"').replace('      topic: orders\n', '      topic: "注文🚀"\n');
  const flow = emojiText.replace(/    metadata:\n      topic: "注文🚀"\n      bootstrapServers: kafka:9092\n      consumerGroup: orders\n      lagThreshold: "10"\n/,
    '    metadata: {topic: "注文🚀", bootstrapServers: "kafka:9092", lagThreshold: "10"}\n');
  assert.notStrictEqual(flow, emojiText);
  version++;
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text: flow }] });
  text = flow;
  pub = await waitFor(uri, 'latency-floor after the emoji', (p) => p.version === version);
  assert.strictEqual(pub.diagnostics.length, 1);
  const r = pub.diagnostics[0].range;
  assert.strictEqual(text.slice(offsetAt(text, r.start), offsetAt(text, r.end)), '"10"');

  await conn.sendRequest(rpc.ShutdownRequest.type);
  await conn.sendNotification(rpc.ExitNotification.type);
  const code = await exited;
  assert.strictEqual(code, 0, `exit code ${code}\n${stderr}`);
  conn.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});
