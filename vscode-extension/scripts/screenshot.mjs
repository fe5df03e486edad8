// Renders images/screenshot.png for the README: the extension (dist/) runs
// against the fake `vscode` of the tests and the real server binary on the
// test fixture; what the client receives (the diagnostic, its hover, the
// inlay hint) is drawn as VS Code's dark theme would show it, in HTML, and
// headless Chromium takes the picture. A developer tool, not part of CI.
//   node scripts/screenshot.mjs [--bin PATH] [--out images/screenshot.png] [--keep-html]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const bin = opt('--bin', process.env.SCALELINT_BIN || path.join(ext, 'server', `${process.platform}-${process.arch}`, 'scalelint'));
const out = path.resolve(opt('--out', path.join(ext, 'images', 'screenshot.png')));
const MarkdownIt = require('markdown-it');

// ---- what the extension sees -----------------------------------------------
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-shot-'));
const fixtures = path.join(ext, 'test', 'fixtures', 'workspace');
for (const f of fs.readdirSync(fixtures)) fs.copyFileSync(path.join(fixtures, f), path.join(dir, f));
const { install, extensionContext } = require('../test/fake-vscode.js');
const fake = install({ settings: { scalelint: { path: bin, debounceMs: 0 } }, workspaceFolders: [dir] });
const { host, vscode } = fake;
const extension = require(path.join(ext, 'dist', 'extension.js'));
await extension.activate(extensionContext(dir));
const file = path.join(dir, 'consumer.yaml');
const text = fs.readFileSync(file, 'utf8');
const doc = host.openDocument(file, text);
const [diag] = await host.waitFor('a diagnostic', () => {
  const d = host.diagnostics(doc.uri);
  return d.length > 0 ? d : undefined;
});
const token = new vscode.CancellationTokenSource().token;
const hover = await host.provider('hover').provideHover(doc, diag.range.start, token);
const hints = await host.provider('inlayHint').provideInlayHints(doc, new vscode.Range(0, 0, doc.lineCount, 0), token);
await extension.deactivate();
fake.uninstall();
fs.rmSync(dir, { recursive: true, force: true });

