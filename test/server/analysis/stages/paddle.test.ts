import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../../server/analysis/engines.js';
import { analyseDocument } from '../../../../server/analysis/index.js';
import { AnalysisPool } from '../../../../server/analysis/pool.js';
import { prepareInput } from '../../../../server/analysis/input.js';
import { fitRaster, toGrey } from '../../../../server/analysis/raster.js';
import { runOcr, uprightPage } from '../../../../server/analysis/stages/ocr.js';
import { paddleOcr } from '../../../../server/analysis/stages/paddle.js';
import { boxesToLines } from '../../../../server/analysis/stages/paddle-lines.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';
import { HALVES } from '../../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../../fixtures/hard/set.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

const box = (text: string, x: number, y: number, w: number, h: number): { text: string; confidence: number; x: number; y: number; w: number; h: number } => ({
  text,
  confidence: 90,
  x,
  y,
  w,
  h,
});

describe('boxesToLines', () => {
  it('pairs a label printed above its value, and one printed before it, by geometry', () => {
    const ocr = boxesToLines([
      box('DOB', 40, 290, 30, 14),
      box('EXP', 280, 290, 30, 14),
      box('04/04/1973', 40, 306, 140, 28),
      box('04/04/2028', 280, 306, 130, 26),
      box('SEX', 40, 440, 28, 14),
      box('F', 40, 456, 14, 22),
      box('CLASS', 380, 452, 50, 18),
      box('C', 440, 452, 16, 22),
    ]);
    const fields = printedFields(ocr, today);
    expect(fields['Date of Birth']?.value).toBe('1973-04-04');
    expect(fields['Date of Expiry']?.value).toBe('2028-04-04');
    expect(fields['Sex']?.value).toBe('F');
    expect(fields['DL Class']?.value).toBe('C');
  });

  it('keeps boxes of one row in one line, left to right', () => {
    const ocr = boxesToLines([box('IVANOV', 340, 210, 100, 34), box('7220 ELM STREET', 340, 266, 170, 36), box('SACRAMENTO, CA 95835', 340, 290, 220, 36)]);
    expect(ocr.lines.map((l) => l.text)).toEqual(['IVANOV', '7220 ELM STREET', 'SACRAMENTO, CA 95835']);
  });
});

describe('PaddleOCR fallback', { timeout: 600_000 }, () => {
  // Development front 0 of the hard set: a 904 px upload, blurred and halftoned. Tesseract
  // reads neither its document number nor its street (it returned 5 of 16 fields).
  const id = hardPeople(HALVES.dev, 1)[0]!;
  const page = async (): Promise<ReturnType<typeof toGrey>> =>
    toGrey(await fitRaster((await prepareInput(await hardPhoto(HALVES.dev, 0, 'licence-front'))).raster, 2000));

  it('reads the fields of a front tesseract cannot read', async () => {
    const g = await page();
    const tess = printedFields(await runOcr(g), today);
    const paddle = printedFields(await paddleOcr(await uprightPage(g)), today);
    const exact = (f: typeof tess): string[] =>
      (
        [
          ['Document Number', id.dlNumber],
          ['Address Street', id.street],
          ['Address City', id.city],
          ['Date of Birth', id.dob],
          ['Date of Expiry', id.expires],
        ] as const
      )
        .filter(([k, v]) => f[k]?.value === v)
        .map(([k]) => k);
    expect(exact(tess)).not.toEqual(['Document Number', 'Address Street', 'Address City', 'Date of Birth', 'Date of Expiry']);
    expect(exact(paddle)).toEqual(['Document Number', 'Address Street', 'Address City', 'Date of Birth', 'Date of Expiry']);
  });

  it('is what the document pipeline falls back on', async () => {
    const a = await analyseDocument({ bytes: await hardPhoto(HALVES.dev, 0, 'licence-front') }, { today });
    const dp = a.content?.document_processor ?? {};
    expect(a.status).toBe('Success');
    expect(a.timings?.['ocr_paddle']).toBeGreaterThan(0);
    // Each field from the reading that passes its rules (reading-choice.ts): tesseract read this
    // front's issue date as its expiry and its document number wrong; PaddleOCR read both right.
    expect(dp['Document Number']?.value).toBe(id.dlNumber);
    expect(dp['Date of Expiry']?.value).toBe(id.expires);
    expect(dp['Address Street']?.value).toBe(id.street);
    expect(dp['Address City']?.value).toBe(id.city);
    expect(dp['Date of Birth']?.value).toBe(id.dob);
  });

  it('types a front by every reading: a header only PaddleOCR read, without its spaces, makes it a driving licence', async () => {
    // dev-variant 3: motion-blurred, 780 px; tesseract garbles the white-on-olive header
    // ("LBA IVI ICHNSS"), PaddleOCR reads "USADRIVERLICENSE". Typed on tesseract's text alone it was `other`.
    const a = await analyseDocument({ bytes: await hardPhoto(HALVES['dev-variant'], 3, 'licence-front') }, { today });
    expect(a.timings?.['ocr_paddle']).toBeGreaterThan(0);
    expect(a.content?.doc_type).toBe('driving_licence');
    expect(a.content?.doc_type_id).toBe(3);
  });

  it('runs in a worker thread of the analysis pool', async () => {
    // onnxruntime-node's addon has to load in a worker thread too: that is where jobs run.
    const pool = new AnalysisPool({ maxThreads: 1 });
    try {
      const a = await pool.analyseDocument({ bytes: await hardPhoto(HALVES.dev, 0, 'licence-front') }, { today });
      expect(a.timings['ocr_paddle']).toBeGreaterThan(0);
      expect(a.content?.document_processor['Date of Birth']?.value).toBe(id.dob);
    } finally {
      await pool.close();
    }
  });
});
