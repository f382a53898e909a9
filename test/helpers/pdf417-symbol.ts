/**
 * A PDF417 symbol bwip-js draws, read back codeword by codeword through the pattern table (the
 * soft reader's tests check its Reed-Solomon code and its text decoder against these).
 */
import bwipjs from 'bwip-js/node';
import { PDF417_PATTERNS } from '../../server/analysis/stages/pdf417-patterns.js';

/** What bwip-js is asked to draw: `text`, or with `raw` the codewords spelled `^NNN`. */
export interface SymbolRequest {
  text: string;
  columns: number;
  eclevel: number;
  raw?: boolean;
  binarytext?: boolean;
}

/** Every codeword of every row (row indicators left out), -1 where a pattern is not in the row's cluster. */
export function drawnSymbolCodewords(request: SymbolRequest): { word: number[]; rows: number } {
  const { columns } = request;
  const options = { bcid: 'pdf417', rowmult: 1, ...request } as Parameters<typeof bwipjs.raw>[0];
  const [sym] = bwipjs.raw(options) as unknown as { pixs: number[]; pixx: number; pixy: number }[];
  const { pixs, pixx, pixy } = sym!;
  const lookup = PDF417_PATTERNS.map((c) => new Map(c.map((p, v) => [p, v])));
  const word: number[] = [];
  for (let r = 0; r < pixy; r++) {
    for (let c = 1; c <= columns; c++) {
      const at = r * pixx + 17 + 17 * c;
      word.push(lookup[r % 3]!.get(parseInt(pixs.slice(at, at + 17).join(''), 2)) ?? -1);
    }
  }
  return { word, rows: pixy };
}
