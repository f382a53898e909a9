import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { detectGridInconsistency } from '../../../../server/analysis/stages/jpeg-grid.js';

const W = 640;
const H = 400;

/** A textured "card": value noise, soft shading and rows of dark strokes, as an RGB raster. */
function scene(seed: number): Buffer {
  let s = seed;
  const rand = (): number => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const px = Buffer.alloc(W * H * 3);
  const blobs = Array.from({ length: 40 }, () => [rand() * W, rand() * H, 10 + rand() * 40, rand() * 60 - 30] as const);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let v = 150 + 40 * Math.sin(x / 37) * Math.cos(y / 23) + (rand() - 0.5) * 16;
      for (const [bx, by, r, a] of blobs) if ((x - bx) ** 2 + (y - by) ** 2 < r * r) v += a;
      // Text-like strokes on rows.
      if (y % 40 > 24 && y % 40 < 34 && (x + Math.floor(y / 40) * 7) % 11 < 3) v -= 90;
      const i = (y * W + x) * 3;
      px[i] = Math.max(10, Math.min(245, v + 6));
      px[i + 1] = Math.max(10, Math.min(245, v));
      px[i + 2] = Math.max(10, Math.min(245, v - 8));
    }
  }
  return px;
}

async function decoded(jpeg: Buffer): Promise<{ data: Buffer; width: number; height: number; channels: 3 }> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** The scene saved as a phone would (q70), then saved again by the uploader at q92. */
async function resaved(): Promise<Buffer> {
  const first = await sharp(scene(7), { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
  return sharp(first).jpeg({ quality: 92 }).toBuffer();
}

/** The same, but a field re-typed on a patch with its own noise and JPEG, pasted off the 8-pixel grid before the second save. */
async function edited(): Promise<Buffer> {
  const first = await sharp(scene(7), { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40"><rect width="150" height="40" fill="rgb(158,150,142)"/><text x="4" y="31" font-family="DejaVu Serif" font-size="28" fill="#202020">01/02/1970</text></svg>`;
  const noisy = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let s = 3;
  for (let i = 0; i < noisy.data.length; i++) noisy.data[i] = Math.max(0, Math.min(255, noisy.data[i]! + ((s = (s * 69069 + 1) >>> 0) / 2 ** 32 - 0.5) * 10));
  const patch = await sharp(noisy.data, { raw: { width: noisy.info.width, height: noisy.info.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return sharp(first)
    .composite([{ input: patch, left: 203, top: 141 }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

describe('detectGridInconsistency', () => {
  it('passes a clean picture saved twice', async () => {
    const out = detectGridInconsistency(await decoded(await resaved()));
    expect(out.judged).toBe(true);
    expect(out.suspicious).toBe(false);
    expect(out.regions).toEqual([]);
  });

  it('finds a patch pasted between the two saves, where it was pasted', async () => {
    const out = detectGridInconsistency(await decoded(await edited()));
    expect(out.suspicious).toBe(true);
    const [x, y, w, h] = out.regions[0]!.box;
    // The group lies inside the pasted 150x40 box at (203, 141), give or take a block.
    expect(x).toBeGreaterThanOrEqual(192);
    expect(y).toBeGreaterThanOrEqual(136);
    expect(x + w).toBeLessThanOrEqual(203 + 150 + 8);
    expect(y + h).toBeLessThanOrEqual(141 + 40 + 8);
  });

  it('gives no verdict on a picture with no lattice (a PNG-like raster never saved as JPEG)', () => {
    const out = detectGridInconsistency({ data: scene(9), width: W, height: H, channels: 3 });
    expect(out.judged).toBe(false);
    expect(out.suspicious).toBe(false);
  });

  it('finds it in the raster the document pipeline analyses', async () => {
    const input = await prepareInput(await edited());
    expect(detectGridInconsistency(input.raster).suspicious).toBe(true);
  });
});
