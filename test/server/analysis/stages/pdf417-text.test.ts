/**
 * PDF417 data codewords to text (the soft reader's last step, issue 20), checked against what
 * bwip-js encodes: text compaction in each of its submodes, byte and numeric compaction, and
 * licence payloads; anything it does not decode is refused, never guessed.
 */
import { describe, expect, it } from 'vitest';
import { codewordsToText } from '../../../../server/analysis/stages/pdf417-text.js';
import { drawnSymbolCodewords } from '../../../helpers/pdf417-symbol.js';
import { aamvaPayload } from '../../../fixtures/aamva.js';
import { DEV } from '../../../fixtures/hard/config.js';
import { hardPeople } from '../../../fixtures/hard/set.js';

/** The data codewords (length descriptor first, error correction left out) of the symbol bwip-js draws for `text`. */
function encoded(text: string, binarytext = false): number[] {
  const { word } = drawnSymbolCodewords({ text, columns: 6, eclevel: 2, binarytext });
  return word.slice(0, word[0]);
}

describe('codewordsToText', () => {
  it.each([
    ['upper case and spaces', 'HELLO WORLD'],
    ['lower case, digits and punctuation (every text submode)', 'Hello, World! 123-456 #a@b'],
    ['control characters and the punctuation table', 'abc\r\n\tXYZ;<>[]{}|~`^'],
    ['a long run of digits (numeric compaction)', '12345678901234567890123456789012345'],
    ['bytes outside text compaction (byte compaction)', 'binary \x00\x01\x02\x7f'],
  ])('decodes %s as bwip-js encoded it', (_, text) => {
    expect(codewordsToText(encoded(text))).toBe(text);
    expect(codewordsToText(encoded(text, true))).toBe(text);
  });

  it('decodes the licence payloads of the evaluation set, control characters included', () => {
    for (const id of hardPeople(DEV, 4)) {
      const payload = aamvaPayload(id);
      expect(codewordsToText(encoded(payload, true))).toBe(payload);
      expect(codewordsToText(encoded(payload))).toBe(payload);
    }
  });

  it('refuses what it does not decode rather than guess', () => {
    const good = encoded('HELLO WORLD');
    // A length descriptor that does not match the codewords given.
    expect(codewordsToText([good[0]! + 1, ...good.slice(1)])).toBeNull();
    // Macro PDF417 control block and ECI: not a licence's, not decoded.
    expect(codewordsToText([4, 1, 928, 2])).toBeNull();
    expect(codewordsToText([4, 927, 3, 1])).toBeNull();
    // A byte group worth more than six bytes.
    expect(codewordsToText([7, 924, 899, 899, 899, 899, 899])).toBeNull();
  });
});
