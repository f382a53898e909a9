/**
 * The analysis benchmark's inputs (bench/analysis.ts, bench/_stages.ts): a 12 MP JPEG licence
 * front and back photographed at 2°, and a 1-page PDF passport; made once and cached. And the
 * harder captures of the development half, which take the pipeline's longer paths.
 */
import sharp from 'sharp';
import { cached } from '../test/fixtures/cache.js';
import { photograph } from '../test/fixtures/documents.js';
import { backStressPhoto } from '../test/fixtures/hard/back-stress.js';
import { DEV } from '../test/fixtures/hard/config.js';
import { hardPhoto } from '../test/fixtures/hard/set.js';
import { pdfWithJpeg } from '../test/fixtures/pdf.js';
import { flatDocument } from '../test/fixtures/set.js';

export interface BenchInputs {
  front12: Buffer;
  back12: Buffer;
  passportPdf: Buffer;
}

export async function benchInputs(): Promise<BenchInputs> {
  const front12 = await cached('bench/licence-front-12mp.jpg', async () =>
    photograph(await flatDocument(0, 'licence-front'), { width: 4000, height: 3000, angle: 2, quality: 90 }),
  );
  const back12 = await cached('bench/licence-back-12mp.jpg', async () =>
    photograph(await flatDocument(0, 'licence-back'), { width: 4000, height: 3000, angle: 2, quality: 90 }),
  );
  const passportJpeg = await sharp(await flatDocument(1, 'passport'))
    .jpeg({ quality: 90 })
    .toBuffer();
  return { front12, back12, passportPdf: pdfWithJpeg(passportJpeg, 1476, 1039) };
}

/** A harder capture: what it is, and the stage its path is known by (checked by the bench: a generator change could move it off that path). */
export interface HardBenchInput {
  readonly name: string;
  readonly bytes: Buffer;
  /** A timing the pipeline reports only on that path. */
  readonly path: string;
}

/**
 * Development-half captures (720-1080 px phone shots, test/fixtures/hard): a front tesseract
 * reads short, so PaddleOCR reads it too; a back under the stress sweep's `all` conditions whose
 * PDF417 no reader decodes (`tilt` 2 until 2026-11-28, now decoded) (every attempt, then the as-taken OCR and PaddleOCR); a passport whose
 * MRZ lines the first search misses (the fallbacks run).
 */
export async function hardBenchInputs(): Promise<HardBenchInput[]> {
  return [
    { name: 'dev front 0, PaddleOCR fallback', bytes: await hardPhoto(DEV, 0, 'licence-front'), path: 'ocr_paddle' },
    { name: 'dev back 6 (stress: all), not decoded', bytes: await backStressPhoto(6, 'all'), path: 'ocr_unrotated' },
    { name: 'dev passport 3, MRZ fallback', bytes: await hardPhoto(DEV, 3, 'passport'), path: 'mrz_fallback' },
  ];
}
