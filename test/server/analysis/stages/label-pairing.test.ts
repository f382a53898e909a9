import { describe, expect, it } from 'vitest';
import { pairLabels, type BoxRow, type TextBox } from '../../../../server/analysis/stages/label-pairing.js';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');

/** Words of one printed line: [text, x] pairs laid out at height `h` from top `y`, 0.6 h per character. */
function row(y: number, h: number, ...words: ReadonlyArray<readonly [string, number]>): BoxRow {
  return rowAt(90, y, h, words);
}

/** A row read with low confidence, as small labels garbled by the OCR are. */
function garbled(y: number, h: number, ...words: ReadonlyArray<readonly [string, number]>): BoxRow {
  return rowAt(45, y, h, words);
}

function rowAt(confidence: number, y: number, h: number, words: ReadonlyArray<readonly [string, number]>): BoxRow {
  const boxes: TextBox[] = words.map(([text, x]) => ({ text, confidence, x, y, w: Math.round(text.length * 0.6 * h), h }));
  return { boxes, confidence };
}

const texts = (rows: BoxRow[]): string[] => pairLabels(rows).map((l) => l.text);
const fieldsOf = (rows: BoxRow[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(printedFields({ text: '', confidence: 90, lines: pairLabels(rows) }, today)).map(([k, v]) => [k, v.value]));

describe('pairLabels', () => {
  it('joins a label printed above its value, however many words each has', () => {
    const rows = [
      row(100, 12, ['LAST', 40], ['NAME', 80]),
      row(118, 26, ['OKONKWO', 40]),
      row(160, 12, ['FIRST', 40], ['NAME', 86]),
      row(178, 24, ['NORA', 40], ['ANNA', 120]),
      row(220, 22, ['2673', 40], ['ELM', 110], ['STREET', 160]),
      row(250, 22, ['CHICAGO,', 40], ['IL', 160], ['60692', 200]),
    ];
    expect(texts(rows)).toEqual(['LAST NAME OKONKWO', 'FIRST NAME NORA ANNA', '2673 ELM STREET', 'CHICAGO, IL 60692']);
    expect(fieldsOf(rows)['Full Name']).toBe('NORA ANNA OKONKWO');
  });

  it('pairs a row of labels with the row of values under it, column by column', () => {
    // Labels over values in columns; each value goes to the label above it, not to its neighbour.
    const rows = [
      row(300, 12, ['DOB', 40], ['EXP', 280], ['ISS', 500]),
      row(318, 24, ['04/04/1973', 40], ['04/04/2028', 280], ['09/18/2024', 500]),
      row(400, 12, ['SEX', 40], ['HGT', 130], ['EYES', 260], ['CLASS', 380], ['RSTR', 500], ['END', 620]),
      row(418, 20, ['F', 40], ['5\'-06"', 130], ['BRO', 260], ['C', 380], ['B', 500], ['NONE', 620]),
    ];
    expect(texts(rows)).toEqual(['DOB 04/04/1973', 'EXP 04/04/2028', 'ISS 09/18/2024', 'SEX F', 'HGT 5\'-06"', 'EYES BRO', 'CLASS C', 'RSTR B', 'END NONE']);
    expect(fieldsOf(rows)).toMatchObject({
      'Date of Birth': '1973-04-04',
      'Date of Expiry': '2028-04-04',
      'Date of Issue': '2024-09-18',
      Sex: 'F',
      'Eyes Color': 'BRO',
      'DL Class': 'C',
      'DL Restriction Code': 'B',
      'DL Endorsed': 'NONE',
    });
  });

  it('leaves a label printed beside its value, with or without a colon, as the OCR read it', () => {
    // The date beside "DOB:" is not taken by the bare "RSTR" label above it (whose value was not read).
    const rows = [row(100, 12, ['RSTR', 110]), row(118, 20, ['DOB:', 40], ['04/04/1973', 100], ['EXP:', 300], ['04/04/2028', 360])];
    expect(texts(rows)).toEqual(['RSTR', 'DOB: 04/04/1973 EXP: 04/04/2028']);
    expect(fieldsOf(rows)).not.toHaveProperty('DL Restriction Code');
    const beside = [row(100, 22, ['DL', 40], ['D1234567', 80]), row(140, 22, ['CLASS', 40], ['C', 120], ['END', 300], ['NONE', 360])];
    expect(texts(beside)).toEqual(['DL D1234567', 'CLASS C END NONE']);
    expect(fieldsOf(beside)).toMatchObject({ 'Document Number': 'D1234567', 'DL Class': 'C', 'DL Endorsed': 'NONE' });
  });

  it('reads two columns of labels above values, each value under its own label', () => {
    const rows = [
      row(100, 12, ['4d', 40], ['DLN', 62], ['5', 500], ['DD', 514]),
      row(118, 26, ['J0580908', 40], ['6241843110', 500]),
      row(160, 12, ['1', 40], ['FAMILY', 52], ['NAME', 108], ['9', 500], ['CLASS', 512]),
      row(178, 26, ['IVANOV', 40], ['A', 500]),
    ];
    expect(texts(rows)).toEqual(['4d DLN J0580908', '5 DD 6241843110', '1 FAMILY NAME IVANOV', '9 CLASS A']);
    expect(fieldsOf(rows)).toMatchObject({ 'Document Number': 'J0580908', 'Document Discriminator': '6241843110', 'DL Class': 'A' });
  });

  it("ends a value at the next label's column even when the values are a word space apart", () => {
    const rows = [row(100, 12, ['SEX', 40], ['EYES', 66]), row(118, 20, ['M', 40], ['BRO', 66])];
    expect(texts(rows)).toEqual(['SEX M', 'EYES BRO']);
  });

  it('knows a label with its field number glued on or one letter lost, and drops garbled label rows', () => {
    const rows = [
      row(100, 26, ['IVANOV', 40]),
      // "2 GIVEN NAMES" as read at 9 px: no label, small print right above a larger row.
      garbled(132, 12, ['ONOO', 40], ['RES', 90]),
      row(150, 24, ['XAVIER', 40], ['WEI', 140]),
      row(190, 22, ['7220', 40], ['ELM', 110], ['STREET', 160]),
      row(220, 22, ['SACRAMENTO,', 40], ['CA', 200], ['95835', 240]),
      row(260, 12, ['5SEX', 40], ['2RST', 200]),
      row(278, 20, ['M', 40], ['NONE', 200]),
    ];
    expect(texts(rows)).toEqual(['IVANOV', 'XAVIER WEI', '7220 ELM STREET', 'SACRAMENTO, CA 95835', '5SEX M', 'RSTR NONE']);
    expect(fieldsOf(rows)).toMatchObject({ 'Full Name': 'XAVIER WEI IVANOV', Sex: 'M', 'DL Restriction Code': 'NONE' });
    // A name read with confidence stays, however small beside the row under it ("w« NGUYEN").
    const kept = [row(100, 15, ['w«', 40]).boxes[0]!, row(100, 30, ['NGUYEN', 80]).boxes[0]!];
    expect(texts([{ boxes: kept, confidence: 90 }, row(150, 43, ['RAJ', 80], ['DMITRI', 160])])).toEqual(['w« NGUYEN', 'RAJ DMITRI']);
  });

  it('reads a label misread by one letter under its own name when its value is beside it (PaddleOCR, variant front 8)', () => {
    const rows = [row(400, 14, ['12', 40], ['BSTR', 62], ['NONE', 110]), row(430, 14, ['18', 40], ['EYFS', 62], ['BLK', 110])];
    // The field number goes with the misread label: the parser reads the label's name.
    expect(texts(rows)).toEqual(['RSTR NONE', 'EYES BLK']);
    expect(fieldsOf(rows)).toMatchObject({ 'DL Restriction Code': 'NONE', 'Eyes Color': 'BLK' });
    // A value beside a label that reads right is left as read, whatever the closed list makes of it.
    const lexicon = { scores: { SEX: -1, CLASS: -9 }, bestPath: -0.5 };
    const sex: BoxRow = {
      boxes: [
        { text: 'SEX', confidence: 90, x: 40, y: 500, w: 25, h: 14 },
        { text: 'M', confidence: 90, x: 70, y: 500, w: 9, h: 14, lexicon },
      ],
      confidence: 90,
    };
    expect(texts([sex])).toEqual(['SEX M']);
    expect(fieldsOf([sex])['Sex']).toBe('M');
  });
});
