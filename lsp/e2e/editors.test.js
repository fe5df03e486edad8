// The editor configurations in lsp/editors that no client here runs (Helix's
// languages.toml, the LSP4IJ template for JetBrains IDEs): each parses, maps
// YAML files to `scalelint lsp`, and the command it names, looked up on PATH
// as the editor would, lints the fixture with the language id it declares.
// And the README's "In the editor" section shows every snippet as it is in
// lsp/editors (Neovim's and Emacs's are run by nvim.lua and emacs.el).
// Run by run.sh, which puts the built binary on PATH as `scalelint`.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const cp = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');
const { parse: parseToml } = require('smol-toml');

const root = path.resolve(__dirname, '..', '..');
const editors = path.join(root, 'lsp', 'editors');
const fixture = path.join(__dirname, '..', 'testdata', 'workspace');

// lint starts COMMAND ARGS (through PATH), opens consumer.yaml with the
// language id, and returns the codes of its first diagnostics.
async function lint(command, args, languageId) {
  const child = cp.spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const spawned = new Promise((resolve, reject) => {
    child.on('spawn', resolve);
    child.on('error', (e) => reject(new Error(`${command} ${args.join(' ')}: ${e.message}`)));
  });
  await spawned;
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const uri = pathToFileURL(path.join(fixture, 'consumer.yaml')).href;
  const published = new Promise((resolve) => {
    conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => { if (p.uri === uri) resolve(p); });
  });
  conn.onRequest(rpc.RegistrationRequest.type, () => null);
  conn.listen();
  try {
    const init = await conn.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(fixture).href,
      workspaceFolders: [{ uri: pathToFileURL(fixture).href, name: 'fixture' }],
      initializationOptions: { debounceMs: 0 },
      capabilities: {},
    });
    assert.strictEqual(init.serverInfo.name, 'scalelint');
    await conn.sendNotification(rpc.InitializedNotification.type, {});
    const text = fs.readFileSync(path.join(fixture, 'consumer.yaml'), 'utf8');
    await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`no diagnostics within 20s\n${stderr}`)), 20000));
    const p = await Promise.race([published, timeout]);
    await conn.sendRequest(rpc.ShutdownRequest.type);
    await conn.sendNotification(rpc.ExitNotification.type);
    return p.diagnostics.map((d) => d.code);
  } finally {
    conn.dispose();
    child.kill();
  }
}

test('Helix: languages.toml adds scalelint to YAML and its command lints', async () => {
  const cfg = parseToml(fs.readFileSync(path.join(editors, 'helix', 'languages.toml'), 'utf8'));
  const server = cfg['language-server'].scalelint;
  assert.deepStrictEqual([server.command, server.args], ['scalelint', ['lsp']]);
  const yaml = cfg.language.find((l) => l.name === 'yaml');
  assert.ok(yaml, 'a [[language]] entry for yaml');
  assert.deepStrictEqual(yaml['language-servers'], ['yaml-language-server', 'scalelint'], "YAML keeps Helix's default server");
  // Helix sends a document's language name as its language id.
  assert.deepStrictEqual(await lint(server.command, server.args, yaml.name), ['latency-floor']);
});

test('JetBrains (LSP4IJ): the custom template maps *.yaml and *.yml to scalelint lsp', async () => {
  const tpl = JSON.parse(fs.readFileSync(path.join(editors, 'lsp4ij', 'template.json'), 'utf8'));
  assert.deepStrictEqual([tpl.id, tpl.name], ['scalelint', 'scalelint']);
  const [command, ...args] = tpl.programArgs.default.split(/\s+/);
  assert.deepStrictEqual([command, args], ['scalelint', ['lsp']]);
  const [mapping, ...rest] = tpl.fileTypeMappings;
  assert.deepStrictEqual(rest, []);
  assert.deepStrictEqual([mapping.fileType.name, mapping.fileType.patterns, mapping.languageId], ['YAML', ['*.yaml', '*.yml'], 'yaml']);
  assert.deepStrictEqual(await lint(command, args, mapping.languageId), ['latency-floor']);
  const readme = fs.readFileSync(path.join(editors, 'lsp4ij', 'README.md'), 'utf8');
  assert.match(readme, /Import from custom template\.\.\./, 'the steps LSP4IJ shows the help icon for');
});

// The part of a snippet file after its leading comments: what the README shows.
function body(file, comment) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  while (lines.length > 0 && (lines[0].startsWith(comment) || lines[0].trim() === '')) lines.shift();
  return lines.join('\n').trimEnd();
}

// The fenced code blocks of a Markdown text, each without the indentation
// of its fence (a block inside a list item is indented).
function codeBlocks(md) {
  const blocks = [];
  const re = /^( *)```[a-z]*\n([\s\S]*?)^\1```$/gm;
  for (let m; (m = re.exec(md)) !== null; ) {
    const indent = m[1].length;
    blocks.push(m[2].split('\n').map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n').trimEnd());
  }
  return blocks;
}

test("the README's In the editor section shows each snippet as it is in lsp/editors", () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## In the editor');
  assert.ok(start >= 0, 'README has "## In the editor"');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  for (const [file, comment] of [
    ['nvim/lsp/scalelint.lua', '--'],
    ['helix/languages.toml', '#'],
    ['emacs/scalelint.el', ';'],
  ]) {
    const b = body(path.join(editors, file), comment);
    assert.ok(b.length > 20, `${file} has a body`);
    assert.ok(codeBlocks(section).includes(b), `README's In the editor section lacks lsp/editors/${file} as it is:\n${b}`);
    assert.ok(section.includes(`lsp/editors/${file}`), `README names lsp/editors/${file}`);
  }
  assert.match(section, /lsp\/editors\/lsp4ij/);
  assert.match(section, /\*\*Zed\*\*/);
});
