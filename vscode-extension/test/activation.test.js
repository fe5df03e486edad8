// activate() against a fake `vscode` and a recording LanguageClient (the
// rest of vscode-languageclient is the real one): the commands, the status
// bar item, the client started with the right command, arguments and
// options, settings translated on push and pull, bounded restarts with a
// notice, the restart on a new scalelint.path, the not-found message, the
// Explain rule command, and a clean stop. Loads out/ (tsc's output).
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { install, extensionContext } = require('./fake-vscode');

const ext = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
const platformDir = `${process.platform}-${process.arch}`;

// A stand-in server binary: answers the CLI calls Explain rule makes.
const FAKE_BINARY = `#!/bin/sh
case "$1 $2 $3" in
  "version  ")
    echo "scalelint v9.9.8" ;;
  "rules --format json")
    echo '[{"name":"latency-floor","severity":"error","title":"Backlog threshold below the standing delay"},{"name":"tolerance-trap","severity":"error","title":"CPU target the controller never scales up from"}]' ;;
  "rules --format markdown")
    printf '# scalelint rules\\n\\n## latency-floor\\n\\nBacklog threshold.\\n\\n### What it does\\n\\nComputes the floor.\\n\\n## tolerance-trap\\n\\nCPU target.\\n\\n### Example\\n\\n\`\`\`yaml\\n## not a heading\\n\`\`\`\\n' ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac
`;

function writeExe(file, body = FAKE_BINARY) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
  fs.chmodSync(file, 0o755);
  return file;
}

function tmpdir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Loads out/extension.js with a fresh fake vscode and a recording client. */
function load(options = {}) {
  const clients = [];
  const fake = install(options);
  const real = require('vscode-languageclient/node');
  const { State } = real;
  class RecordingClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions });
      this.running = false;
      this.stops = 0;
      this.notifications = [];
      this.listeners = [];
      clients.push(this);
    }
    onDidChangeState(l) {
      this.listeners.push(l);
      return { dispose() {} };
    }
    fire(oldState, newState) {
      for (const l of this.listeners) l({ oldState, newState });
    }
    async start() {
      this.fire(State.Stopped, State.Starting);
      this.initOptions = typeof this.clientOptions.initializationOptions === 'function'
        ? this.clientOptions.initializationOptions()
        : this.clientOptions.initializationOptions;
      if (options.startError) {
        this.fire(State.Starting, State.Stopped);
        throw new Error(options.startError);
      }
      this.running = true;
      this.initializeResult = { capabilities: {}, serverInfo: { name: 'scalelint', version: 'v9.9.9' } };
      this.fire(State.Starting, State.Running);
    }
    isRunning() {
      return this.running;
    }
    needsStop() {
      return this.running;
    }
    async stop() {
      this.stops++;
      this.running = false;
      this.fire(State.Running, State.Stopped);
    }
    async sendNotification(type, params) {
      this.notifications.push({ method: type.method, params });
    }
  }
  const stub = { ...real, LanguageClient: RecordingClient };
  fake.uninstall();
  const withStub = install({ ...options, stubs: { 'vscode-languageclient/node': stub } });
  for (const k of Object.keys(require.cache)) {
    if (k.startsWith(path.join(ext, 'out') + path.sep)) delete require.cache[k];
  }
  const extension = require(path.join(ext, 'out', 'extension.js'));
  return { ...withStub, extension, clients };
}

const SETTINGS = {
  path: '',
  rules: { 'latency-floor': { severity: 'warning', margin: 0.2 }, 'retry-trap': 'off', 'bad-entry': null },
  defaults: { 'dead-time': '90s', 'pod-rate': 10, empty: '' },
  exclude: ['vendor/**', ''],
  namespace: 'prod',
  overrides: [{ paths: ['legacy/**'], rules: { 'tolerance-trap': 'off' } }],
  logLevel: 'info',
  debounceMs: 0,
  maxIndexedFiles: 20000,
  maxIndexedBytes: 1.5,
  trace: { server: 'verbose' },
};
const TRANSLATED = {
  rules: { 'latency-floor': { severity: 'warning', margin: 0.2 }, 'retry-trap': 'off' },
  defaults: { 'dead-time': '90s', 'pod-rate': 10 },
  exclude: ['vendor/**'],
  namespace: 'prod',
  overrides: [{ paths: ['legacy/**'], rules: { 'tolerance-trap': 'off' } }],
  logLevel: 'info',
  debounceMs: 0,
  maxIndexedFiles: 20000,
};

