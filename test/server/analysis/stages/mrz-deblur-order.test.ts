/**
 * The MRZ deconvolution (mrz-deblur.ts) costs ~1.1 s of CPU: a zone found on the smoothed page
 * that reads no valid MRZ is deconvolved only after the page's lowest rows were read and did not
 * read valid either (docs/performance.md, "The bench on a quiet machine"). The deconvolution is
 * wrapped to count its calls; what it does is unchanged.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { analyseDocument } from '../../../../server/analysis/pipeline.js';
import { deblurZone } from '../../../../server/analysis/stages/mrz-deblur.js';
import { pdfWithJpeg } from '../../../fixtures/pdf.js';
import { flatDocument } from '../../../fixtures/set.js';

vi.mock('../../../../server/analysis/stages/mrz-deblur.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../server/analysis/stages/mrz-deblur.js')>();
  return { ...real, deblurZone: vi.fn(real.deblurZone) };
});

afterAll(closeEngines);

describe('the MRZ deconvolution after the fallbacks', { timeout: 300_000 }, () => {
  it('is not run on a passport whose lowest rows read a valid MRZ', async () => {
    // The benchmark's PDF passport: its zone is not located on the page as given, the smoothed
    // page's zone reads no valid MRZ, and the lowest rows read it valid.
    const jpeg = await sharp(await flatDocument(1, 'passport'))
      .jpeg({ quality: 90 })
      .toBuffer();
    const a = await analyseDocument({ bytes: pdfWithJpeg(jpeg, 1476, 1039) }, { today: new Date('2026-11-28T00:00:00Z') });
    expect(a.status).toBe('Success');
    expect(a.evidence?.mrz).toBe('valid');
    expect(a.timings['mrz_fallback']).toBeGreaterThan(0);
    expect(vi.mocked(deblurZone)).not.toHaveBeenCalled();
  });
});
