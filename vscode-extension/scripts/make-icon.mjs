// Draws images/icon.png (128x128): a rounded dark-blue tile, pod bars
// rising to meet a load curve, and the orange floor the laws compute.
// No image library: shapes are rasterized with 4x4 supersampling and the
// PNG is written with node:zlib.
//   node scripts/make-icon.mjs [out.png]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.join(here, '..', 'images', 'icon.png');
const N = 128;
const SS = 4;

const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
const BG_TOP = hex('#1d3b66');
const BG_BOTTOM = hex('#12243f');
const BAR = hex('#4fd1c5');
const BAR_DIM = hex('#2c8f87');
const CURVE = hex('#ffffff');
const FLOOR = hex('#ff9f43');

function roundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

function distToSegment(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// The load curve: a smooth step up, as a polyline.
const curve = [];
for (let i = 0; i <= 40; i++) {
  const x = 18 + (i / 40) * 92;
  const s = 1 / (1 + Math.exp(-(x - 60) / 7));
  curve.push([x, 92 - s * 56]);
}
const bars = [
  { x0: 22, x1: 36, top: 84, color: BAR_DIM },
  { x0: 42, x1: 56, top: 74, color: BAR_DIM },
  { x0: 62, x1: 76, top: 52, color: BAR },
  { x0: 82, x1: 96, top: 40, color: BAR },
];

function sample(x, y) {
  if (!roundedRect(x, y, 2, 2, 126, 126, 22)) {
    return null;
  }
  const t = y / N;
  let c = BG_TOP.map((v, i) => v + (BG_BOTTOM[i] - v) * t);
  for (const b of bars) {
    if (roundedRect(x, y, b.x0, b.top, b.x1, 104, 2.5)) {
      c = b.color;
    }
  }
  // The floor: a dashed orange line.
  if (Math.abs(y - 62) <= 2 && x >= 14 && x <= 114 && Math.floor((x - 14) / 8) % 2 === 0) {
    c = FLOOR;
  }
  for (let i = 1; i < curve.length; i++) {
    if (distToSegment(x, y, ...curve[i - 1], ...curve[i]) <= 3) {
      c = CURVE;
      break;
    }
  }
  // The baseline.
  if (Math.abs(y - 106) <= 1.5 && x >= 16 && x <= 112) {
    c = CURVE;
  }
  return c;
}

const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) {
  raw[y * (N * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < N; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = sample(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
        if (c) {
          r += c[0]; g += c[1]; b += c[2]; a += 1;
        }
      }
    }
    const o = y * (N * 4 + 1) + 1 + x * 4;
    raw[o] = a ? Math.round(r / a) : 0;
    raw[o + 1] = a ? Math.round(g / a) : 0;
    raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((a / (SS * SS)) * 255);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, png);
console.log(`icon: ${out} (${png.length} bytes)`);
