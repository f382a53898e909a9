/**
 * Thin PDF417 rows read with their neighbours' codewords cancelled (pdf417-cancel.ts): on a
 * drawn three-row plane whose middle row carries more of its neighbours than of itself, and on
 * a development-variant thin back whose rows no one share unmixes.
 */
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey, type GreyPlane } from '../../../../server/analysis/raster.js';
import { decodePdf417 } from '../../../../server/analysis/stages/barcode.js';
import { readCancelled } from '../../../../server/analysis/stages/pdf417-cancel.js';
import type { Grid, Read } from '../../../../server/analysis/stages/pdf417-grid.js';
import { PDF417_PATTERNS } from '../../../../server/analysis/stages/pdf417-patterns.js';
import { aamvaPayload } from '../../../fixtures/aamva.js';
import { DEV_VARIANT } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';

/** Module width and row height of the drawn plane, in pixels. */
const MODULE = 4;
const ROW = 8;

/**
 * One codeword column (modules 34-50) of three rows, rows 0-2 with codewords `values` of
 * clusters 0-2. Each row's darkness is `own` of its own pattern plus `mix` of each neighbour's.
 */
function mixedPlane(values: readonly number[], own: number, mix: number): GreyPlane {
  const width = 80 * MODULE;
  const height = 3 * ROW;
  const bit = (r: number, m: number): number => (r < 0 || r > 2 || m < 34 || m >= 51 ? 0 : (PDF417_PATTERNS[r]![values[r]!]! >> (16 - (m - 34))) & 1);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const r = Math.floor(y / ROW);
    for (let x = 0; x < width; x++) {
      const m = Math.floor(x / MODULE);
      const dark = own * bit(r, m) + mix * (bit(r - 1, m) + bit(r + 1, m));
      data[y * width + x] = 255 - Math.round(200 * dark);
    }
  }
  return { data, width, height };
}

const read = (value: number): Read => ({ value, score: 1, margin: 0.5, shift: 0 });

describe('readCancelled', () => {
  it("reads a row whose band holds more of its neighbours' codewords than its own", () => {
    const values = [100, 200, 300];
    const g = mixedPlane(values, 0.3, 0.35);
    const grid: Grid = { columns: 1, sigma: 0.35, at: (m) => m * MODULE };
    const yAt = (row: number): number => row * ROW;
    // The rows above and below as read before (right); the middle row's own read unknown.
    const reads = readCancelled(g, grid, 3, yAt, [read(100), null, read(300)]);
    expect(reads[1]?.value).toBe(200);
    expect(reads[1]!.score).toBeGreaterThan(0.9);
  });
});

describe('the soft reader on thin rows, neighbours cancelled', { timeout: 300_000 }, () => {
  it('decodes development-variant thin back 25 (144/228 codewords right unmixed, 208/228 cancelled)', async () => {
    // Through the stage as the pipeline runs it: zxing's attempts, then the soft reader's.
    const hit = await decodePdf417(toGrey(await fitRaster((await prepareInput(await hardPhoto(DEV_VARIANT, 25, 'licence-back', 'thin'))).raster, 2000)));
    expect(hit).toMatchObject({ text: aamvaPayload(hardPeople(DEV_VARIANT, 26)[25]!), via: 'soft' });
  });
});
