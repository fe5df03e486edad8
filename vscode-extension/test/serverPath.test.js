// Server path resolution: scalelint.path, else the bundled binary, else
// scalelint on PATH, else a message with the install command.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const {
  resolveServer,
  bundledServerPath,
  expandSetting,
  pathCandidates,
  releaseFiles,
  INSTALL_COMMAND,
  RELEASES_URL,
} = require('../out/serverPath.js');
const { run } = require('../out/exec.js');

const linux = (files, extra = {}) => ({
  extensionPath: '/ext',
  platform: 'linux',
  arch: 'x64',
  env: { PATH: '/usr/local/bin:/usr/bin', HOME: '/home/u' },
  workspaceFolder: '/work/repo',
  isExecutable: (f) => files.includes(f),
  ...extra,
});

test('bundled path per platform', () => {
  assert.strictEqual(bundledServerPath('/ext', 'linux', 'x64'), '/ext/server/linux-x64/scalelint');
  assert.strictEqual(bundledServerPath('/ext', 'darwin', 'arm64'), '/ext/server/darwin-arm64/scalelint');
  assert.strictEqual(bundledServerPath('/ext', 'linux', 'arm'), '/ext/server/linux-armhf/scalelint', "vsce's name for 32-bit ARM");
  assert.strictEqual(bundledServerPath('C:\\ext', 'win32', 'x64'), 'C:\\ext\\server\\win32-x64\\scalelint.exe');
});

test('scalelint.path wins when it is executable', () => {
  const r = resolveServer(linux(['/opt/scalelint', '/ext/server/linux-x64/scalelint'], { setting: '/opt/scalelint' }));
  assert.deepStrictEqual([r.ok, r.path, r.source, r.warnings], [true, '/opt/scalelint', 'setting', []]);
});

test('scalelint.path expands ~, ${userHome}, ${workspaceFolder} and relative paths', () => {
  const opts = { workspaceFolder: '/work/repo', platform: 'linux', env: { HOME: '/home/u' } };
  assert.deepStrictEqual(expandSetting('~/go/bin/scalelint', opts), { path: '/home/u/go/bin/scalelint', bare: false });
  assert.deepStrictEqual(expandSetting('${userHome}/bin/scalelint', opts), { path: '/home/u/bin/scalelint', bare: false });
  assert.deepStrictEqual(expandSetting('${workspaceFolder}/bin/scalelint', opts), { path: '/work/repo/bin/scalelint', bare: false });
  assert.deepStrictEqual(expandSetting('./bin/scalelint', opts), { path: '/work/repo/bin/scalelint', bare: false });
  assert.deepStrictEqual(expandSetting('  scalelint-dev ', opts), { path: 'scalelint-dev', bare: true });
  assert.match(expandSetting('bin/scalelint', { ...opts, workspaceFolder: undefined }).error, /relative, but no folder is open/);
  assert.match(expandSetting('${workspaceFolder}/x', { ...opts, workspaceFolder: undefined }).error, /no folder is open/);
  const r = resolveServer(linux(['/work/repo/bin/scalelint'], { setting: 'bin/scalelint' }));
  assert.deepStrictEqual([r.path, r.source], ['/work/repo/bin/scalelint', 'setting']);
});

test('a bare scalelint.path is looked up on PATH', () => {
  const r = resolveServer(linux(['/usr/bin/scalelint-dev'], { setting: 'scalelint-dev' }));
  assert.deepStrictEqual([r.ok, r.path, r.source], [true, '/usr/bin/scalelint-dev', 'setting']);
});

test('a broken scalelint.path warns and falls back to the bundled binary', () => {
  const r = resolveServer(linux(['/ext/server/linux-x64/scalelint'], { setting: '/gone/scalelint' }));
  assert.deepStrictEqual([r.ok, r.path, r.source], [true, '/ext/server/linux-x64/scalelint', 'bundled']);
  assert.deepStrictEqual(r.warnings, ['scalelint.path "/gone/scalelint" is not an executable file (/gone/scalelint)']);
});

test('without a setting: the bundled binary, else PATH in order', () => {
  let r = resolveServer(linux(['/ext/server/linux-x64/scalelint', '/usr/bin/scalelint']));
  assert.deepStrictEqual([r.path, r.source], ['/ext/server/linux-x64/scalelint', 'bundled']);
  r = resolveServer(linux(['/usr/bin/scalelint', '/usr/local/bin/scalelint']));
  assert.deepStrictEqual([r.path, r.source], ['/usr/local/bin/scalelint', 'path']);
  assert.deepStrictEqual(
    r.tried.map((c) => [c.source, c.path, c.ok]),
    [
      ['bundled', '/ext/server/linux-x64/scalelint', false],
      ['path', '/usr/local/bin/scalelint', true],
    ],
  );
});

test('a binary for another platform is not used', () => {
  const r = resolveServer(linux(['/ext/server/darwin-arm64/scalelint']));
  assert.strictEqual(r.ok, false);
});

