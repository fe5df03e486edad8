// Packages the extension: one platform-specific .vsix per target with its
// server binary inside (server/<target>/scalelint[.exe]), and a universal
// .vsix without a server (it uses scalelint.path or PATH).
//
//   node scripts/vsix.mjs                          this machine's target -> scalelint.vsix
//   node scripts/vsix.mjs --target win32-arm64     another one           -> scalelint.vsix
//   node scripts/vsix.mjs --target linux-x64 --target universal --out-dir dist
//                                                  -> dist/scalelint-linux-x64.vsix, dist/scalelint-universal.vsix
//   node scripts/vsix.mjs --all --out-dir dist     the six targets of targets.mjs and the universal one
//   ... --dist ../dist                             take the servers from a GoReleaser dist/ (its
//                                                  artifacts.json) instead of building them
//
// Each server is built by build-server.mjs (go build, static, the release's
// flags) unless --dist is given. Each package gets its own ignore file:
// .vscodeignore, minus every server but its own, so a server built earlier
// for another target never rides along; check-vsix.mjs checks the result.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TARGETS, UNIVERSAL, exeName, hostTarget } from './targets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');

const args = process.argv.slice(2);
const all = (n) => args.flatMap((a, i) => (a === n && i + 1 < args.length ? [args[i + 1]] : []));
const opt = (n, d) => all(n).at(-1) ?? d;
let targets = all('--target');
if (args.includes('--all')) targets = [...Object.keys(TARGETS), UNIVERSAL];
if (targets.length === 0) targets = [hostTarget()];
const outDir = path.resolve(ext, opt('--out-dir', '.'));
const dist = opt('--dist');
// One package keeps the old name (scalelint.vsix) unless --out-dir asks for a set.
const single = targets.length === 1 && !args.includes('--out-dir');

const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: ext, stdio: 'inherit' });

/** The binary for a target from GoReleaser's dist/artifacts.json. */
function fromDist(target) {
  const t = TARGETS[target];
  const artifacts = JSON.parse(fs.readFileSync(path.join(dist, 'artifacts.json'), 'utf8'));
  const bin = artifacts.find((a) => a.type === 'Binary' && a.goos === t.goos && a.goarch === t.goarch);
  if (!bin) throw new Error(`no ${t.goos}/${t.goarch} binary in ${dist}/artifacts.json`);
  // artifacts.json paths are relative to the directory goreleaser ran in.
  return path.isAbsolute(bin.path) ? bin.path : path.join(path.dirname(path.resolve(dist)), bin.path);
}

const base = fs.readFileSync(path.join(ext, '.vscodeignore'), 'utf8');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-vsix-'));
const made = [];
try {
  fs.mkdirSync(outDir, { recursive: true });
  for (const target of targets) {
    if (target !== UNIVERSAL && !/^[a-z0-9]+-[a-z0-9]+$/.test(target)) throw new Error(`bad target ${target}`);
    const ignore = [base, '# added by scripts/vsix.mjs', 'server/**'];
    if (target !== UNIVERSAL) {
      const server = path.join(ext, 'server', target, exeName(target));
      if (dist) {
        fs.mkdirSync(path.dirname(server), { recursive: true });
        fs.copyFileSync(fromDist(target), server);
        fs.chmodSync(server, 0o755);
      } else {
        run(process.execPath, [path.join(here, 'build-server.mjs'), '--target', target]);
      }
      ignore.push(`!server/${target}/${exeName(target)}`);
    }
    const ignoreFile = path.join(tmp, `${target}.vscodeignore`);
    fs.writeFileSync(ignoreFile, ignore.join('\n') + '\n');
    const out = path.join(outDir, single ? 'scalelint.vsix' : `scalelint-${target}.vsix`);
    const vsce = ['package', '--no-dependencies', '--ignoreFile', ignoreFile, '--out', out];
    if (target !== UNIVERSAL) vsce.push('--target', target);
    run(process.execPath, [path.join(ext, 'node_modules', '@vscode', 'vsce', 'vsce'), ...vsce]);
    made.push(out);
  }
} catch (e) {
  console.error(`vsix: ${e.message}`);
  process.exit(e.status ?? 1);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
for (const out of made) {
  const shown = path.relative(process.cwd(), out);
  console.log(`vsix: ${shown.startsWith('..') ? out : shown} (${fs.statSync(out).size} bytes; install: code --install-extension ${path.basename(out)})`);
}
