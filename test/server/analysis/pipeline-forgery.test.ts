import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../server/analysis/engines.js';
import { prepareInput } from '../../../server/analysis/input.js';
import { analyseDocument } from '../../../server/analysis/pipeline.js';
import { detectGridInconsistency } from '../../../server/analysis/stages/jpeg-grid.js';
import { HALVES } from '../../fixtures/hard/config.js';
import { hardPhoto, hardRetyped } from '../../fixtures/hard/set.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

describe('analyseDocument: a re-typed date of birth', { timeout: 300_000 }, () => {
  it('flags development person 0 re-typed, which the quantisation lattice misses, and not the genuine front', async () => {
    const forged = await hardRetyped(HALVES.dev, 0);
    // Its final save is coarse enough to hide the first one's lattice (docs/analysis.md, Forgeries).
    expect(detectGridInconsistency((await prepareInput(forged)).raster)?.suspicious).not.toBe(true);
    expect((await analyseDocument({ bytes: forged }, { today })).content?.photoshopped).toBe(true);
    const genuine = await analyseDocument({ bytes: await hardPhoto(HALVES.dev, 0, 'licence-front') }, { today });
    expect(genuine.content?.photoshopped).toBe(false);
    expect(genuine.timings['field_forgery']).toBeGreaterThanOrEqual(0);
  });
});

describe('analyseDocument: a re-typed date of birth the OCR garbles', { timeout: 300_000 }, () => {
  it('flags development person 21 re-typed by the paper under the value, lighter and texture-free; not its genuine front', async () => {
    // Straight on the card and read as garbage, the date had no number for the tilt and height
    // cues, and main accepted it; the card's line work stops at the forger's patch (field-texture.ts).
    const forged = await analyseDocument({ bytes: await hardRetyped(HALVES.dev, 21) }, { today });
    expect(forged.content?.photoshopped).toBe(true);
    const genuine = await analyseDocument({ bytes: await hardPhoto(HALVES.dev, 21, 'licence-front') }, { today });
    expect(genuine.content?.photoshopped).toBe(false);
  });
});

describe('analyseDocument: a page its EXIF says an editor saved', { timeout: 300_000 }, () => {
  it('is photoshopped without the paste, lattice and re-typed checks, which could only say so again', async () => {
    const edited = await sharp(await hardPhoto(HALVES.dev, 0, 'licence-front'))
      .withExif({ IFD0: { Software: 'Adobe Photoshop 25.0' } })
      .jpeg({ quality: 92 })
      .toBuffer();
    const out = await analyseDocument({ bytes: edited }, { today });
    expect(out.content?.photoshopped).toBe(true);
    expect(out.content?.document_processor['Date of Birth']).toBeDefined();
    // The screen check still runs: a screen is not an edit.
    expect(out.timings['recapture']).toBeGreaterThanOrEqual(0);
    for (const check of ['tamper', 'jpeg_grid', 'field_forgery']) expect(out.timings[check]).toBeUndefined();
  });
});
