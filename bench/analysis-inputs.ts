/**
 * The analysis benchmark's inputs (bench/analysis.ts, bench/_stages.ts): a 12 MP JPEG licence
 * front and back photographed at 2°, and a 1-page PDF passport; made once and cached.
 */
import sharp from 'sharp';
import { cached } from '../test/fixtures/cache.js';
import { photograph } from '../test/fixtures/documents.js';
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
