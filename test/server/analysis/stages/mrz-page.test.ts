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
import { readPageMrz } from '../../../../server/analysis/stages/mrz-page.js';
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
});