test('activation with the bundled binary', async (t) => {
  const extDir = tmpdir('scalelint-ext-');
  const bundled = writeExe(path.join(extDir, 'server', platformDir, 'scalelint'));
  const previews = [];
  const { extension, host, vscode, clients, uninstall } = load({
    settings: { scalelint: structuredClone(SETTINGS) },
    builtinCommands: { 'markdown.showPreview': (uri) => previews.push(uri) },
  });
  t.after(() => {
    uninstall();
    fs.rmSync(extDir, { recursive: true, force: true });
  });
  const ctx = extensionContext(extDir);
  const api = await extension.activate(ctx);

  await t.test('registers the contributed commands', () => {
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepStrictEqual(contributed, ['scalelint.explainRule', 'scalelint.restartServer', 'scalelint.showOutput']);
    for (const c of contributed) assert.ok(host.commands.has(c), `${c} registered`);
    assert.deepStrictEqual(
      pkg.contributes.commands.map((c) => `${c.category}: ${c.title}`),
      ['scalelint: Restart server', 'scalelint: Show output', 'scalelint: Explain rule'],
    );
  });

  await t.test('starts one client on `scalelint lsp` over stdio', () => {
    assert.strictEqual(clients.length, 1);
    const c = clients[0];
    assert.strictEqual(c.id, 'scalelint');
    assert.deepStrictEqual(c.serverOptions.run, { command: bundled, args: ['lsp'] });
    assert.deepStrictEqual(c.serverOptions.debug, c.serverOptions.run);
    assert.strictEqual(c.serverOptions.run.transport, undefined, 'no --stdio flag appended');
    assert.deepStrictEqual(c.clientOptions.documentSelector, [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
    ]);
    assert.deepStrictEqual(c.clientOptions.synchronize, { configurationSection: 'scalelint' });
    assert.deepStrictEqual(c.initOptions, TRANSLATED, 'initializationOptions: the settings in the server shape');
    assert.ok(c.running);
    assert.deepStrictEqual({ ...api.server }, { path: bundled, source: 'bundled', version: 'v9.9.9' });
    assert.strictEqual(api.state, 'running');
  });

  await t.test('shows the server state in the status bar, click shows the output', async () => {
    assert.strictEqual(host.statusBarItems.length, 1);
    const item = host.statusBarItems[0];
    assert.ok(item.visible);
    assert.strictEqual(item.command, 'scalelint.showOutput');
    const shown = item.history.filter((text, i, all) => i === 0 || all[i - 1] !== text);
    assert.deepStrictEqual(shown, ['$(loading~spin) scalelint', '$(check) scalelint']);
    assert.match(item.tooltip, /running/);
    assert.match(item.tooltip, new RegExp(`${bundled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(bundled\\) \\(v9\\.9\\.9\\)`));
    const out = host.outputChannels.find((c) => c.name === 'scalelint');
    assert.ok(out && out.log, 'a log output channel named scalelint');
    await vscode.commands.executeCommand(item.command);
    assert.strictEqual(out.shown, 1);
  });

  await t.test('pushes changed settings in the server shape', async () => {
    const c = clients[0];
    let nextCalled = false;
    host.setSetting('scalelint.namespace', 'staging');
    await c.clientOptions.middleware.workspace.didChangeConfiguration(['scalelint'], async () => {
      nextCalled = true;
    });
    assert.strictEqual(nextCalled, false, 'the raw section (path, trace) is not sent');
    assert.deepStrictEqual(c.notifications, [
      { method: 'workspace/didChangeConfiguration', params: { settings: { ...TRANSLATED, namespace: 'staging' } } },
    ]);
    assert.strictEqual(clients.length, 1, 'no restart');
  });

  await t.test('answers workspace/configuration pulls in the server shape', async () => {
    const c = clients[0];
    const params = { items: [{ section: 'scalelint' }, { section: 'editor' }] };
    const res = await c.clientOptions.middleware.workspace.configuration(params, undefined, () => [{ path: '', trace: {} }, { tabSize: 2 }]);
    assert.deepStrictEqual(res, [{ ...TRANSLATED, namespace: 'staging' }, { tabSize: 2 }]);
  });

  await t.test('restarts after a crash with a notice, at most 5 times in 3 minutes', async () => {
    const { CloseAction, ErrorAction } = require('vscode-languageclient/node');
    const handler = clients[0].clientOptions.errorHandler;
    assert.deepStrictEqual(await handler.error(new Error('x'), undefined, 1), { action: ErrorAction.Continue, handled: true });
    assert.deepStrictEqual(await handler.error(new Error('x'), undefined, 4), { action: ErrorAction.Shutdown, handled: true });
    const before = host.messages.length;
    for (let i = 1; i <= 5; i++) {
      const r = await handler.closed();
      assert.deepStrictEqual(r, { action: CloseAction.Restart, handled: true });
    }
    const notices = host.messages.slice(before);
    assert.strictEqual(notices.length, 5);
    assert.ok(notices.every((m) => m.level === 'warning'));
    assert.match(notices[4].text, /restart 5 of 5/);
    const r = await handler.closed();
    assert.deepStrictEqual(r, { action: CloseAction.DoNotRestart, handled: true });
    const last = host.messages[host.messages.length - 1];
    assert.strictEqual(last.level, 'error');
    assert.match(last.text, /6 times in 3 minutes and will not be restarted/);
    assert.deepStrictEqual(last.items, ['Restart server', 'Show output']);
    assert.strictEqual(api.state, 'error');
    assert.match(host.statusBarItems[0].text, /\$\(error\)/);
  });

  await t.test('scalelint: Restart server starts a new client and stops the old one', async () => {
    await vscode.commands.executeCommand('scalelint.restartServer');
    assert.strictEqual(clients.length, 2);
    assert.strictEqual(clients[0].stops, 1);
    assert.ok(clients[1].running);
    assert.strictEqual(api.state, 'running');
    assert.strictEqual(api.client, clients[1]);
    // The crash count starts over.
    const { CloseAction } = require('vscode-languageclient/node');
    assert.strictEqual((await clients[1].clientOptions.errorHandler.closed()).action, CloseAction.Restart);
  });

  await t.test('a new scalelint.path restarts the server on that binary', async () => {
    const other = writeExe(path.join(extDir, 'elsewhere', 'scalelint-dev'));
    host.setSetting('scalelint.path', other);
    await host.waitFor('a third client', () => clients.length === 3 && api.state === 'running');
    assert.strictEqual(clients[1].stops, 1);
    assert.strictEqual(clients[2].serverOptions.run.command, other);
    assert.strictEqual(api.server.source, 'setting');
  });

  await t.test('scalelint: Explain rule picks the rule under the cursor first and previews its section', async () => {
    const doc = host.openDocument(path.join(extDir, 'hpa.yaml'), 'kind: HorizontalPodAutoscaler\n');
    const coll = vscode.languages.createDiagnosticCollection('scalelint');
    const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 4), 'CPU target 95%', vscode.DiagnosticSeverity.Error);
    d.code = { value: 'tolerance-trap', target: vscode.Uri.parse('https://example.invalid/rules#tolerance-trap') };
    d.source = 'scalelint';
    coll.set(doc.uri, [d]);
    host.quickPickAnswer = (items) => items[0];
    await vscode.commands.executeCommand('scalelint.explainRule');
    const pick = host.quickPicks[0];
    assert.deepStrictEqual(pick.items.map((i) => i.label), ['tolerance-trap', 'latency-floor']);
    assert.strictEqual(pick.items[0].detail, 'CPU target the controller never scales up from');
    assert.strictEqual(previews[0].toString(), 'scalelint-rule:/tolerance-trap.md');
    const shown = await vscode.workspace.openTextDocument(previews[0]);
    assert.strictEqual(shown.getText(), '# tolerance-trap\n\nCPU target.\n\n## Example\n\n```yaml\n## not a heading\n```\n');

    // Cancelled pick: nothing shown.
    host.quickPickAnswer = () => undefined;
    await vscode.commands.executeCommand('scalelint.explainRule');
    assert.strictEqual(previews.length, 1);

    // An unknown rule by argument: an error, nothing shown.
    await vscode.commands.executeCommand('scalelint.explainRule', 'no-such-rule');
    assert.match(host.messages[host.messages.length - 1].text, /unknown rule "no-such-rule"/);
    assert.strictEqual(previews.length, 1);
  });

  await t.test('a change of workspace folders restarts the server (it indexes folders at initialize)', async () => {
    host.workspaceFolders = [{ uri: vscode.Uri.file(extDir), name: 'ext', index: 0 }];
    host._emitters.didChangeWorkspaceFolders.fire({ added: host.workspaceFolders, removed: [] });
    await host.waitFor('a fourth client', () => clients.length === 4 && api.state === 'running');
    assert.strictEqual(clients[2].stops, 1);
  });

  await t.test('deactivate stops the client and removes the status item', async () => {
    await extension.deactivate();
    assert.strictEqual(clients[3].stops, 1);
    assert.ok(!clients[3].running);
    assert.ok(host.statusBarItems[0].disposed);
    assert.strictEqual(host.commands.size, 0, 'commands unregistered');
  });
});

