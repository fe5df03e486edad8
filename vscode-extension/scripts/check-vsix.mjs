// Checks a packaged .vsix (a zip) without unzip: lists it, requires the
// extension's files and the server binary for the target, executable (the
// Unix mode in the zip's external attributes), of the target's format and
// machine (its ELF, Mach-O or PE header, binfmt.mjs), identical to the built
// one (CRC-32), and runnable once extracted when the target is this
// machine's; refuses sources, tests, maps, node_modules and a server for
// another target. A universal package (--target universal) must carry no
// server and no TargetPlatform.
//   node scripts/check-vsix.mjs FILE.vsix --target linux-x64 --binary server/linux-x64/scalelint
//   node scripts/check-vsix.mjs scalelint-universal.vsix --target universal
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { mismatch } from './binfmt.mjs';
import { TARGETS, UNIVERSAL, exeName } from './targets.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const file = args[0];
const target = opt('--target') ?? 'linux-x64';
const built = opt('--binary');
const problems = [];

/** The central directory: name, sizes, CRC, Unix mode, where the data is. */
export function readZip(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${n}`);
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const external = buf.readUInt32LE(p + 38);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    entries.push({ name, method, crc, csize, size, madeBy, mode: madeBy === 3 ? (external >>> 16) & 0o7777 : undefined, local });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

export function entryData(buf, e) {
  const nameLen = buf.readUInt16LE(e.local + 26);
  const extraLen = buf.readUInt16LE(e.local + 28);
  const start = e.local + 30 + nameLen + extraLen;
  const raw = buf.subarray(start, start + e.csize);
  return e.method === 0 ? raw : zlib.inflateRawSync(raw);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = crcTable[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

if (!file) {
  console.error('usage: check-vsix.mjs FILE.vsix [--target linux-x64] [--binary PATH]');
  process.exit(2);
}
const buf = fs.readFileSync(file);
const entries = readZip(buf);
const byName = new Map(entries.map((e) => [e.name, e]));

console.log(`${path.basename(file)}: ${buf.length} bytes, ${entries.length} entries`);
console.log('    size  packed  mode  name');
for (const e of entries) {
  const mode = e.mode === undefined ? '   -' : e.mode.toString(8).padStart(4, '0');
  console.log(`${String(e.size).padStart(8)} ${String(e.csize).padStart(7)}  ${mode}  ${e.name}`);
}

const universal = target === UNIVERSAL;
if (!universal && !TARGETS[target]) {
  console.error(`check-vsix: unknown target ${target} (one of ${[...Object.keys(TARGETS), UNIVERSAL].join(', ')})`);
  process.exit(2);
}
const exe = exeName(target);
const binName = universal ? undefined : `extension/server/${target}/${exe}`;
for (const required of [
  'extension.vsixmanifest',
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/schemas/scalelint.schema.json',
  'extension/images/icon.png',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  ...(binName ? [binName] : []),
]) {
  const found = byName.has(required) || entries.some((e) => e.name.toLowerCase() === required.toLowerCase());
  if (!found) problems.push(`missing ${required}`);
}
for (const e of entries) {
  if (/(^|\/)(node_modules|src|test|out|scripts)\//.test(e.name.replace(/^extension\//, '/')) || /\.(map|ts)$/.test(e.name) || /ci\.sh$/.test(e.name)) {
    problems.push(`should not ship ${e.name}`);
  }
  if (e.name.startsWith('extension/server/') && (universal || e.name !== binName)) {
    problems.push(universal ? `a universal package with a server: ${e.name}` : `a file for another target: ${e.name}`);
  }
}

const manifest = byName.get('extension.vsixmanifest');
if (manifest) {
  const xml = entryData(buf, manifest).toString('utf8');
  if (universal) {
    if (xml.includes('TargetPlatform=')) problems.push('a universal package whose extension.vsixmanifest names a TargetPlatform');
  } else if (!xml.includes(`TargetPlatform="${target}"`)) {
    problems.push(`extension.vsixmanifest does not say TargetPlatform="${target}"`);
  }
}
const pkgEntry = byName.get('extension/package.json');
if (pkgEntry) {
  const pkg = JSON.parse(entryData(buf, pkgEntry).toString('utf8'));
  const url = pkg.contributes?.yamlValidation?.[0]?.url?.replace(/^\.\//, '');
  if (!url || !byName.has(`extension/${url}`)) problems.push(`yamlValidation url ${url} is not in the package`);
}

const bin = byName.get(binName);
if (bin) {
  if (bin.mode === undefined) {
    problems.push(`${binName}: no Unix mode in the zip (made by host ${bin.madeBy})`);
  } else if ((bin.mode & 0o111) !== 0o111) {
    problems.push(`${binName}: mode ${bin.mode.toString(8)} is not executable`);
  }
  if (bin.size < 1_000_000) problems.push(`${binName}: ${bin.size} bytes, too small for the server`);
  const data = entryData(buf, bin);
  if (crc32(data) !== bin.crc) problems.push(`${binName}: CRC mismatch`);
  const wrong = mismatch(data, TARGETS[target]);
  if (wrong) problems.push(`${binName}: ${wrong}`);
  else console.log(`${binName}: header fits ${target}`);
  if (built) {
    const want = fs.readFileSync(built);
    if (!want.equals(data)) problems.push(`${binName} differs from ${built}`);
  }
  if (target === `${process.platform}-${process.arch}` && bin.mode !== undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scalelint-vsix-'));
    try {
      const out = path.join(dir, exe);
      fs.writeFileSync(out, data, { mode: bin.mode });
      const v = execFileSync(out, ['version'], { encoding: 'utf8' }).trim();
      console.log(`${binName}: mode ${bin.mode.toString(8)}, runs: ${v}`);
      if (!/^scalelint /.test(v)) problems.push(`${binName} version says ${JSON.stringify(v)}`);
    } catch (e) {
      problems.push(`${binName} does not run once extracted: ${e.message}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (problems.length > 0) {
  console.error(`check-vsix: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(universal ? 'check-vsix: ok (universal, no server)' : `check-vsix: ok (${target}, server binary present, executable, for ${target})`);
