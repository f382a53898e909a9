import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { movedCloser, printedPhoto, screenReplay } from '../fixtures/hard/attacks.js';
import { applyH, homography } from '../fixtures/hard/capture.js';
import { DEV, DEV_VARIANT, HELDOUT } from '../fixtures/hard/config.js';
import { hardIdentity } from '../fixtures/hard/identities.js';
import { hardCaptureParams, hardPeople, hardStyle, makeHardPhoto } from '../fixtures/hard/set.js';

const disjoint = <T>(a: readonly T[], b: readonly T[]): boolean => a.every((x) => !b.includes(x));

describe('hard evaluation set', () => {
  it('makes the same upload from the same seed and another from another seed', async () => {
    const a = await makeHardPhoto(DEV, 3, 'licence-back');
    const b = await makeHardPhoto(DEV, 3, 'licence-back');
    const c = await makeHardPhoto(DEV, 4, 'licence-back');
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    const meta = await sharp(a).metadata();
    expect(meta.format).toBe('jpeg');
    const long = Math.max(meta.width ?? 0, meta.height ?? 0);
    expect(long).toBeGreaterThanOrEqual(DEV.capture.longSide[0]);
    expect(long).toBeLessThanOrEqual(DEV.capture.longSide[1]);
  }, 120_000);

  it('keeps the held-out half apart: other seeds, fonts, layouts, faces and distortions', () => {
    expect(disjoint(DEV.fonts, HELDOUT.fonts)).toBe(true);
    expect(disjoint(DEV.licenceLayouts, HELDOUT.licenceLayouts)).toBe(true);
    // The extra development fronts (`devStackedFront`, labels above values) stay out of the held-out half.
    expect(HELDOUT.licenceLayouts).not.toContain('stacked');
    expect(disjoint(DEV.passportLayouts, HELDOUT.passportLayouts)).toBe(true);
    expect(disjoint(DEV.backLayouts, HELDOUT.backLayouts)).toBe(true);
    expect(disjoint(DEV.faces, HELDOUT.faces)).toBe(true);
    expect(HELDOUT.seedBase).not.toBe(DEV.seedBase);
    expect(HELDOUT.capture).not.toEqual(DEV.capture);
    // The documents actually drawn use only their half's fonts and layouts.
    const drawn = (h: typeof DEV): { fonts: Set<string>; layouts: Set<string> } => {
      const fonts = new Set<string>();
      const layouts = new Set<string>();
      for (let i = 0; i < 40; i++) {
        for (const k of ['licence-front', 'licence-back', 'passport'] as const) {
          const s = hardStyle(h, i, k);
          fonts.add(s.style.font);
          layouts.add(`${k}:${s.layout}`);
        }
      }
      return { fonts, layouts };
    };
    const d = drawn(DEV);
    const h = drawn(HELDOUT);
    expect(disjoint([...d.fonts], [...h.fonts])).toBe(true);
    expect(disjoint([...d.layouts], [...h.layouts])).toBe(true);
    expect(d.layouts.size).toBeGreaterThanOrEqual(4); // two licence layouts, a back and a passport
    expect(new Set(hardPeople(DEV, 52).map((p) => p.dlNumber)).size).toBe(52);
    expect(hardIdentity(DEV.seedBase, 0, DEV.faces)).not.toEqual(hardIdentity(HELDOUT.seedBase, 0, HELDOUT.faces));
    // Scenes vary: dim, normal and bright captures all occur in 60 draws.
    const scenes = new Set(Array.from({ length: 60 }, (_, i) => hardCaptureParams(DEV, i, 'passport').scene));
    expect([...scenes].sort()).toEqual(['bright', 'dim', 'normal']);
  });

  it('keeps the held-out half out of the development variant (fonts, layouts, faces, seeds)', () => {
    expect(disjoint(DEV_VARIANT.fonts, HELDOUT.fonts)).toBe(true);
    expect(disjoint(DEV_VARIANT.fonts, DEV.fonts)).toBe(true);
    expect(disjoint(DEV_VARIANT.licenceLayouts, HELDOUT.licenceLayouts)).toBe(true);
    expect(disjoint(DEV_VARIANT.faces, HELDOUT.faces)).toBe(true);
    expect(DEV_VARIANT.seedBase).toBe(DEV.seedBase);
  });

  it('draws with fonts that are installed (fontconfig would silently substitute a missing one)', () => {
    const families = execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' });
    for (const f of [...DEV.fonts, ...HELDOUT.fonts, ...DEV_VARIANT.fonts, ...DEV.signatureFonts, ...HELDOUT.signatureFonts, 'OCR B'])
      expect(families.split('\n').some((l) => l.split(',').includes(f))).toBe(true);
  });

  it('makes attack images that keep the size and layout of the photo they attack', async () => {
    // Left half dark, right half light: an attack must keep that, only add its own texture.
    const half = await sharp({ create: { width: 120, height: 300, channels: 3, background: '#202020' } })
      .png()
      .toBuffer();
    const photo = await sharp({ create: { width: 240, height: 300, channels: 3, background: '#e0e0e0' } })
      .composite([{ input: half, left: 0, top: 0 }])
      .jpeg()
      .toBuffer();
    const sides = async (img: Buffer): Promise<[number, number]> => {
      // stats() reads the input, not the extract: cut first, then measure.
      const m = async (left: number): Promise<number> =>
        (await sharp(await sharp(img).extract({ left, top: 40, width: 80, height: 220 }).toBuffer()).stats()).channels[1]!.mean;
      return [await m(20), await m(140)];
    };
    for (const attack of [await printedPhoto(photo, 1), await screenReplay(photo, 2), await movedCloser(photo)]) {
      const meta = await sharp(attack).metadata();
      expect([meta.width, meta.height]).toEqual([240, 300]);
      const [dark, light] = await sides(attack);
      expect(light - dark).toBeGreaterThan(80);
    }
  });

  it('maps the document corners onto the drawn quad (the homography the forgery uses)', () => {
    const from = [
      [0, 0],
      [100, 0],
      [100, 50],
      [0, 50],
    ] as const;
    const to = [
      [10, 20],
      [130, 15],
      [120, 90],
      [5, 80],
    ] as const;
    const h = homography(from, to);
    for (let i = 0; i < 4; i++) {
      const [x, y] = applyH(h, from[i]![0], from[i]![1]);
      expect(x).toBeCloseTo(to[i]![0], 6);
      expect(y).toBeCloseTo(to[i]![1], 6);
    }
  });
});
