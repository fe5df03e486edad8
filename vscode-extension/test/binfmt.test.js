// The executable header check of check-vsix.mjs, on real binaries: an empty
// Go program cross-compiled for each of the six targets (Go writes the
// headers; nothing here is hand-made), each accepted for its own target and
// refused for the five others; and inputs that are no executable at all.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

test('each target binary is recognised, and only for its own target', async () => {
  const { inspectBinary, mismatch } = await import('../scripts/binfmt.mjs');
  const { TARGETS, exeName } = await import('../scripts/targets.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-binfmt-'));
  try {
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module empty\n\ngo 1.21\n');
    fs.writeFileSync(path.join(dir, 'main.go'), 'package main\n\nfunc main() {}\n');
    const bins = {};
    for (const [target, t] of Object.entries(TARGETS)) {
      const out = path.join(dir, target, exeName(target));
      execFileSync('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', out, '.'], {
        cwd: dir,
        env: { ...process.env, CGO_ENABLED: '0', GOOS: t.goos, GOARCH: t.goarch, GOFLAGS: '-mod=mod' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      bins[target] = fs.readFileSync(out);
    }
    const formats = { 'linux-x64': 'elf', 'linux-arm64': 'elf', 'darwin-x64': 'macho', 'darwin-arm64': 'macho', 'win32-x64': 'pe', 'win32-arm64': 'pe' };
    for (const [target, buf] of Object.entries(bins)) {
      const got = inspectBinary(buf);
      assert.deepStrictEqual(
        [got.format, got.os, got.arch, got.bits],
        [formats[target], target.split('-')[0], target.split('-')[1], 64],
        `${target}: ${JSON.stringify(got)}`,
      );
      for (const [other, want] of Object.entries(TARGETS)) {
        const problem = mismatch(buf, want);
        if (other === target) {
          assert.strictEqual(problem, undefined, `${target} binary for ${target}`);
        } else {
          assert.match(problem ?? '', /want .* 64-bit for /, `${target} binary refused for ${other}`);
        }
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('what is not an executable is said so', async () => {
  const { inspectBinary, mismatch } = await import('../scripts/binfmt.mjs');
  const { TARGETS } = await import('../scripts/targets.mjs');
  assert.match(inspectBinary(Buffer.from('#!/bin/sh\nexec scalelint "$@"\n'.padEnd(80, ' '))).error, /unknown executable format \(first bytes 23212f62\)/);
  assert.match(inspectBinary(Buffer.alloc(10)).error, /too short/);
  const mz = Buffer.alloc(128);
  mz.write('MZ', 0, 'latin1');
  mz.writeUInt32LE(0x40, 0x3c);
  assert.match(inspectBinary(mz).error, /without a PE signature/);
  const fat = Buffer.alloc(64);
  fat.writeUInt32BE(0xcafebabe, 0);
  assert.match(inspectBinary(fat).error, /fat Mach-O/);
  assert.match(mismatch(Buffer.alloc(64), TARGETS['linux-x64']), /unknown executable format/);
});
