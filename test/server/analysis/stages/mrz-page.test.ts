/**
 * Which page the MRZ is searched on (mrz-page.ts). Development passport 16 with its MRZ set wide
 * (test/fixtures/hard/stress.ts): the lines end close to the page's edge and the PDF417 locator
 * takes them for a symbol, which the search then papered over, leaving the passport unread.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { runBarcode } from '../../../../server/analysis/stages/barcode.js';
import { dropFalseMrz, readPageMrz } from '../../../../server/analysis/stages/mrz-page.js';
import type { MrzResult } from '../../../../server/analysis/stages/mrz.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';
import { stressedPassport } from '../../../fixtures/hard/stress.js';
import { passportMrz } from '../../../fixtures/mrz.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

const steps = (): { names: string[]; timed: <T>(name: string, fn: () => Promise<T>) => Promise<T> } => {
  const names: string[] = [];
  return { names, timed: (name, fn) => (names.push(name), fn()) };
};

describe('readPageMrz', { timeout: 240_000 }, () => {
  it('reads the page as it is when the located "symbol" was the MRZ itself (wide passport 16)', async () => {
    const grey = toGrey(await fitRaster((await prepareInput(await stressedPassport(16, 'wide'))).raster, 2000));
    const { symbol, aamva } = await runBarcode(grey, today);
    expect(symbol).toBeTruthy();
    expect(aamva).toBeFalsy();
    const t = steps();
    const read = await readPageMrz(grey, today, { symbol, ocrText: async () => 'P<USAJONES<<ELLA<SOPHIA<<<<<<<<<<<<', timed: t.timed });
    expect(read.data?.valid).toBe(true);
    expect(read.data?.lines).toEqual(passportMrz(hardPeople(DEV, 17)[16]!));
    expect(t.names).toContain('mrz_unpapered');
  });

  it('does not search a page with an unread symbol whose text shows no MRZ (a licence back)', async () => {
    const grey = { data: new Uint8Array(64 * 64).fill(255), width: 64, height: 64 };
    const t = steps();
    const symbol = [
      { x: 1, y: 1 },
      { x: 30, y: 1 },
      { x: 30, y: 20 },
      { x: 1, y: 20 },
    ] as const;
    const read = await readPageMrz(grey, today, { symbol, ocrText: async () => 'DRIVER LICENSE CLASS C', timed: t.timed });
    expect(read).toEqual({ found: false, fields: {} });
    expect(t.names).toEqual([]);
  });
  it('skips the fallbacks on a front whose heading the OCR garbled but whose header names a US jurisdiction', async () => {
    // Dim development-variant front 16: tesseract's reading (the heading "DRIVER LICENSI"). The
    // fallback's answer there was dropped all the same (dropFalseMrz), after 16-27 s under load.
    const grey = { data: new Uint8Array(64 * 64).fill(255), width: 64, height: 64 };
    const front = steps();
    await readPageMrz(grey, today, { symbol: null, ocrText: async () => 'MASSACHUSETTS\nELLA JONES\nS15801115\nDRIVER LICENSI', timed: front.timed });
    expect(front.names).toEqual(['mrz']);
    // A passport keyword, MRZ-like text, or no jurisdiction in the header: the fallbacks run.
    for (const text of ['MASSACHUSETTS\nPASSPORT\nS15801115', 'MASSACHUSETTS\nP<USAJONES<<ELLA<<<<<<', 'ELLA JONES\nS15801115\nMASSACHUSETTS']) {
      const t = steps();
      await readPageMrz(grey, today, { symbol: null, ocrText: async () => text, timed: t.timed });
      expect(t.names).toEqual(['mrz', 'mrz_fallback']);
    }
  });
});

describe('dropFalseMrz', () => {
  // What the lowest-rows fallback read on dim development-variant front 16: its row of dates
  // (05/10/1956 05/10/2023 11/28/2019) taken for a TD3's second line, every check failing.
  const failed: MrzResult = {
    found: true,
    fields: { 'Document Number': { value: '03101935C', confidence: 50 } },
    data: {
      format: 'TD3',
      valid: false,
      lines: ['OBBDI4IIOIOIEB4INI9OBOI4I4EJXBG994<OBOOBBIB<', '03101935C043I0720231<72R2019<<<<<<<<<<<<<<<<'],
      fields: { documentNumber: '03101935C' },
      failing_checks: ['Document code', 'Last name', 'Birth date check digit', 'Composite check digit'],
      corrections: [],
    },
  };
  const nothing = { found: false, fields: {} };
  // The front's readings: tesseract garbled the heading, PaddleOCR ran its words together.
  const tesseract = 'MASSACHUSETTS\nELLA JONES\nS15801115\nDRIVER LICENSI';
  const paddle = 'MASSACHUSETTS DRIVERLRGENSR\nS15801115\nJONES\n03/10/1056 05/10/2023 11/28-20 19';

  it('drops a failed MRZ on a page whose readings show a licence front', () => {
    expect(dropFalseMrz(failed, [tesseract, paddle], true)).toEqual(nothing);
    expect(dropFalseMrz(failed, ['CALIFORNIA DRIVER LICENSE\nDL R7987555'], false)).toEqual(nothing);
  });

  it('keeps it when nothing says licence front, or something says passport or MRZ', () => {
    expect(dropFalseMrz(failed, [tesseract, paddle], false)).toBe(failed);
    expect(dropFalseMrz(failed, ['PASSPORT\nDRIVER LICENSE'], true)).toBe(failed);
    expect(dropFalseMrz(failed, ['DRIVER LICENSE\nP<USAJONES<<ELLA<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<'], true)).toBe(failed);
    expect(dropFalseMrz(failed, ['MASSACHUSETTS\nIDENTITY CARD'], true)).toBe(failed);
  });

  it('drops a failed reading with neither a document code nor an issuing state, whatever the text', () => {
    // What the lowest-rows fallback read on development stress back columns-small 5 (thin rows):
    // its unlocated PDF417's rows, read as two MRZ-long lines.
    const texture: MrzResult = {
      found: true,
      fields: {},
      data: {
        format: 'TD3',
        valid: false,
        lines: ['ECHM4Z7ZOZIYIOOIB4ZO<ZO4IO4Z<Z4ZOZO<OO9PZ9O<', '880R<4<5NCEBS1R0M558<10048<<<<<<<<<<<<<<<<<<'],
        fields: { documentNumber: '880R 4 5N' },
        failing_checks: ['Document code', 'Issuing state', 'Last name', 'First name', 'Document number check digit', 'Nationality', 'Birth date'],
        corrections: [],
      },
    };
    expect(dropFalseMrz(texture, [''], false)).toEqual(nothing);
    expect(dropFalseMrz(texture, ['PASSPORT'], false)).toEqual(nothing);
    // A passport read with its first line's structure and a check failing is still a failed MRZ.
    const onlyDigits: MrzResult = { ...texture, data: { ...texture.data!, failing_checks: ['Birth date check digit', 'Composite check digit'] } };
    expect(dropFalseMrz(onlyDigits, ['PASSPORT'], false)).toBe(onlyDigits);
    const codeOnly: MrzResult = { ...texture, data: { ...texture.data!, failing_checks: ['Document code', 'Composite check digit'] } };
    expect(dropFalseMrz(codeOnly, ['PASSPORT'], false)).toBe(codeOnly);
  });

  it('keeps a valid MRZ whatever the text', () => {
    const valid: MrzResult = { ...failed, data: { ...failed.data!, valid: true, failing_checks: [] } };
    expect(dropFalseMrz(valid, ['CALIFORNIA DRIVER LICENSE'], true)).toBe(valid);
  });
});