test('nothing found: the message names what was tried and the install command', () => {
  const r = resolveServer(linux([], { setting: '/gone/scalelint' }));
  assert.strictEqual(r.ok, false);
  assert.ok(r.message.includes(INSTALL_COMMAND), r.message);
  assert.strictEqual(INSTALL_COMMAND, 'go install github.com/scalelint/scalelint/cmd/scalelint@latest');
  assert.match(r.message, /scalelint\.path "\/gone\/scalelint"/);
  assert.match(r.message, /the bundled \/ext\/server\/linux-x64\/scalelint/);
  assert.match(r.message, /scalelint on PATH/);
  // This platform's release files, by .goreleaser.yaml's name templates
  // (archives: {{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }};
  // nfpm's conventional names for deb and rpm).
  assert.ok(
    r.message.includes(
      `download scalelint_<version>_linux_amd64.tar.gz, scalelint_<version>_amd64.deb or scalelint-<version>-1.x86_64.rpm from ${RELEASES_URL} and put scalelint on PATH`,
    ),
    r.message,
  );
});

test('the install hints name the release file of each platform, and none where no release exists', () => {
  assert.deepStrictEqual(releaseFiles('linux', 'arm64'), [
    'scalelint_<version>_linux_arm64.tar.gz',
    'scalelint_<version>_arm64.deb',
    'scalelint-<version>-1.aarch64.rpm',
  ]);
  assert.deepStrictEqual(releaseFiles('darwin', 'arm64'), ['scalelint_<version>_darwin_arm64.tar.gz']);
  assert.deepStrictEqual(releaseFiles('darwin', 'x64'), ['scalelint_<version>_darwin_amd64.tar.gz']);
  assert.deepStrictEqual(releaseFiles('win32', 'x64'), ['scalelint_<version>_windows_amd64.zip']);
  assert.deepStrictEqual(releaseFiles('win32', 'arm64'), ['scalelint_<version>_windows_arm64.zip']);
  assert.deepStrictEqual(releaseFiles('linux', 'arm'), [], 'no release build for 32-bit ARM');
  const win = resolveServer({ extensionPath: 'C:\\ext', platform: 'win32', arch: 'arm64', env: { Path: 'C:\\bin' }, isExecutable: () => false });
  assert.match(win.message, /download scalelint_<version>_windows_arm64\.zip from https:\/\/github\.com\/scalelint\/scalelint\/releases and put scalelint on PATH/);
  const armhf = resolveServer({ extensionPath: '/ext', platform: 'linux', arch: 'arm', env: { PATH: '/bin' }, isExecutable: () => false });
  assert.ok(armhf.message.includes(INSTALL_COMMAND) && !armhf.message.includes('download'), armhf.message);
});

test('Windows: PATHEXT, case-insensitive Path, USERPROFILE', () => {
  const env = { Path: 'C:\\Go\\bin;C:\\tools', PATHEXT: '.EXE;.CMD', USERPROFILE: 'C:\\Users\\u' };
  assert.deepStrictEqual(pathCandidates('scalelint', 'win32', env), [
    'C:\\Go\\bin\\scalelint.exe',
    'C:\\Go\\bin\\scalelint.cmd',
    'C:\\tools\\scalelint.exe',
    'C:\\tools\\scalelint.cmd',
  ]);
  const r = resolveServer({
    extensionPath: 'C:\\ext',
    platform: 'win32',
    arch: 'x64',
    env,
    setting: '~\\go\\bin\\scalelint.exe',
    isExecutable: (f) => f === 'C:\\Users\\u\\go\\bin\\scalelint.exe',
  });
  assert.deepStrictEqual([r.ok, r.path], [true, 'C:\\Users\\u\\go\\bin\\scalelint.exe']);
});