// ---- drawing -----------------------------------------------------------------
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
function highlight(line) {
  const m = /^(\s*)(- )?([^:#]+?)(:)(\s*)(.*)$/.exec(line);
  if (/^\s*#/.test(line)) return `<span class="c">${esc(line)}</span>`;
  if (!m) return esc(line);
  const [, ind, dash = '', key, colon, sp, rest] = m;
  let value = esc(rest);
  if (/^".*"$/.test(rest)) value = `<span class="s">${esc(rest)}</span>`;
  else if (/^\d+$/.test(rest)) value = `<span class="n">${esc(rest)}</span>`;
  else if (/^\{/.test(rest)) value = esc(rest);
  else if (rest) value = `<span class="v">${esc(rest)}</span>`;
  return `${ind}${dash}<span class="k">${esc(key)}</span>${colon}${sp}${value}`;
}
const lines = text.replace(/\n$/, '').split('\n');
const r = diag.range;
const hint = hints.find((h) => h.position.line === r.start.line);
const md = new MarkdownIt({ html: false, linkify: false });
const hoverHtml = hover.contents.map((c) => md.render(typeof c === 'string' ? c : c.value)).join('<hr>');
const code = lines
  .map((l, i) => {
    let body;
    if (i === r.start.line) {
      const before = l.slice(0, r.start.character);
      const inside = l.slice(r.start.character, r.end.character);
      const after = l.slice(r.end.character);
      body = `${highlight(before).replace(/<span class="v">$/, '')}<span class="s squiggle">${esc(inside)}</span>${esc(after)}`;
      if (hint) body += `<span class="inlay">${esc(typeof hint.label === 'string' ? hint.label : hint.label.map((p) => p.value).join(''))}</span>`;
    } else {
      body = highlight(l);
    }
    return `<div class="line${i === r.start.line ? ' current' : ''}"><span class="ln">${i + 1}</span><span class="src">${body || ' '}</span></div>`;
  })
  .join('\n');
const rule = typeof diag.code === 'object' ? diag.code.value : diag.code;
const lineHeight = 19;
const hoverTop = (r.start.line + 1) * lineHeight + 2; // under the line, as VS Code places it
const hoverLeft = 62 + r.start.character * 7.83;
const html = `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #1f1f1f; font-family: 'DejaVu Sans', sans-serif; color: #cccccc; width: 1200px; height: 760px; overflow: hidden; }
.title { height: 35px; background: #181818; border-bottom: 1px solid #2b2b2b; display: flex; align-items: center; justify-content: center; font-size: 13px; color: #9d9d9d; }
.tabs { height: 30px; background: #181818; display: flex; border-bottom: 1px solid #2b2b2b; }
.tab { padding: 0 14px; display: flex; align-items: center; font-size: 13px; color: #9d9d9d; border-right: 1px solid #2b2b2b; }
.tab.active { background: #1f1f1f; color: #ffffff; border-top: 1px solid #0078d4; }
.tab .err { color: #f14c4c; margin-left: 8px; font-size: 12px; }
.editor { font-family: 'DejaVu Sans Mono', monospace; font-size: 13px; line-height: ${lineHeight}px; padding-top: 0; position: relative; }
.line { white-space: pre; height: ${lineHeight}px; }
.line.current { background: #282828; }
.ln { display: inline-block; width: 48px; text-align: right; padding-right: 14px; color: #6e7681; }
.k { color: #569cd6; } .s { color: #ce9178; } .n { color: #b5cea8; } .c { color: #6a9955; } .v { color: #ce9178; }
.squiggle { text-decoration: underline wavy #f14c4c; text-decoration-thickness: 1px; text-underline-offset: 3px; }
.inlay { background: #2a2d2e; color: #969696; border-radius: 3px; padding: 0 4px; margin-left: 6px; font-size: 12px; }
.hover { position: absolute; top: ${hoverTop}px; left: ${hoverLeft}px; width: 640px; max-height: 330px; overflow: hidden; background: #202020; border: 1px solid #454545; border-radius: 3px; box-shadow: 0 4px 16px rgba(0,0,0,.5); font-size: 13px; font-family: 'DejaVu Sans', sans-serif; white-space: normal; }
.problem { padding: 6px 10px; border-bottom: 1px solid #454545; font-family: 'DejaVu Sans', sans-serif; line-height: 1.4; }
.problem .src { color: #9d9d9d; margin-left: 4px; }
.problem a { color: #4daafc; text-decoration: none; }
.actions { padding: 4px 10px; border-bottom: 1px solid #454545; color: #4daafc; font-size: 12px; }
.actions span { margin-right: 16px; }
.content { padding: 2px 10px 8px; line-height: 1.45; }
.content h3 { font-size: 14px; margin: 8px 0 4px; } .content h4 { font-size: 13px; margin: 10px 0 4px; }
.content p { margin: 4px 0; } .content code { font-family: 'DejaVu Sans Mono', monospace; font-size: 12px; color: #d7ba7d; }
.content hr { border: 0; border-top: 1px solid #454545; margin: 8px -10px; }
.content table { border-collapse: collapse; margin: 4px 0; } .content td, .content th { border: 1px solid #454545; padding: 2px 6px; font-size: 12px; }
.content a { color: #4daafc; text-decoration: none; }
.scrollbar { position: absolute; right: 0; top: 72px; width: 8px; height: 120px; background: rgba(121,121,121,.4); }
.statusbar { position: absolute; bottom: 0; left: 0; right: 0; height: 22px; background: #181818; border-top: 1px solid #2b2b2b; font-size: 12px; display: flex; align-items: center; color: #cccccc; }
.statusbar .left { padding-left: 10px; flex: 1; } .statusbar .right { padding-right: 12px; }
.statusbar .item { margin-left: 14px; }
</style></head><body>
<div class="title">consumer.yaml — orders</div>
<div class="tabs"><div class="tab active">consumer.yaml<span class="err">1</span></div><div class="tab">deployment.yaml</div></div>
<div class="editor">${code}
<div class="hover">
  <div class="problem">${esc(diag.message)} <span class="src">${esc(diag.source)}(<a>${esc(String(rule))}</a>)</span></div>
  <div class="actions"><span>View Problem (Alt+F8)</span><span>Quick Fix... (Ctrl+.)</span></div>
  <div class="content">${hoverHtml}</div>
  <div class="scrollbar"></div>
</div>
</div>
<div class="statusbar"><span class="left">⊗ 1  ⚠ 0</span><span class="right"><span class="item">Ln ${r.start.line + 1}, Col ${r.start.character + 1}</span><span class="item">YAML</span><span class="item">✓ scalelint</span></span></div>
</body></html>`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-shot-html-'));
const htmlFile = path.join(tmp, 'shot.html');
fs.writeFileSync(htmlFile, html);
fs.mkdirSync(path.dirname(out), { recursive: true });
const chromium = ['chromium', 'chromium-browser', 'google-chrome'].find((c) => {
  try {
    execFileSync('which', [c], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
if (!chromium) {
  console.error('screenshot: no chromium (apt-get install -y chromium)');
  process.exit(1);
}
execFileSync(
  chromium,
  ['--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1', '--window-size=1200,760', `--screenshot=${out}`, `file://${htmlFile}`],
  { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60000 },
);
if (args.includes('--keep-html')) console.log(`screenshot: html ${htmlFile}`);
else fs.rmSync(tmp, { recursive: true, force: true });
console.log(`screenshot: ${out} (${fs.statSync(out).size} bytes)`);
process.exit(0);
