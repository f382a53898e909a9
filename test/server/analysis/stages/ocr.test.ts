import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { toGrey } from '../../../../server/analysis/raster.js';
import { estimateSkew } from '../../../../server/analysis/stages/barcode.js';
import { runOcr } from '../../../../server/analysis/stages/ocr.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { flatDocument, IDENTITIES } from '../../../fixtures/set.js';
import { CAPTURES, PEOPLE } from '../captures.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

describe('runOcr', { timeout: 240_000 }, () => {
  it('reads the fields of a licence front uploaded at 900 px (enlarged for tesseract)', async () => {
    const read: string[] = [];
    for (const p of [1, 3]) {
      const input = await prepareInput(await CAPTURES.frontSmall(p));
      const fields = printedFields(await runOcr(toGrey(input.raster)), today);
      read.push(`${String(fields['Document Number']?.value)} ${String(fields['Date of Birth']?.value)}`);
    }
    expect(read).toEqual([`${PEOPLE[1]!.dlNumber} ${PEOPLE[1]!.dob}`, `${PEOPLE[3]!.dlNumber} ${PEOPLE[3]!.dob}`]);
  });
});

describe('runOcr on a rotated page', { timeout: 240_000 }, () => {
  it('reads a rotated development front whose opened corners used to leave it nothing to normalise', async () => {
    // Development front 4 (hard set): deskewed with white corners, tesseract read no field of it.
    const id = hardPeople(HALVES.dev, 5)[4]!;
    const input = await prepareInput(await hardPhoto(HALVES.dev, 4, 'licence-front'));
    const fields = printedFields(await runOcr(toGrey(input.raster)), today);
    expect(fields['Full Name']?.value).toBe(`${id.first} ${id.middle} ${id.last}`);
    expect(fields['Date of Birth']?.value).toBe(id.dob);
    expect(fields['Address City']?.value).toBe(id.city);
    expect(fields['Address Postal Code']?.value).toBe(id.zip);
  });
});

describe('runOcr on a level page', { timeout: 240_000 }, () => {
  it('reads it once: deskewed and as taken it is the same page (docs/performance.md)', async () => {
    const g = toGrey((await prepareInput(await flatDocument(2, 'licence-front'))).raster);
    // Under the rotation's threshold nothing is turned, so both reads would see the same pixels.
    expect(Math.abs(estimateSkew(g))).toBeLessThan(0.3);
    const deskewed = await runOcr(g);
    expect(await runOcr(g, false)).toBe(deskewed);
    expect(printedFields(deskewed, today)['Date of Birth']?.value).toBe(IDENTITIES[2]!.dob);
  });
});
