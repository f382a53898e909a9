/**
 * The MRZ's lowest-rows fallback levels the page by its text rows' own slope (mrz-bands.ts
 * `rowsSlope`, `levelled`; issue 20): pages turned beyond the ±6° the earlier levelling searched
 * around the gradient skew estimate were left with no MRZ read (development `wide` 14).
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { estimateSkew } from '../../../../server/analysis/stages/barcode.js';
import { bandsOf, levelled, rotate, rowsSlope, textBands } from '../../../../server/analysis/stages/mrz-bands.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';
import { passportMrz } from '../../../fixtures/mrz.js';
import { stressedParams, stressedPassport } from '../../../fixtures/hard/stress.js';

const W = 1000;
const H = 700;
const MRZ = ['P<USAMARTIN<<VIKTOR<JAMES<<<<<<<<<<<<<<<<<<<', '9431553110USA5603266M2303266<<<<<<<<<<<<<<06'];

/**
 * A page of text rows (a heading, four field lines, two MRZ lines in OCR-B near the bottom)
 * turned `degrees` (positive: clockwise, rows fall to the right) on a table whose boards run
 * level across the frame: edges at 0° that pull a gradient estimate towards it.
 */
async function turnedPage(degrees: number): Promise<GreyPlane> {
  const boards = Array.from({ length: 36 }, (_, i) => `<rect x="0" y="${i * 20}" width="${W}" height="9" fill="#5a5a5a"/>`).join('');
  const fields = ['UNITED STATES OF AMERICA', 'MARTIN', 'VIKTOR JAMES', '26 MAR 1956'].map(
    (t, i) => `<text x="330" y="${230 + i * 45}" font-family="DejaVu Sans" font-size="20" font-weight="bold">${t}</text>`,
  );
  const mrz = MRZ.map((t, i) => `<text x="230" y="${520 + i * 40}" font-family="OCR B" font-size="25" letter-spacing="2">${t.replace(/</g, '&lt;')}</text>`);
  const page = `<g transform="rotate(${degrees} ${W / 2} ${H / 2})"><rect x="200" y="130" width="640" height="470" fill="#f4f4f0"/><rect x="230" y="200" width="80" height="110" fill="#888"/><text x="230" y="175" font-family="DejaVu Sans" font-size="18">PASSPORT</text>${fields.join('')}${mrz.join('')}</g>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#777"/>${boards}${page}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).blur(0.7).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

afterAll(closeEngines);

describe('the page levelled by its rows', { timeout: 240_000 }, () => {
  for (const degrees of [-14, -10.5, 11, 13.5]) {
    it(`finds rows turned ${degrees}° to within 1°, beyond the ±6° the earlier search reached`, async () => {
      const g = await turnedPage(degrees);
      expect(Math.abs(rowsSlope(g) - degrees)).toBeLessThan(1);
    });
  }

  it('levels a page turned 12° so that its two MRZ lines are the lowest wide rows', async () => {
    const g = stretchGrey(await turnedPage(12));
    const { g: level } = await levelled(g, 0);
    const bands = bandsOf(level);
    expect(bands.length).toBeGreaterThanOrEqual(2);
    const [a, b] = bands.slice(-2) as [[number, number], [number, number]];
    // The MRZ lines are 40 px apart in the drawn page (their bands' middles), in its lower part.
    const apart = (b[0] + b[1] - a[0] - a[1]) / 2;
    expect(apart).toBeGreaterThan(34);
    expect(apart).toBeLessThan(46);
    expect(a[0]).toBeGreaterThan(level.height * 0.55);
  });

  it('finds level rows level', async () => {
    expect(Math.abs(rowsSlope(await turnedPage(0)))).toBeLessThan(0.5);
  });

  it('follows the rows of a dim, noisy, blurred page, not the noise (development `hard` 1 and 4)', async () => {
    for (const i of [1, 4]) {
      const g = stretchGrey(toGrey(await fitRaster((await prepareInput(await stressedPassport(i, 'hard'))).raster, 2000)));
      // The page's lower edge, beside the MRZ, as the capture drew it.
      const [, , c, d] = stressedParams(i, 'hard').corners as [unknown, unknown, readonly [number, number], readonly [number, number]];
      const edge = (Math.atan2(c[1] - d[1], c[0] - d[0]) * 180) / Math.PI;
      expect(Math.abs(rowsSlope(g) - edge)).toBeLessThan(1);
    }
  });

  const wide14 = async (): Promise<GreyPlane> => toGrey(await fitRaster((await prepareInput(await stressedPassport(14, 'wide'))).raster, 2000));

  it('levels development `wide` 14 (turned ~5°, the skew estimate 5° off), where no rows showed', async () => {
    const g = await wide14();
    const page = stretchGrey(g);
    expect(textBands(await rotate(page, -estimateSkew(g)))).toEqual([]);
    const { g: level } = await levelled(page, estimateSkew(g));
    const bands = bandsOf(level);
    expect(bands.length).toBeGreaterThanOrEqual(2);
    const [a, b] = bands.slice(-2) as [[number, number], [number, number]];
    expect(b[0] - a[0]).toBeGreaterThan(25);
    expect(b[0] - a[0]).toBeLessThan(60);
  });

  it('reads `wide` 14’s MRZ, where none was read: every character but the sex a finger hides, and that one doubted', async () => {
    const out = await runMrz(await wide14(), new Date('2026-06-01T00:00:00Z'));
    expect(out.data?.valid).toBe(true);
    const want = passportMrz(hardPeople(DEV, 15)[14]!);
    const lines = out.data!.lines;
    expect(lines[0]).toBe(want[0]);
    // The sex (line 2, column 21) is under the finger: read as unread and doubted, never guessed.
    expect(lines[1]!.slice(0, 20) + lines[1]!.slice(21)).toBe(want[1]!.slice(0, 20) + want[1]!.slice(21));
    if (lines[1]![20] !== want[1]![20]) expect(out.doubts?.some((d) => d.field === 'sex')).toBe(true);
  });
});
