import { describe, expect, it } from 'vitest';
import { growQuad, paperOver, rectToQuad, warpQuad, type Quad } from '../../../server/analysis/warp.js';

const apply = (h: number[], x: number, y: number): [number, number] => {
  const d = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / d, (h[3]! * x + h[4]! * y + h[5]!) / d];
};

describe('rectToQuad / warpQuad', () => {
  const quad: Quad = [
    { x: 12, y: 30 },
    { x: 190, y: 10 },
    { x: 200, y: 90 },
    { x: 5, y: 70 },
  ];

  it('maps the rectangle corners onto the quad corners', () => {
    const h = rectToQuad(100, 40, quad)!;
    const corners: [number, number][] = [
      [0, 0],
      [100, 0],
      [100, 40],
      [0, 40],
    ];
    corners.forEach(([x, y], i) => {
      const [u, v] = apply(h, x, y);
      expect(u).toBeCloseTo(quad[i]!.x, 6);
      expect(v).toBeCloseTo(quad[i]!.y, 6);
    });
  });

  it('refuses a degenerate quad (all corners on one line)', () => {
    const line: Quad = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 20, y: 0 },
      { x: 30, y: 0 },
    ];
    expect(rectToQuad(10, 10, line)).toBeNull();
  });

  it('straightens a slanted dark stripe into an upright one', () => {
    // A 200x100 image with a dark band between the lines y = 20 + x/10 and y = 40 + x/10.
    const width = 200;
    const height = 100;
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (y >= 20 + x / 10 && y < 40 + x / 10) data[y * width + x] = 0;
    const band: Quad = [
      { x: 0, y: 20 },
      { x: 200, y: 40 },
      { x: 200, y: 60 },
      { x: 0, y: 40 },
    ];
    const out = warpQuad({ data, width, height }, growQuad(band, 0, 0.5), 100, 40)!;
    // Grown by half its height each side: the band fills the middle half of every column.
    for (const x of [5, 50, 95]) {
      expect(out.data[5 * 100 + x]).toBeGreaterThan(200);
      expect(out.data[20 * 100 + x]).toBeLessThan(50);
      expect(out.data[35 * 100 + x]).toBeGreaterThan(200);
    }
  });
});

describe('paperOver', () => {
  it('sets a slanted quad to the grey round its edges and leaves the rest of the page alone', () => {
    // A page of grey 200 with a black block in it; the quad covers the block and some paper.
    const width = 60;
    const height = 40;
    const data = new Uint8Array(width * height).fill(200);
    for (let y = 15; y < 25; y++) for (let x = 20; x < 40; x++) data[y * width + x] = 0;
    data[2 * width + 2] = 10; // ink outside the quad
    const quad: Quad = [
      { x: 15, y: 12 },
      { x: 45, y: 10 },
      { x: 46, y: 28 },
      { x: 14, y: 30 },
    ];
    const out = paperOver({ data, width, height }, quad);
    for (let y = 15; y < 25; y++) for (let x = 20; x < 40; x++) expect(out.data[y * width + x]).toBe(200);
    expect(out.data[2 * width + 2]).toBe(10);
    // The input is not changed.
    expect(data[20 * width + 30]).toBe(0);
  });
});
