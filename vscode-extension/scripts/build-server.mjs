// Builds the scalelint binary from the repository into
// server/<platform>-<arch>/scalelint, where the extension looks for a
// bundled server and where `vsce package --target <platform>-<arch>` picks
// it up. A static, stripped binary built as the release builds it
// (.goreleaser.yaml: CGO_ENABLED=0, -trimpath, -s -w), so it runs on any
// Linux whatever its C library, and shares Go's build cache with a
// GoReleaser snapshot of the same target.
//   node scripts/build-server.mjs [--target linux-x64] [--if-stale]
// --if-stale skips the build when the binary is newer than every Go source,
// go.mod and go.sum. SCALELINT_BIN set in the environment skips it too (the
// tests then use that binary).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');
const repo = path.resolve(ext, '..');

const args = process.argv.slice(2);
const ti = args.indexOf('--target');
const target = ti >= 0 ? args[ti + 1] : `${process.platform}-${process.arch}`;
const [platform, arch] = target.split('-');
const goos = { linux: 'linux', darwin: 'darwin', win32: 'windows', alpine: 'linux' }[platform];
const goarch = { x64: 'amd64', arm64: 'arm64', armhf: 'arm', ia32: '386' }[arch];
if (!goos || !goarch) {
  console.error(`build-server: unknown target ${target}`);
  process.exit(2);
}
const out = path.join(ext, 'server', target, platform === 'win32' ? 'scalelint.exe' : 'scalelint');

if (process.env.SCALELINT_BIN && args.includes('--if-stale')) {
  console.log(`build-server: SCALELINT_BIN=${process.env.SCALELINT_BIN}, not building`);
  process.exit(0);
}

function newestGoSource(dir, newest = 0) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'vscode-extension' || e.name === 'testdata') {
      continue;
    }
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      newest = newestGoSource(p, newest);
    } else if (e.name.endsWith('.go') || e.name === 'go.mod' || e.name === 'go.sum') {
      newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  }
  return newest;
}

if (args.includes('--if-stale') && fs.existsSync(out) && fs.statSync(out).mtimeMs >= newestGoSource(repo)) {
  console.log(`build-server: ${path.relative(ext, out)} is up to date`);
  process.exit(0);
}

try {
  execFileSync('go', ['version'], { stdio: 'ignore' });
} catch {
  console.error('build-server: `go` is not on PATH. Install Go (https://go.dev/dl/), or set SCALELINT_BIN to a scalelint binary.');
  process.exit(1);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
const t0 = Date.now();
try {
  execFileSync('go', ['build', '-tags', 'kustomize_disable_go_plugin_support', '-trimpath', '-ldflags=-s -w', '-o', out, './cmd/scalelint'], {
    cwd: repo,
    stdio: 'inherit',
    env: { ...process.env, CGO_ENABLED: '0', GOOS: goos, GOARCH: goarch },
  });
} catch (e) {
  console.error(`build-server: go build ./cmd/scalelint for ${target} failed (${e.status !== null ? `exit ${e.status}` : e.signal}); see above`);
  process.exit(1);
}
fs.chmodSync(out, 0o755);
console.log(`build-server: ${path.relative(ext, out)} (${fs.statSync(out).size} bytes, ${((Date.now() - t0) / 1000).toFixed(1)}s)`);
