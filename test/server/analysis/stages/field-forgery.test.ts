import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import type { GreyPlane } from '../../../../server/analysis/raster.js';
import { detectRetypedFields, glyphFeatures } from '../../../../server/analysis/stages/field-forgery.js';
import type { BoxRow } from '../../../../server/analysis/stages/label-pairing.js';
import { runOcr } from '../../../../server/analysis/stages/ocr.js';

const W = 900;
const H = 520;

interface Word {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly size: number;
}

/** A licence-like page: values in one bold sans, on a lightly textured card. */
const VALUES: readonly Word[] = [
  { text: 'J0580908', x: 380, y: 110, size: 26 },
  { text: 'IVANOV', x: 380, y: 160, size: 26 },
  { text: '7220', x: 380, y: 205, size: 22 },
  { text: 'STREET', x: 460, y: 205, size: 22 },
  { text: '04/04/1973', x: 380, y: 290, size: 28 },
  { text: '04/04/2028', x: 640, y: 290, size: 24 },
  { text: '09/18/2024', x: 380, y: 340, size: 22 },
  { text: 'NONE', x: 380, y: 390, size: 22 },
];
const DOB = 4;

const bold = (w: Word): string =>
  `<text x="${w.x}" y="${w.y}" font-family="DejaVu Sans" font-weight="bold" font-size="${w.size}" fill="#151515">${w.text}</text>`;

/** Fine line work over the whole card, as a guilloche or tint prints it. */
const LINES = `<pattern id="l" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(35)"><rect width="2" height="5" fill="#c9c6bc"/></pattern><rect width="100%" height="100%" fill="url(#l)"/>`;

/**
 * `dob` replaces the date of birth's markup (a re-typed value drawn over a patch of paper);
 * `textured` prints fine line work under the values, `patch` paints the date's paper over flat.
 */
async function page(dob?: string, opts: { textured?: boolean; patch?: boolean } = {}): Promise<GreyPlane> {
  const words = VALUES.map((w, i) => (i === DOB && dob !== undefined ? dob : bold(w))).join('');
  const lines = opts.textured ? LINES : '';
  const patch = opts.patch ? `<rect x="370" y="255" width="250" height="48" fill="#e1ded4"/>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#e9e6dc"/>${lines}${patch}${words}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).blur(0.6).greyscale().raw().toBuffer({ resolveWithObject: true });
  // Sensor-like noise, so that no box is flat paper.
  let s = 11;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = Math.max(0, Math.min(255, data[i]! + ((s >>> 24) % 9) - 4));
  }
  return { data, width: info.width, height: info.height };
}

/** The box of the ink drawn for a word (what the OCR's word box is), one row per word. */
function inkRows(g: GreyPlane, words: readonly Word[]): BoxRow[] {
  return words.map((w) => {
    let [x0, y0, x1, y1] = [W, H, 0, 0];
    const top = Math.round(w.y - w.size * 1.4);
    for (let y = Math.max(0, top); y < Math.min(H, w.y + w.size * 0.6); y++)
      for (let x = w.x - 4; x < Math.min(W, w.x + w.text.length * w.size * 0.8); x++)
        if (g.data[y * W + x]! < 110) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    return { boxes: [{ text: w.text, confidence: 90, x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }], confidence: 90 };
  });
}

afterAll(async () => {
  await closeEngines();
});

describe('re-typed field check (field-forgery.ts)', () => {
  it('measures a bold value heavier than a regular one of the same size', async () => {
    const g = await page(`<text x="380" y="290" font-family="DejaVu Sans" font-size="28" fill="#151515">04/04/1973</text>`);
    const boldOne = glyphFeatures(g, inkRows(g, [VALUES[5]!])[0]!.boxes[0]!)!;
    const regular = glyphFeatures(g, inkRows(g, [VALUES[DOB]!])[0]!.boxes[0]!)!;
    expect(regular.stroke).toBeLessThan(boldOne.stroke * 0.8);
    expect(Math.abs(regular.tilt)).toBeLessThan(0.5);
  });

  it('passes a page whose values share one weight, size and level', async () => {
    const g = await page();
    const r = detectRetypedFields(g, inkRows(g, VALUES));
    expect(r.suspicious).toBe(false);
    expect(r.words).toEqual([]);
  });

  it('finds a date of birth re-typed in a lighter face, larger and level in the photo of a tilted card', async () => {
    // The forger's text, straight in the photo: against the deskewed page it is tilted 4 degrees.
    const typed = `<text x="380" y="290" transform="rotate(4 380 290)" font-family="DejaVu Sans Mono" font-size="40" fill="#303038">04/04/1968</text>`;
    const g = await page(typed);
    const words = VALUES.map((w, i) => (i === DOB ? { ...w, text: '04/04/1968', size: 40 } : w));
    const r = detectRetypedFields(g, inkRows(g, words));
    expect(r.suspicious).toBe(true);
    expect(r.words.map((w) => w.text)).toEqual(['04/04/1968']);
    expect(r.words[0]!.cues).toEqual(expect.arrayContaining(['tilt', 'height']));
  });

  it('does not flag a lighter weight alone: one cue is not strong evidence', async () => {
    const g = await page(`<text x="380" y="290" font-family="DejaVu Sans" font-weight="300" font-size="28" fill="#151515">04/04/1973</text>`);
    const r = detectRetypedFields(g, inkRows(g, VALUES));
    // Measured as lighter (the stroke rule alone), and not flagged without a second cue.
    expect(r.words.map((w) => [w.text, w.cues])).toEqual([['04/04/1973', ['weight']]]);
    expect(r.suspicious).toBe(false);
  });

  it("finds a lighter date on a patch painted over the card's line work, the paper under it flat", async () => {
    // Weight alone is not enough (above); the forger's patch lost the card's texture, and the
    // noise the capture adds everywhere is all that is left on it.
    const light = `<text x="380" y="290" font-family="DejaVu Sans" font-weight="300" font-size="28" fill="#151515">04/04/1973</text>`;
    const g = await page(light, { textured: true, patch: true });
    const r = detectRetypedFields(g, inkRows(g, VALUES));
    expect(r.suspicious).toBe(true);
    expect(r.words.map((w) => [w.text, w.cues])).toEqual([['04/04/1973', ['weight', 'paper']]]);
  });

  it("does not flag the same lighter date printed over the card's line work", async () => {
    const light = `<text x="380" y="290" font-family="DejaVu Sans" font-weight="300" font-size="28" fill="#151515">04/04/1973</text>`;
    const g = await page(light, { textured: true });
    const r = detectRetypedFields(g, inkRows(g, VALUES));
    expect(r.words.map((w) => [w.text, w.cues])).toEqual([['04/04/1973', ['weight']]]);
    expect(r.suspicious).toBe(false);
  });

  it('reads the word boxes from the OCR in the pixels of the page it read', async () => {
    const typed = `<text x="380" y="290" transform="rotate(4 380 290)" font-family="DejaVu Sans Mono" font-size="40" fill="#303038">04/04/1968</text>`;
    const g = await page(typed);
    const ocr = await runOcr(g);
    const dob = ocr.rows?.flatMap((r) => r.boxes).find((b) => b.text.includes('1968'));
    expect(dob).toBeDefined();
    // The mono date starts at x 380 and its glyphs reach ~30 px above the baseline at 290.
    expect(Math.abs(dob!.x - 380)).toBeLessThan(8);
    expect(dob!.y).toBeGreaterThan(240);
    expect(dob!.y + dob!.h).toBeLessThan(330);
    expect(detectRetypedFields(g, ocr.rows!).suspicious).toBe(true);
  }, 120_000);
});