test('Windows: spaces in paths, .exe, forward slashes, relative paths', () => {
  const env = { Path: 'C:\\Program Files\\Go\\bin;C:\\Users\\Jane Doe\\go\\bin', USERPROFILE: 'C:\\Users\\Jane Doe' };
  const win = (files, extra) =>
    resolveServer({
      extensionPath: 'C:\\Users\\Jane Doe\\.vscode\\extensions\\scalelint.scalelint-0.1.0-win32-arm64',
      platform: 'win32',
      arch: 'arm64',
      env,
      workspaceFolder: 'D:\\My Repos\\k8s',
      isExecutable: (f) => files.includes(f),
      ...extra,
    });
  // The bundled server of the win32-arm64 package, in a profile with a space.
  const bundled = 'C:\\Users\\Jane Doe\\.vscode\\extensions\\scalelint.scalelint-0.1.0-win32-arm64\\server\\win32-arm64\\scalelint.exe';
  let r = win([bundled]);
  assert.deepStrictEqual([r.ok, r.path, r.source], [true, bundled, 'bundled']);
  // An absolute setting with spaces is taken as it is.
  r = win(['C:\\Program Files\\scalelint\\scalelint.exe'], { setting: 'C:\\Program Files\\scalelint\\scalelint.exe' });
  assert.deepStrictEqual([r.path, r.source], ['C:\\Program Files\\scalelint\\scalelint.exe', 'setting']);
  // Forward slashes, as JSON settings are often written, are normalised.
  r = win(['C:\\tools\\scalelint.exe'], { setting: 'C:/tools/scalelint.exe' });
  assert.deepStrictEqual([r.path, r.source], ['C:\\tools\\scalelint.exe', 'setting']);
  // Relative to the workspace folder, and ${userHome}, both with spaces.
  r = win(['D:\\My Repos\\k8s\\bin\\scalelint.exe'], { setting: '.\\bin\\scalelint.exe' });
  assert.deepStrictEqual([r.path, r.source], ['D:\\My Repos\\k8s\\bin\\scalelint.exe', 'setting']);
  r = win(['C:\\Users\\Jane Doe\\go\\bin\\scalelint.exe'], { setting: '${userHome}\\go\\bin\\scalelint.exe' });
  assert.deepStrictEqual([r.path, r.source], ['C:\\Users\\Jane Doe\\go\\bin\\scalelint.exe', 'setting']);
  // A bare name with .exe is looked up as it is, without PATHEXT.
  assert.deepStrictEqual(pathCandidates('scalelint.exe', 'win32', env), [
    'C:\\Program Files\\Go\\bin\\scalelint.exe',
    'C:\\Users\\Jane Doe\\go\\bin\\scalelint.exe',
  ]);
  // PATH directories with spaces, PATHEXT's default when unset (.COM first).
  r = win(['C:\\Users\\Jane Doe\\go\\bin\\scalelint.exe']);
  assert.deepStrictEqual([r.path, r.source], ['C:\\Users\\Jane Doe\\go\\bin\\scalelint.exe', 'path']);
  assert.deepStrictEqual(
    r.tried.slice(1, 3).map((c) => c.path),
    ['C:\\Program Files\\Go\\bin\\scalelint.com', 'C:\\Program Files\\Go\\bin\\scalelint.exe'],
  );
  // A binary for Linux is never the answer on Windows.
  assert.strictEqual(win(['C:\\Program Files\\Go\\bin\\scalelint']).ok, false);
});

test('POSIX: spaces in HOME, the extension directory and PATH', () => {
  const r = resolveServer({
    extensionPath: '/Users/Jane Doe/.vscode/extensions/scalelint.scalelint-0.1.0-darwin-arm64',
    platform: 'darwin',
    arch: 'arm64',
    env: { PATH: '/opt/my tools/bin:/usr/bin', HOME: '/Users/Jane Doe' },
    setting: '~/Library/Application Support/scalelint/scalelint',
    isExecutable: (f) => f === '/Users/Jane Doe/Library/Application Support/scalelint/scalelint',
  });
  assert.deepStrictEqual([r.ok, r.path, r.source], [true, '/Users/Jane Doe/Library/Application Support/scalelint/scalelint', 'setting']);
  assert.deepStrictEqual(pathCandidates('scalelint', 'darwin', { PATH: '/opt/my tools/bin:/usr/bin' }), ['/opt/my tools/bin/scalelint', '/usr/bin/scalelint']);
  assert.strictEqual(
    bundledServerPath('/Users/Jane Doe/.vscode/extensions/x', 'darwin', 'arm64'),
    '/Users/Jane Doe/.vscode/extensions/x/server/darwin-arm64/scalelint',
  );
});

// A POSIX shell script stands in for the binary (CI runs on Linux).
test('the real file system: a binary in a directory with spaces is found and runs (no shell)', async () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint resolve $HOME ;'));
  try {
    const bin = path.join(dir, 'my tools', 'scalelint');
    fs.mkdirSync(path.dirname(bin));
    fs.writeFileSync(bin, '#!/bin/sh\necho "scalelint 1.2.3 $#:$1"\n', { mode: 0o755 });
    const r = resolveServer({ extensionPath: dir, platform: process.platform, arch: process.arch, env: { PATH: `/nonexistent:${path.dirname(bin)}` } });
    assert.deepStrictEqual([r.ok, r.path, r.source], [true, bin, 'path']);
    // One argument arrives as one, whatever the path holds: execFile, no shell.
    assert.strictEqual((await run(r.path, ['version'])).trim(), 'scalelint 1.2.3 1:version');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the real file system: a file needs the exec bit', () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-resolve-'));
  try {
    const f = path.join(dir, 'scalelint');
    fs.writeFileSync(f, '#!/bin/sh\n');
    fs.chmodSync(f, 0o644);
    const base = { extensionPath: dir, platform: process.platform, arch: process.arch, env: { PATH: dir } };
    if (process.platform !== 'win32') {
      assert.strictEqual(resolveServer(base).ok, false, 'not executable');
    }
    fs.chmodSync(f, 0o755);
    assert.deepStrictEqual([resolveServer(base).path, resolveServer(base).source], [f, 'path']);
    assert.strictEqual(resolveServer({ ...base, env: { PATH: path.join(dir, 'nothing') } }).ok, false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
