import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AnalysisInputError, InputErrorCode } from '../../../server/analysis/errors.js';
import { prepareInput } from '../../../server/analysis/input.js';
import { pdfWithJpeg } from '../../fixtures/pdf.js';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (err: unknown) {
    return err instanceof AnalysisInputError ? err.code : `other: ${String(err)}`;
  }
}

/** A 40x20 image whose left half is red and right half blue, to check orientation. */
function halves(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 20, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: 20, height: 20, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .jpeg()
    .toBuffer();
}

describe('prepareInput', () => {
  it('accepts a JPEG by content and reports jpg', async () => {
    const bytes = await halves();
    const out = await prepareInput(bytes);
    expect(out.mediaType).toBe('image/jpeg');
    expect(out.extension).toBe('jpg');
    expect([out.raster.width, out.raster.height]).toEqual([40, 20]);
  });

  it('refuses a text file whatever it is called', async () => {
    expect(await codeOf(prepareInput(Buffer.from('hello, this is not an image')))).toBe(InputErrorCode.UnsupportedType);
  });

  it('refuses a GIF (a real image, but not an accepted type)', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    expect(await codeOf(prepareInput(gif))).toBe(InputErrorCode.UnsupportedType);
  });

  it('refuses empty and too-large files', async () => {
    expect(await codeOf(prepareInput(Buffer.alloc(0)))).toBe(InputErrorCode.Empty);
    const big = Buffer.concat([await halves(), Buffer.alloc(10 * 1024 * 1024)]);
    expect(await codeOf(prepareInput(big))).toBe(InputErrorCode.TooLarge);
  });

  it('refuses a decompression bomb by pixel count', async () => {
    // 12000 x 12000 of one colour compresses to a few kB but is 144 MP.
    const bomb = await sharp({ create: { width: 12000, height: 12000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await codeOf(prepareInput(bomb))).toBe(InputErrorCode.TooManyPixels);
  });

  it('refuses a truncated JPEG as corrupt', async () => {
    const bytes = await halves();
    expect(await codeOf(prepareInput(bytes.subarray(0, 200)))).toBe(InputErrorCode.Corrupt);
  });

  it('applies the EXIF orientation, reads EXIF from the original and strips it from the derivative', async () => {
    // Orientation 6 = rotate 90° clockwise to display.
    const bytes = await sharp(await halves())
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Software: 'Adobe Photoshop 25.0', Make: 'Verity' } })
      .jpeg()
      .toBuffer();
    const out = await prepareInput(bytes);
    expect(out.exif?.['Software']).toBe('Adobe Photoshop 25.0');
    expect([out.raster.width, out.raster.height]).toEqual([20, 40]);
    // After a 90° clockwise turn the red (left) half is on top.
    const top = out.raster.data.subarray(0, 3);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    const derivedExif: unknown = await exifr.parse(out.derivative).catch(() => undefined);
    expect(derivedExif ?? null).toBeNull();
    const meta = await sharp(out.derivative).metadata();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([20, 40]);
  });

  it('renders page 1 of a PDF to an image', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const out = await prepareInput(pdfWithJpeg(jpeg, 300, 200));
    expect(out.mediaType).toBe('application/pdf');
    expect(out.extension).toBe('pdf');
    expect(Math.max(out.raster.width, out.raster.height)).toBe(2400);
    const mid = ((out.raster.height >> 1) * out.raster.width + (out.raster.width >> 1)) * 3;
    expect(Math.abs(out.raster.data[mid]! - 0x33)).toBeLessThan(12);
    expect(Math.abs(out.raster.data[mid + 2]! - 0xaa)).toBeLessThan(12);
  });

  it('refuses a PDF that cannot be parsed', async () => {
    expect(await codeOf(prepareInput(Buffer.from('%PDF-1.4\n1 0 obj garbage\n%%EOF\n')))).toBe(InputErrorCode.Corrupt);
  });
});
