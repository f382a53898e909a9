/**
 * A contested name letter judged by the zone's own print (mrz-glyph.ts, issue 20): dev-variant
 * passport 12 (MARTINEZ) was accepted as RARTINEZ, its M read M by the binarised OCR-B pass and
 * R by the grey and line passes. The passes below are those three as main read them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, stretchGrey, toGrey } from '../../../../server/analysis/raster.js';
import { locateMrz } from '../../../../server/analysis/stages/mrz-locate.js';
import { glyphDoubts, zoneCells } from '../../../../server/analysis/stages/mrz-glyph.js';
import { MrzDoubtKind } from '../../../../server/analysis/stages/mrz-doubt.js';
import { runMrz } from '../../../../server/analysis/stages/mrz.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';
import { passportMrz } from '../../../fixtures/mrz.js';

const today = new Date('2026-06-01T00:00:00Z');
const variant = HALVES['dev-variant']!;
const page12 = async () => toGrey(await fitRaster((await prepareInput(await hardPhoto(variant, 12, 'passport'))).raster, 2000));

const PASSES_12 = [
  ['P<USAMARTINEZ<<PIOTR<Q0SCAR8<NXNNMNX<NNSN<NN', 'X013939084USA99QT021M2907022<N<NNNX<NN<N4<08'],
  ['P<USARARTINE2<<PIOTR<OSCAR<<<<<<<<<<<<<<<<<<', 'X013939084USA9907021M2907Q22<<<<<<<<<<<<<<06'],
  ['P<USARARTINEZ<<PIOTR<OSCAR<<<<<<<<<<<<<<<<<<', 'X013939084USA9907021M2907022<<<<<<<<<<<<<<06'],
];
const TAKEN = ['P<USARARTINEZ<<PIOTR<OSCAR<<<<<<<<<<<<<<<<<<', 'X013939084USA9907021M2907022<<<<<<<<<<<<<<06'];
const TRUE = ['P<USAMARTINEZ<<PIOTR<OSCAR<<<<<<<<<<<<<<<<<<', 'X013939084USA9907021M2907022<<<<<<<<<<<<<<06'];

afterAll(closeEngines);

describe('name letters judged by the zone’s own print', { timeout: 240_000 }, () => {
  it('cuts each line of a located zone in as many cells as it has characters, left to right', async () => {
    const zone = locateMrz(stretchGrey(await page12()))[0]!;
    const cells = zoneCells(zone.plane, TRUE, zone.lineHeight);
    for (const line of cells) {
      expect(line).toHaveLength(44);
      for (let k = 1; k < 44; k++) expect(line![k]!.x0).toBeGreaterThan(line![k - 1]!.x0);
    }
  });

  it('doubts an R the passes outvoted an M with, when the glyph is like the zone’s other M', async () => {
    const zone = locateMrz(stretchGrey(await page12()))[0]!;
    const doubts = glyphDoubts(zone.plane, zone.lineHeight, TAKEN, PASSES_12);
    expect(doubts.map((d) => [d.line, d.column, d.chosen, d.likeness])).toEqual([[0, 5, 'R', 'M']]);
  });

  it('does not doubt the M itself, the same glyph with the same passes (guard)', async () => {
    const zone = locateMrz(stretchGrey(await page12()))[0]!;
    expect(glyphDoubts(zone.plane, zone.lineHeight, TRUE, PASSES_12)).toEqual([]);
  });

  it('leaves a letter no pass contested alone (guard)', async () => {
    const zone = locateMrz(stretchGrey(await page12()))[0]!;
    expect(glyphDoubts(zone.plane, zone.lineHeight, TRUE, [TRUE, TRUE])).toEqual([]);
  });

  it('no longer passes that capture with a wrong name: read exactly, or the letter doubted', async () => {
    const out = await runMrz(await page12(), today);
    const truth = passportMrz(hardPeople(variant, 13)[12]!);
    expect(out.data?.valid).toBe(true);
    const exact = JSON.stringify(out.data?.lines) === JSON.stringify(truth);
    expect(exact || (out.doubts ?? []).some((d) => d.kind === MrzDoubtKind.GlyphUnlike && d.column === 5)).toBe(true);
  });
});