test('no binary anywhere: a clear message with the install command, no client', async (t) => {
  const extDir = tmpdir('scalelint-ext-');
  const emptyPath = tmpdir('scalelint-path-');
  const savedPath = process.env.PATH;
  process.env.PATH = emptyPath;
  const { extension, host, clients, uninstall } = load({ settings: { scalelint: { path: '' } } });
  host.messageAnswer = (m) => (m.level === 'error' ? 'Copy install command' : undefined);
  t.after(async () => {
    process.env.PATH = savedPath;
    await extension.deactivate();
    uninstall();
    fs.rmSync(extDir, { recursive: true, force: true });
    fs.rmSync(emptyPath, { recursive: true, force: true });
  });
  const api = await extension.activate(extensionContext(extDir));
  assert.strictEqual(clients.length, 0);
  assert.strictEqual(api.state, 'notFound');
  const err = host.messages.find((m) => m.level === 'error');
  assert.ok(err, 'an error message');
  assert.match(err.text, /No usable scalelint binary/);
  assert.match(err.text, /go install github\.com\/scalelint\/scalelint\/cmd\/scalelint@latest/);
  assert.deepStrictEqual(err.items, ['Copy install command', 'Open settings', 'Show output']);
  await host.waitFor('the clipboard', () => host.clipboard !== '');
  assert.strictEqual(host.clipboard, 'go install github.com/scalelint/scalelint/cmd/scalelint@latest');
  assert.match(host.statusBarItems[0].text, /\$\(error\) scalelint/);
  assert.match(host.statusBarItems[0].tooltip, /binary not found/);
});

