/**
 * The page read a second way when tesseract's page printed a name of a valid MRZ nowhere
 * (mrz-witness.ts): development passport 4 with its MRZ set small (`tight` stress), where every
 * pass read AALIYAH as AALIYAR and tesseract's page held only the header and the number.
 */
import { describe, expect, it } from 'vitest';
import { readPasses } from '../../../../server/analysis/stages/mrz.js';
import { nameTokens, witnessedMrz } from '../../../../server/analysis/stages/mrz-witness.js';

const today = new Date('2026-06-01T00:00:00Z');
const LINE_2 = 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04';
const read = readPasses(
  [
    ['P<USAOCONNOR<<AALIYAR<LEE<<<<<<<<<<<<<<<<<<<', LINE_2],
    ['P<USAOCONNOR<<AALIYAR<LEE<<<<<<<<<<<<<<<<<<<', LINE_2],
  ],
  today,
)!;
// Tesseract's page lines of that capture.
const TESSERACT = ['PASSPORT UNITED STATES OF AMERICA', 'P USA X00901608'];
// PaddleOCR's lines of it (its MRZ line, with fillers, is no witness).
const PADDLE = ['PASSPORT UNITED STATESOFAMERICA', 'P USA X00901606', 'OCONNOR', 'AALIYAH LEE', 'P<USAOCONNOR<<AALIYAH<LEE < <<< <<<<<<<'];

describe('witnessedMrz', () => {
  it('lists the name tokens of five letters or more', () => {
    expect(nameTokens(read)).toEqual(['OCONNOR', 'AALIYAR']);
  });

  it('reads the page again when it printed a name nowhere, and doubts the letter the second reading prints otherwise', async () => {
    let asked = 0;
    const out = await witnessedMrz(read, TESSERACT, today, async () => {
      asked++;
      return PADDLE;
    });
    expect(asked).toBe(1);
    expect(out.doubts).toEqual([{ kind: 'page_differs', line: 0, column: 20, field: 'names', chosen: 'R', read: ['R', 'H'] }]);
  });

  it('does not read again when the page printed every name', async () => {
    let asked = 0;
    const out = await witnessedMrz(read, [...TESSERACT, 'OCONNOR', 'AALIYAR LEE'], today, async () => {
      asked++;
      return PADDLE;
    });
    expect(asked).toBe(0);
    expect(out.doubts ?? []).toEqual([]);
  });

  it('keeps the page alone when the second reading cannot run', async () => {
    const out = await witnessedMrz(read, TESSERACT, today, async () => null);
    expect(out.doubts ?? []).toEqual([]);
    expect(out.data?.lines).toEqual(read.data?.lines);
  });
});
