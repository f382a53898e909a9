import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnalysisInputError, InputErrorCode } from '../../../server/analysis/errors.js';
import { DEFAULT_INPUT_LIMITS, prepareInput } from '../../../server/analysis/input.js';
import { analyseDocument } from '../../../server/analysis/pipeline.js';
import { acceptUpload } from '../../../server/uploads/accept-upload.js';
import { buildPdf, jpegDeclaring, jpegSignatureThenHtml, pdfBomb, pdfWithPages, pngDeclaring } from '../../fixtures/hostile-uploads.js';
import { pdfWithJpeg } from '../../fixtures/pdf.js';

const ALL = ['image/jpeg', 'image/png', 'application/pdf'] as const;

let bomb: Buffer;
beforeAll(async () => {
  bomb = await pdfBomb();
}, 60_000);

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (err: unknown) {
    if (err instanceof AnalysisInputError) return err.code;
    throw err;
  }
}

describe('acceptUpload', () => {
  it('accepts real JPEG, PNG and PDF files and reports their size from the header', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#8899aa' } })
      .jpeg()
      .toBuffer();
    const png = await sharp(jpeg).png().toBuffer();
    expect(await acceptUpload(jpeg, ALL)).toMatchObject({ mediaType: 'image/jpeg', extension: 'jpg', width: 64, height: 40 });
    expect(await acceptUpload(png, ALL)).toMatchObject({ mediaType: 'image/png', extension: 'png', width: 64, height: 40 });
    expect(await acceptUpload(pdfWithJpeg(jpeg, 64, 40), ALL)).toMatchObject({ mediaType: 'application/pdf', pageCount: 1, width: 612 });
  });

  it('refuses image headers that declare too many pixels, before any decoding', async () => {
    expect(await refusal(acceptUpload(pngDeclaring(30_000, 30_000), ALL))).toBe(InputErrorCode.TooManyPixels);
    expect(await refusal(acceptUpload(jpegDeclaring(65_000, 65_000), ALL))).toBe(InputErrorCode.TooManyPixels);
    // Within the pixel cap but not an image shape.
    expect(await refusal(acceptUpload(pngDeclaring(40_000, 10), ALL))).toBe(InputErrorCode.TooManyPixels);
  });

  it('refuses a file whose signature lies about its content', async () => {
    expect(await refusal(acceptUpload(jpegSignatureThenHtml(), ALL))).toBe(InputErrorCode.Corrupt);
    const pngThenHtml = Buffer.concat([pngDeclaring(10, 10).subarray(0, 8), Buffer.from('<html></html>')]);
    expect([InputErrorCode.Corrupt, InputErrorCode.UnsupportedType]).toContain(await refusal(acceptUpload(pngThenHtml, ALL)));
    expect(await refusal(acceptUpload(Buffer.from('<html>%PDF-1.4</html>'), ALL))).toBe(InputErrorCode.UnsupportedType);
    // Type lists are per route: a PDF is not a selfie frame.
    expect(await refusal(acceptUpload(pdfWithPages(1), ['image/jpeg', 'image/png']))).toBe(InputErrorCode.UnsupportedType);
  });

  it('refuses 10,485,760 bytes and accepts one byte less', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const padded = (size: number) => Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
    expect(await refusal(acceptUpload(padded(10 * 1024 * 1024), ALL))).toBe(InputErrorCode.TooLarge);
    expect(await refusal(acceptUpload(padded(10 * 1024 * 1024 - 1), ALL))).toBe('accepted');
  });

  it('refuses a 1 MB PDF whose content stream inflates to 1 GiB, without inflating it all', async () => {
    expect(bomb.length).toBeLessThan(1.1 * 2 ** 20);
    const before = process.memoryUsage().rss;
    expect(await refusal(acceptUpload(bomb, ALL))).toBe(InputErrorCode.PdfStreamTooLarge);
    // Counted, never kept: memory grows by far less than the 64 MB a stream may inflate to.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 2 ** 20);
  });

  it('refuses a JPEG inside a PDF that declares too many pixels', async () => {
    const pdf = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> >>',
      {
        dict: '/Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode',
        data: jpegDeclaring(60_000, 60_000),
      },
    ]);
    expect(await refusal(acceptUpload(pdf, ALL))).toBe(InputErrorCode.TooManyPixels);
  });

  it('refuses PDFs with too many pages, pages too large, encryption or unmeasured compression', async () => {
    expect(await refusal(acceptUpload(pdfWithPages(21), ALL))).toBe(InputErrorCode.PdfTooManyPages);
    expect(await refusal(acceptUpload(pdfWithPages(20), ALL))).toBe('accepted');
    expect(await refusal(acceptUpload(pdfWithPages(1, 14_400, 14_400), ALL))).toBe(InputErrorCode.PdfPageTooLarge);
    const lzw = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      { dict: '/Filter /LZWDecode', data: Buffer.from([0x80, 0x0b, 0x60, 0x50]) },
    ]);
    expect(await refusal(acceptUpload(lzw, ALL))).toBe(InputErrorCode.PdfUnsupported);
    const encrypted = Buffer.from(pdfWithPages(1).toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encrypt 9 0 R'), 'latin1');
    expect(await refusal(acceptUpload(encrypted, ALL))).toBe(InputErrorCode.PdfUnsupported);
  });
});

describe('the PDF renderer', () => {
  it('stops a bomb that got past the door in its own memory-bounded process, as a failed input', async () => {
    // Door limits raised so the bomb reaches the renderer, as one the scan could not see would.
    const limits = { ...DEFAULT_INPUT_LIMITS, maxPdfStreamBytes: 2 ** 31, maxPdfInflatedBytes: 2 ** 31, pdfMemoryBytes: 512 * 2 ** 20 };
    const before = process.memoryUsage().rss;
    expect(await refusal(prepareInput(bomb, limits))).toBe(InputErrorCode.PdfLimitExceeded);
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * 2 ** 20);
  }, 60_000);

  it('fails the analysis of a bomb already in storage (uploaded before the door) with a readable reason', async () => {
    const result = await analyseDocument({ bytes: bomb, originalName: 'old.pdf' });
    expect(result.status).toBe('Failed');
    expect(result.failure_code).toBe(InputErrorCode.PdfStreamTooLarge);
    expect(result.reason).toMatch(/compressed content is too large/);
  });

  it('kills a render that takes longer than its time limit', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    expect(await refusal(prepareInput(pdfWithJpeg(jpeg, 300, 200), { ...DEFAULT_INPUT_LIMITS, pdfTimeoutMs: 50 }))).toBe(InputErrorCode.PdfLimitExceeded);
  });
});
