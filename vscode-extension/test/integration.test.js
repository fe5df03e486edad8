// The shipped bundle (dist/extension.js, with the real vscode-languageclient
// inside) activated against a fake `vscode` (only that module is faked): it
// spawns the real `scalelint lsp` binary, and the test sees, through the
// client's own providers and converters, what a user would see in VS Code:
// the latency-floor diagnostic, its hover, the "Set lagThreshold to 985"
// fix, a settings change that reaches the server without a restart (the
// rules, and the index caps), the
// rule's documentation, a restart after a crash, and a clean stop.
//
// The binary: SCALELINT_BIN, else server/<platform>-<arch>/scalelint (npm
// test builds it with scripts/build-server.mjs; so does ci.sh).
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { install, extensionContext } = require('./fake-vscode');

const ext = path.resolve(__dirname, '..');
const bin =
  process.env.SCALELINT_BIN ||
  path.join(ext, 'server', `${process.platform}-${process.arch}`, process.platform === 'win32' ? 'scalelint.exe' : 'scalelint');
const bundle = path.join(ext, 'dist', 'extension.js');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('the extension drives the real scalelint lsp through vscode-languageclient', { timeout: 120000 }, async (t) => {
  assert.ok(
    fs.existsSync(bin),
    `scalelint binary missing at ${bin}: build it with \`npm run build:server\` (go build from the repository root) or set SCALELINT_BIN`,
  );
  assert.ok(fs.existsSync(bundle), `${bundle} missing: run \`npm run build\``);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-vscode-'));
  for (const f of fs.readdirSync(path.join(__dirname, 'fixtures', 'workspace'))) {
    fs.copyFileSync(path.join(__dirname, 'fixtures', 'workspace', f), path.join(dir, f));
  }
  const previews = [];
  const fake = install({
    settings: { scalelint: { path: bin, debounceMs: 0, logLevel: 'info' } },
    workspaceFolders: [dir],
    builtinCommands: {
      'markdown.showPreview': (uri) => {
        previews.push(uri);
      },
    },
  });
  const { host, vscode } = fake;
  // An extension directory without a bundled binary: scalelint.path decides.
  const extDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-ext-'));
  const extension = require(bundle);
  let api;
  let serverPid;
  const serverPidOf = () => api.client && api.client._serverProcess && api.client._serverProcess.pid;

  t.after(async () => {
    await extension.deactivate();
    fake.uninstall();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(extDir, { recursive: true, force: true });
  });

  await t.test('activates and starts the server from scalelint.path', async () => {
    api = await extension.activate(extensionContext(extDir));
    assert.strictEqual(api.state, 'running', host.outputChannels.map((c) => c.lines.join('\n')).join('\n'));
    assert.deepStrictEqual({ path: api.server.path, source: api.server.source }, { path: bin, source: 'setting' });
    assert.ok(api.client.initializeResult.capabilities.hoverProvider, 'hover capability');
    assert.strictEqual(api.client.initializeResult.serverInfo.name, 'scalelint');
    serverPid = serverPidOf();
    assert.ok(serverPid && alive(serverPid), 'server process running');
    const status = host.statusBarItems[0];
    assert.match(status.text, /\$\(check\) scalelint/);
  });

  const file = path.join(dir, 'consumer.yaml');
  let doc;
  let diag;

  await t.test('publishes the latency-floor diagnostic on the fixture', async () => {
    doc = host.openDocument(file, fs.readFileSync(file, 'utf8'));
    const diags = await host.waitFor('the latency-floor diagnostic', () => {
      const d = host.diagnostics(doc.uri);
      return d.length > 0 ? d : undefined;
    });
    assert.deepStrictEqual(diags.map((d) => d.code.value), ['latency-floor']);
    diag = diags[0];
    assert.strictEqual(diag.source, 'scalelint');
    assert.strictEqual(diag.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(doc.getText(diag.range), '"10"');
    assert.match(diag.message, /lagThreshold 10/);
    assert.match(diag.code.target.toString(), /rules\/README\.md#latency-floor$/);
    assert.strictEqual(diag.relatedInformation.length, 2);
  });

  await t.test('hover on the finding shows the rule and the evaluated laws', async () => {
    const hover = await host.provider('hover').provideHover(doc, diag.range.start, new vscode.CancellationTokenSource().token);
    assert.ok(hover, 'a hover');
    const text = hover.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
    assert.match(text, /latency-floor/);
    assert.match(text, /latency floor \| D = T\/c = 10\/10 = 1s vs τ_eff·Φ = 100s × 0\.895 = 89\.5s/);
  });

  await t.test('a settings change reaches the running server without a restart', async () => {
    const client = api.client;
    host.setSetting('scalelint.rules', { 'latency-floor': 'off' });
    await host.waitFor('the diagnostic to go with latency-floor off', () => host.diagnostics(doc.uri).length === 0);
    host.setSetting('scalelint.rules', { 'latency-floor': 'warning' });
    const back = await host.waitFor('the diagnostic back as a warning', () => {
      const d = host.diagnostics(doc.uri);
      return d.length === 1 && d[0].severity === vscode.DiagnosticSeverity.Warning ? d : undefined;
    });
    assert.strictEqual(back[0].code.value, 'latency-floor');
    host.setSetting('scalelint.rules', {});
    diag = (
      await host.waitFor('the diagnostic back as an error', () => {
        const d = host.diagnostics(doc.uri);
        return d.length === 1 && d[0].severity === vscode.DiagnosticSeverity.Error ? d : undefined;
      })
    )[0];
    assert.strictEqual(api.client, client, 'same client');
    assert.strictEqual(serverPidOf(), serverPid, 'same server process');
    const warnings = host.outputChannels[0].lines.filter((l) => /unknown setting/.test(l));
    assert.deepStrictEqual(warnings, [], 'the server got only keys it knows');
  });

  await t.test('the index caps reach the running server: maxIndexedFiles 1 of the two fixture files', async () => {
    const before = host.messages.length;
    host.setSetting('scalelint.maxIndexedFiles', 1);
    const capped = await host.waitFor('the server to say the index is capped', () =>
      host.messages.slice(before).find((m) => /holds more YAML and JSON than the index reads \(1 files or 128 MiB/.test(m.text)),
    );
    assert.strictEqual(capped.level, 'warning');
    assert.match(capped.text, /only the first 1 files/);
    // Cleared, VS Code hands over the default, which is sent: the server
    // indexes the whole workspace again and the diagnostic is as before.
    const after = host.messages.length;
    host.setSetting('scalelint.maxIndexedFiles', 40000);
    diag = (
      await host.waitFor('the diagnostic with the whole workspace indexed', () => {
        const d = host.diagnostics(doc.uri);
        return d.length === 1 && d[0].code.value === 'latency-floor' && d[0].severity === vscode.DiagnosticSeverity.Error ? d : undefined;
      })
    )[0];
    assert.strictEqual(serverPidOf(), serverPid, 'same server process');
    assert.deepStrictEqual(
      host.messages.slice(after).filter((m) => /holds more/.test(m.text)),
      [],
      'no cap at the default',
    );
  });

  await t.test('the quick fix sets lagThreshold to 985 and the diagnostic goes', async () => {
    const actions = await host
      .provider('codeAction')
      .provideCodeActions(doc, diag.range, { diagnostics: [diag], triggerKind: 1, only: undefined }, new vscode.CancellationTokenSource().token);
    const titles = actions.map((a) => a.title);
    const fix = actions.find((a) => a.title === 'Set lagThreshold to 985');
    assert.ok(fix, `actions: ${titles.join(', ')}`);
    assert.ok(titles.includes('Ignore latency-floor here'), `actions: ${titles.join(', ')}`);
    assert.strictEqual(fix.kind.value, 'quickfix');
    host.applyWorkspaceEdit(fix.edit);
    assert.match(doc.getText(), /lagThreshold: "985"/);
    await host.waitFor('no diagnostics after the fix', () => host.diagnostics(doc.uri).length === 0);
  });

  await t.test('scalelint: Explain rule shows the rule documentation from the binary', async () => {
    await vscode.commands.executeCommand('scalelint.explainRule', 'latency-floor');
    assert.strictEqual(previews.length, 1);
    assert.strictEqual(previews[0].toString(), 'scalelint-rule:/latency-floor.md');
    const shown = await vscode.workspace.openTextDocument(previews[0]);
    assert.match(shown.getText(), /^# latency-floor\n/);
    assert.match(shown.getText(), /## What it does/);
    assert.match(shown.getText(), /lagThreshold: "985"/);

    // Without an argument: a quick pick of every rule, the chosen one shown.
    host.quickPickAnswer = (items) => items.find((i) => i.label === 'tolerance-trap');
    await vscode.commands.executeCommand('scalelint.explainRule');
    const pick = host.quickPicks[host.quickPicks.length - 1];
    assert.ok(pick.items.length >= 20, `${pick.items.length} rules`);
    assert.ok(pick.items.every((i) => i.label && i.detail), 'each rule with its title');
    assert.strictEqual(previews[1].toString(), 'scalelint-rule:/tolerance-trap.md');
  });

  await t.test('a crashed server is restarted with a notice', async () => {
    const messagesBefore = host.messages.length;
    process.kill(serverPid, 'SIGKILL');
    await host.waitFor('a new server process', () => serverPidOf() && serverPidOf() !== serverPid && api.state === 'running');
    const notice = host.messages.slice(messagesBefore).find((m) => m.level === 'warning');
    assert.ok(notice, 'a visible notice');
    assert.match(notice.text, /stopped unexpectedly; restarting it \(restart 1 of 5/);
    serverPid = serverPidOf();
    // The restarted server lints again: break the fix and see the finding.
    const at = doc.getText().indexOf('"985"');
    host.editDocument(doc, [{ range: new vscode.Range(doc.positionAt(at), doc.positionAt(at + 5)), newText: '"10"' }]);
    await host.waitFor('the finding from the restarted server', () => host.diagnostics(doc.uri).length === 1);
  });

  await t.test('deactivate stops the server', async () => {
    await extension.deactivate();
    await host.waitFor('the server process to exit', () => !alive(serverPid), 5000);
    assert.strictEqual(api.client, undefined);
  });

  await t.test('a binary that dies at start: one error naming it, no restart loop', async () => {
    const broken = path.join(extDir, 'broken-scalelint');
    fs.writeFileSync(broken, '#!/bin/sh\necho "scalelint: flag provided but not defined" >&2\nexit 2\n');
    fs.chmodSync(broken, 0o755);
    host.settings.scalelint.path = broken;
    const before = host.messages.length;
    const again = await extension.activate(extensionContext(extDir));
    assert.strictEqual(again.state, 'error');
    const shown = host.messages.slice(before);
    assert.deepStrictEqual(shown.map((m) => m.level), ['error'], JSON.stringify(shown));
    assert.ok(shown[0].text.includes(broken), shown[0].text);
    const log = host.outputChannels[host.outputChannels.length - 1].lines.join('\n');
    assert.match(log, /flag provided but not defined/, "the server's stderr is in the output");
    assert.doesNotMatch(log, /restarting it/);
    await extension.deactivate();
  });
});
