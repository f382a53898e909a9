import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { laplacianVariance, rasterFrom, toGrey } from '../../../server/analysis/raster.js';

describe('laplacianVariance', () => {
  it('is high for a sharp checkerboard and drops after blurring it', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="#000"/><rect x="10" y="10" width="10" height="10" fill="#000"/></pattern></defs><rect width="200" height="200" fill="#fff"/><rect width="200" height="200" fill="url(#p)"/></svg>`;
    const sharpImg = toGrey(await rasterFrom(sharp(Buffer.from(svg))));
    const blurred = toGrey(await rasterFrom(sharp(Buffer.from(svg)).blur(4)));
    expect(laplacianVariance(sharpImg)).toBeGreaterThan(20 * laplacianVariance(blurred));
  });

  it('is zero for a flat image', () => {
    expect(laplacianVariance({ data: new Uint8Array(100).fill(7), width: 10, height: 10 })).toBe(0);
  });
});
