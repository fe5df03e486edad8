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
  INSTALL_COMMAND,
} = require('../out/serverPath.js');

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