test('a stale scalelint.path warns and falls back to scalelint on PATH', async (t) => {
  const extDir = tmpdir('scalelint-ext-');
  const binDir = tmpdir('scalelint-path-');
  const onPath = writeExe(path.join(binDir, 'scalelint'));
  const savedPath = process.env.PATH;
  process.env.PATH = binDir;
  const { extension, host, clients, uninstall } = load({ settings: { scalelint: { path: '/nonexistent/scalelint' } } });
  t.after(async () => {
    process.env.PATH = savedPath;
    await extension.deactivate();
    uninstall();
    fs.rmSync(extDir, { recursive: true, force: true });
    fs.rmSync(binDir, { recursive: true, force: true });
  });
  const api = await extension.activate(extensionContext(extDir));
  assert.strictEqual(clients.length, 1);
  assert.strictEqual(clients[0].serverOptions.run.command, onPath);
  assert.strictEqual(api.server.source, 'path');
  const warn = host.messages.find((m) => m.level === 'warning');
  assert.match(warn.text, /scalelint\.path "\/nonexistent\/scalelint" is not an executable file/);
});

test('a binary that does not run: one message naming it, no client', async (t) => {
  const extDir = tmpdir('scalelint-ext-');
  const bundled = writeExe(path.join(extDir, 'server', platformDir, 'scalelint'), '#!/bin/sh\necho "cannot execute binary file" >&2\nexit 126\n');
  const { extension, host, clients, uninstall } = load({ settings: { scalelint: {} } });
  t.after(async () => {
    await extension.deactivate();
    uninstall();
    fs.rmSync(extDir, { recursive: true, force: true });
  });
  const api = await extension.activate(extensionContext(extDir));
  assert.strictEqual(clients.length, 0);
  assert.strictEqual(api.state, 'error');
  assert.strictEqual(host.messages.length, 1);
  assert.ok(host.messages[0].text.startsWith(`The scalelint binary ${bundled} (from bundled) does not run:`), host.messages[0].text);
  assert.match(host.messages[0].text, /cannot execute binary file/);
  assert.match(host.messages[0].text, /go install github\.com\/scalelint\/scalelint\/cmd\/scalelint@latest/);
});

test('a server that fails to start: error state and a message naming the binary', async (t) => {
  const extDir = tmpdir('scalelint-ext-');
  const bundled = writeExe(path.join(extDir, 'server', platformDir, 'scalelint'));
  const { extension, host, uninstall } = load({ settings: { scalelint: {} }, startError: 'spawn EACCES' });
  t.after(async () => {
    await extension.deactivate();
    uninstall();
    fs.rmSync(extDir, { recursive: true, force: true });
  });
  const api = await extension.activate(extensionContext(extDir));
  assert.strictEqual(api.state, 'error');
  const err = host.messages.find((m) => m.level === 'error');
  assert.ok(err.text.includes(bundled), err.text);
  assert.match(err.text, /failed to start: spawn EACCES/);
  assert.match(host.statusBarItems[0].tooltip, /failed/);
});

test('Explain rule without the Markdown preview opens the document itself', async (t) => {
  const extDir = tmpdir('scalelint-ext-');
  writeExe(path.join(extDir, 'server', platformDir, 'scalelint'));
  const { extension, host, vscode, uninstall } = load({ settings: { scalelint: {} } });
  t.after(async () => {
    await extension.deactivate();
    uninstall();
    fs.rmSync(extDir, { recursive: true, force: true });
  });
  await extension.activate(extensionContext(extDir));
  await vscode.commands.executeCommand('scalelint.explainRule', 'latency-floor');
  assert.strictEqual(host.shownDocuments.length, 1);
  const shown = host.shownDocuments[0].doc;
  assert.strictEqual(shown.uri.toString(), 'scalelint-rule:/latency-floor.md');
  assert.strictEqual(shown.getText(), '# latency-floor\n\nBacklog threshold.\n\n## What it does\n\nComputes the floor.\n');
});
