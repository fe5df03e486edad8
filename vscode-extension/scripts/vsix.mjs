// Packages the extension for one platform with its server binary inside:
// builds server/<target>/scalelint from the repository, then runs
// `vsce package --no-dependencies --target <target>` (the bundle needs no
// node_modules). The target defaults to this machine's.
//   node scripts/vsix.mjs [--target linux-x64] [--out scalelint.vsix]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const arch = { arm: 'armhf' }[process.arch] ?? process.arch;
const target = opt('--target', `${process.platform}-${arch}`);
const out = opt('--out', 'scalelint.vsix');

const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: ext, stdio: 'inherit' });
try {
  run(process.execPath, [path.join(here, 'build-server.mjs'), '--target', target]);
  run(process.execPath, [path.join(ext, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--target', target, '--out', out]);
} catch (e) {
  process.exit(e.status ?? 1);
}
console.log(`vsix: ${path.join(ext, out)} (install: code --install-extension ${out})`);
