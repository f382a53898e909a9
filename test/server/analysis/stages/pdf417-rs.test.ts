/**
 * PDF417's codeword patterns and its Reed-Solomon code over GF(929) (issue 20: the groundwork of
 * a reader that names the codewords it is unsure of), checked against symbols bwip-js draws.
 */
import { describe, expect, it } from 'vitest';
import { PDF417_PATTERNS } from '../../../../server/analysis/stages/pdf417-patterns.js';
import { correctErasures, ecCodewords } from '../../../../server/analysis/stages/pdf417-rs.js';
import { drawnSymbolCodewords } from '../../../helpers/pdf417-symbol.js';

/** The bar and space widths of a 17-module pattern. */
function widths(pattern: number): number[] {
  const bits = pattern.toString(2).padStart(17, '0');
  const out: number[] = [];
  let run = 1;
  for (let i = 1; i <= bits.length; i++) {
    if (bits[i] === bits[i - 1]) run++;
    else {
      out.push(run);
      run = 1;
    }
  }
  return out;
}

/** The codewords of a symbol bwip-js draws from raw codewords, read back through the pattern table. */
function drawnCodewords(data: readonly number[], columns: number, eclevel: number): { word: number[]; rows: number } {
  const text = data.map((v) => `^${String(v).padStart(3, '0')}`).join('');
  return drawnSymbolCodewords({ text, raw: true, columns, eclevel });
}

const DATA = Array.from({ length: 44 }, (_, i) => (i * 37 + 11) % 900);
const K = 16; // error-correction level 3

describe('PDF417 codeword patterns', () => {
  it('holds 929 distinct patterns per cluster, each 4 bars and 4 spaces over 17 modules in its cluster', () => {
    PDF417_PATTERNS.forEach((cluster, q) => {
      expect(new Set(cluster).size).toBe(929);
      for (const p of cluster) {
        const w = widths(p);
        expect(w).toHaveLength(8);
        expect(w.reduce((a, b) => a + b, 0)).toBe(17);
        // ISO/IEC 15438: cluster number (b1 - b2 + b3 - b4 + 9) mod 9 is 0, 3, 6 for rows 0, 1, 2 mod 3.
        expect((w[0]! - w[2]! + w[4]! - w[6]! + 9) % 9).toBe(3 * q);
      }
    });
  });
});

describe('PDF417 Reed-Solomon over GF(929)', () => {
  const { word } = drawnCodewords(DATA, 4, 3);

  it('computes the error-correction codewords an encoder draws', () => {
    expect(word).not.toContain(-1);
    expect(ecCodewords(word.slice(0, -K), K)).toEqual(word.slice(-K));
  });

  it('corrects as many unknown errors as half its error-correction codewords allow, less the margin', () => {
    const bad = [...word];
    for (const p of [3, 17, 30, 44, 50, 59]) bad[p] = (bad[p]! + 100) % 929;
    const fixed = correctErasures(bad, K, [], 4);
    expect(fixed?.word).toEqual(word);
    expect(fixed?.errors).toBe(6);
  });

  it('corrects twice as many codewords when they are named as erasures', () => {
    const unsure = [1, 5, 9, 13, 21, 26, 33, 38, 41, 47, 52, 57];
    const bad = [...word];
    for (const p of unsure) bad[p] = (bad[p]! + 1) % 929;
    expect(correctErasures(bad, K, [], 4)).toBeNull();
    const fixed = correctErasures(bad, K, unsure, 4);
    expect(fixed?.word).toEqual(word);
    expect(fixed?.erasures).toBe(12);
  });

  it('refuses a word damaged beyond what it can correct rather than returning another word', () => {
    const bad = [...word];
    for (const p of [2, 7, 12, 19, 25, 31, 36, 43, 49]) bad[p] = (bad[p]! + 7) % 929;
    expect(correctErasures(bad, K, [], 0)).toBeNull();
    // Within capacity (2·6 = 12 ≤ 16) but inside the margin kept unspent (12 > 16 − 6).
    const six = [...word];
    for (const p of [2, 7, 12, 19, 25, 31]) six[p] = (six[p]! + 7) % 929;
    expect(correctErasures(six, K, [], 6)).toBeNull();
    expect(correctErasures(six, K, [], 4)?.word).toEqual(word);
  });
});
