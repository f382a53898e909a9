/**
 * A page is searched only for the codes it can hold (docs/performance.md): a licence front has no
 * PDF417 and no MRZ, and those searches cost about a second of CPU on it. The skips must never
 * cost a back its barcode or a passport its MRZ. What ran shows in the timings the job reports:
 * `barcode` for the PDF417 search, `mrz` for the MRZ's located lines, `mrz_fallback` for its
 * smoothed and row-by-row fallbacks.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../server/analysis/engines.js';
import { analyseDocument } from '../../../server/analysis/pipeline.js';
import { showsLicenceFront } from '../../../server/analysis/stages/mrz-page.js';
import { pdfWithJpeg } from '../../fixtures/pdf.js';
import { documentPhoto, flatDocument, IDENTITIES } from '../../fixtures/set.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

describe('searches for a PDF417 and an MRZ', { timeout: 300_000 }, () => {
  it('skips both on a licence front, and still reads its printed fields', async () => {
    const out = await analyseDocument({ bytes: await documentPhoto(2, 'licence-front', 'rotated') }, { today });
    expect(out.status).toBe('Success');
    expect(out.doc_type).toBe('driving_licence');
    expect(out.content?.document_processor['Date of Birth']?.value).toBe(IDENTITIES[2]!.dob);
    expect(out.evidence?.face).toBe(true);
    expect(out.timings['barcode']).toBeUndefined();
    expect(out.timings['mrz_fallback']).toBeUndefined();
  });

  it('still searches and decodes a licence back', async () => {
    const out = await analyseDocument({ bytes: await documentPhoto(2, 'licence-back', 'rotated') }, { today });
    expect(out.evidence?.barcode).toBe(true);
    expect(out.timings['barcode']).toBeGreaterThan(0);
    expect(out.content?.document_processor['Document Number']?.value).toBe(IDENTITIES[2]!.dlNumber);
  });

  it('still searches and reads the MRZ of a passport, and no PDF417 on its page', async () => {
    const jpeg = await sharp(await flatDocument(2, 'passport'))
      .jpeg({ quality: 90 })
      .toBuffer();
    const out = await analyseDocument({ bytes: pdfWithJpeg(jpeg, 1476, 1039) }, { today });
    expect(out.evidence?.mrz).toBe('valid');
    expect(out.timings['mrz']).toBeGreaterThan(0);
    expect(out.timings['barcode']).toBeUndefined();
    expect(out.doc_type).toBe('passport');
  });

  it('takes a page for a licence front by its text only when nothing on it reads like an MRZ', () => {
    expect(showsLicenceFront('CALIFORNIA\nDRIVER LICENSE\nDOB 01/25/1990')).toBe(true);
    expect(showsLicenceFront('DRIVER LICENSE\nP<USADOE<<JOHN<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<')).toBe(false);
    // An MRZ line whose fillers the text OCR read as letters is still one unbroken run.
    expect(showsLicenceFront('DRIVER LICENSE\nIDUSA1234567897KKKKKKKKKKKKKKK')).toBe(false);
    expect(showsLicenceFront('PASSPORT\nDRIVER LICENSE')).toBe(false);
    expect(showsLicenceFront('IDENTITY CARD')).toBe(false);
  });
});
