/**
 * A screen replay's own border (issue 20): the displayed picture's edge, turned a little against
 * the second camera, crosses the frame's corners as unlit wedges with straight edges. Synthetic
 * pictures: a lit, textured scene turned and cropped as a second camera frames a screen, against
 * the dark corners an honest photo has (a vignette, a dim scene, one dark corner).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../../../server/analysis/raster.js';
import { detectScreenBorder } from '../../../../server/analysis/stages/screen-border.js';

const W = 800;
const H = 600;

/** A lit scene: a smooth desk-like texture (60-200 luma) with a pale card in the middle. */
function scene(light = 1): Buffer {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const desk = 130 + 40 * Math.sin(x / 37) * Math.cos(y / 29) + 25 * Math.sin((x + 2 * y) / 11);
      const card = x > 180 && x < 620 && y > 160 && y < 440;
      const v = (card ? 225 : desk) * light;
      const i = (y * W + x) * 3;
      data[i] = Math.min(255, v * 1.05);
      data[i + 1] = Math.min(255, v);
      data[i + 2] = Math.min(255, v * 0.9);
    }
  }
  return data;
}

/** Adds seeded sensor-like noise (uniform, ±amp) to raw RGB, clipped at 0-255. */
function noisy(data: Buffer, amp: number): Buffer {
  let s = 7;
  const out = Buffer.from(data);
  for (let i = 0; i < out.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out[i] = Math.max(0, Math.min(255, Math.round(out[i]! + ((s / 0x7fffffff) * 2 - 1) * amp)));
  }
  return out;
}

/** The scene shown on a screen turned by `angle` degrees, the frame taking `crop` of it, saved as a JPEG and decoded. */
async function filmed(angle: number, crop: number): Promise<Raster> {
  const turned = await sharp(scene(), { raw: { width: W, height: H, channels: 3 } })
    .rotate(angle, { background: '#000' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: tw, height: th } = turned.info;
  const cw = Math.round(tw * crop);
  const ch = Math.round(th * crop);
  const framed = await sharp(turned.data, { raw: { width: tw, height: th, channels: 3 } })
    .extract({ left: Math.round((tw - cw) / 2), top: Math.round((th - ch) / 2), width: cw, height: ch })
    .resize(W, H)
    .raw()
    .toBuffer();
  return decodedJpeg(noisy(framed, 4));
}

async function decodedJpeg(data: Buffer): Promise<Raster> {
  const jpeg = await sharp(data, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const out = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { data: out.data, width: out.info.width, height: out.info.height, channels: 3 };
}

describe('detectScreenBorder', () => {
  it('finds the displayed picture’s border in the corners of a screen filmed at a small angle', async () => {
    // Arrange: turned 2°, the frame taking 96 % of it: thin black wedges in all four corners.
    const r = await filmed(2, 0.96);
    // Act
    const out = detectScreenBorder(r);
    // Assert
    expect(out.screen).toBe(true);
    const counting = out.wedges.filter((w) => w.counts);
    expect(counting.length).toBeGreaterThanOrEqual(2);
    for (const w of counting) expect(w.angle).toBeCloseTo(2, 0);
  });

  it('finds nothing once the frame crops the border away', async () => {
    const out = detectScreenBorder(await filmed(2, 0.85));
    expect(out.screen).toBe(false);
  });

  it('does not take a vignette’s dark corners for a border', async () => {
    // A dim photo whose corners fall off smoothly to black: dark, but no straight sharp edge.
    const data = scene(0.45);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const d = Math.hypot((x - W / 2) / (W / 2), (y - H / 2) / (H / 2));
        const k = Math.max(0, 1 - Math.max(0, d - 0.7) * 2.2);
        for (let c = 0; c < 3; c++) data[(y * W + x) * 3 + c] = Math.round(data[(y * W + x) * 3 + c]! * k);
      }
    }
    const out = detectScreenBorder(await decodedJpeg(noisy(data, 3)));
    expect(out.screen).toBe(false);
  });

  it('needs two corners on one rectangle: a single straight dark wedge is not a screen', async () => {
    // One corner covered by something black with a straight edge (a phone case, a sleeve): one wedge only.
    const data = scene();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (y < 40 - x * 0.1) data.fill(0, (y * W + x) * 3, (y * W + x) * 3 + 3);
    const out = detectScreenBorder(await decodedJpeg(noisy(data, 4)));
    expect(out.wedges.filter((w) => w.counts)).toHaveLength(1);
    expect(out.screen).toBe(false);
  });

  it('does not count wedges whose inside is lit: a dark, lit surround is not an unlit screen', async () => {
    // The same turned frame, but the screen's surround is lit, dark and grainy (luma ~16 with noise): no flat black, no clean edge.
    const turned = await sharp(scene(), { raw: { width: W, height: H, channels: 3 } })
      .rotate(2, { background: { r: 17, g: 16, b: 15 } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: tw, height: th } = turned.info;
    const cw = Math.round(tw * 0.96);
    const ch = Math.round(th * 0.96);
    const framed = await sharp(turned.data, { raw: { width: tw, height: th, channels: 3 } })
      .extract({ left: Math.round((tw - cw) / 2), top: Math.round((th - ch) / 2), width: cw, height: ch })
      .resize(W, H)
      .raw()
      .toBuffer();
    const out = detectScreenBorder(await decodedJpeg(noisy(framed, 6)));
    expect(out.screen).toBe(false);
  });
});
