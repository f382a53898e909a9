/**
 * The printed page as a witness for MRZ characters the OCR passes did not agree on (mrz-viz.ts).
 * Passes of a TD3 MRZ (OLIVIA read OLIVIA, QLIVIA, OLIWIA): the O is doubted by the passes; the
 * page's words settle it when they print the name, and leave the doubt when they do not.
 */
import { describe, expect, it } from 'vitest';
import { readPasses } from '../../../../server/analysis/stages/mrz.js';
import { vizWords, vouchByPage } from '../../../../server/analysis/stages/mrz-viz.js';

const today = new Date('2026-11-28T00:00:00Z');
const LINE_2 = 'A615930004USA8508155F2808152<<<<<<<<<<<<<<06';
const PASSES = [
  ['P<USAWILLIAMS<<ANNA<QLIVIA<<<<<<<<<<<<<<<<<<', LINE_2],
  ['P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<', LINE_2],
  ['P<USAWILLIAMS<<ANNA<DLIWIA<<<<<<<<<<<<<<<<<<', LINE_2],
];

describe('vouchByPage', () => {
  const read = readPasses(PASSES, today)!;

  it('starts from a valid MRZ whose passes doubt a name letter', () => {
    expect(read.data?.valid).toBe(true);
    expect(read.doubts?.some((d) => d.field === 'names')).toBe(true);
  });

  it('takes the name the page prints, and drops the doubt', () => {
    const out = vouchByPage(read, ['PASSPORT UNITED STATES OF AMERICA', 'WILLIAMS', 'ANNA OLIVIA', '15 AUG 1985'], today);
    expect(out.data?.lines[0]).toBe('P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<');
    expect(out.doubts ?? []).toEqual([]);
    expect(out.fields['Full Name']).toEqual({ value: 'ANNA OLIVIA WILLIAMS', confidence: 95 });
  });

  it('keeps the doubt when the page does not print the name', () => {
    const out = vouchByPage(read, ['PASSPORT UNITED STATES OF AMERICA', 'WILLIAMS', 'A LEE'], today);
    expect(out.doubts?.some((d) => d.field === 'names')).toBe(true);
    expect(out.fields['Full Name']?.confidence).toBe(60);
  });

  it('does not take the MRZ read as page text for a witness', () => {
    const out = vouchByPage(read, ['P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<'], today);
    expect(out.doubts?.some((d) => d.field === 'names')).toBe(true);
  });

  it('reads words outside MRZ-like lines only', () => {
    expect([...vizWords(['P USA 007854587', 'THOMAS!', 'PCUSATHOMAS<CLILY', '0078545878USA9305177F3305175'])]).toEqual(['USA', '007854587', 'THOMAS']);
  });
});

describe('vouchByPage: a Q every pass read (an O blurred into a Q)', () => {
  const LINE_2 = 'A615930004USA8508155F2808152<<<<<<<<<<<<<<06';
  const ALL_Q = [
    ['P<USAWILLIAMS<<ANNA<QLIVIA<<<<<<<<<<<<<<<<<<', LINE_2],
    ['P<USAWILLIAMS<<ANNA<QLIVIA<<<<<<<<<<<<<<<<<<', LINE_2],
  ];
  const read = readPasses(ALL_Q, today)!;

  it('takes the O the page prints, and drops the doubt', () => {
    const out = vouchByPage(read, ['PASSPORT', 'WILLIAMS', 'ANNA OLIVIA'], today);
    expect(out.data?.lines[0]).toBe('P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<');
    expect(out.doubts ?? []).toEqual([]);
    expect(out.fields['First Name']).toEqual({ value: 'ANNA OLIVIA', confidence: 95 });
  });

  it('keeps a Q the page prints as Q (QUINN), and drops the doubt', () => {
    const quinn = readPasses(
      [
        ['P<USAWILLIAMS<<QUINN<<<<<<<<<<<<<<<<<<<<<<<<', LINE_2],
        ['P<USAWILLIAMS<<QUINN<<<<<<<<<<<<<<<<<<<<<<<<', LINE_2],
      ],
      today,
    )!;
    expect(quinn.doubts?.some((d) => d.chosen === 'Q')).toBe(true);
    const out = vouchByPage(quinn, ['WILLIAMS', 'QUINN'], today);
    expect(out.data?.lines[0]).toBe('P<USAWILLIAMS<<QUINN<<<<<<<<<<<<<<<<<<<<<<<<');
    expect(out.doubts ?? []).toEqual([]);
  });

  it('keeps the doubt when the page prints neither', () => {
    const out = vouchByPage(read, ['PASSPORT UNITED STATES OF AVERICA'], today);
    expect(out.doubts?.some((d) => d.chosen === 'Q')).toBe(true);
  });
});

describe('vouchByPage: a page word with one other letter misread', () => {
  const read = readPasses(PASSES, today)!;

  it('takes the doubted letter as the page prints it when another letter of the word is misread (OLIVIA printed OLIVLA)', () => {
    const out = vouchByPage(read, ['WILLIAMS', 'ANNA OLIVLA'], today);
    expect(out.data?.lines[0]).toBe('P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<');
    expect(out.doubts ?? []).toEqual([]);
  });

  it('does not take a word that differs at the doubted letter and another', () => {
    const out = vouchByPage(read, ['WILLIAMS', 'ANNA ULIVLA'], today);
    expect(out.doubts?.some((d) => d.field === 'names')).toBe(true);
  });

  it('does not take a word two letters away', () => {
    const out = vouchByPage(read, ['WILLIAMS', 'ANNA OLIWLA'], today);
    expect(out.doubts?.some((d) => d.field === 'names')).toBe(true);
  });
});

describe('vouchByPage: a name letter every pass read only as a digit', () => {
  const line2 = 'C103290911USA6904199F3104194<<<<<<<<<<<<<<00';
  const zero = 'P<USAL0PEZ<<AVA<INGRID<<<<<<<<<<<<<<<<<<<<<<';
  const read = readPasses(
    [
      [zero, line2],
      [zero, line2],
      [zero, line2],
    ],
    today,
  )!;

  it('takes the letter when the page prints the name with it (LOPEZ read L0PEZ by every pass)', () => {
    expect(read.data?.lines[0]).toBe('P<USALOPEZ<<AVA<INGRID<<<<<<<<<<<<<<<<<<<<<<');
    expect(read.doubts?.map((d) => d.column)).toEqual([6]);
    const out = vouchByPage(read, ['PASSPORT', 'LOPEZ', 'AVA INGRID'], today);
    expect(out.doubts ?? []).toEqual([]);
  });

  it('keeps the doubt when the page prints another letter there (INGRID beside INSZID, hard passport 9)', () => {
    const wrong = 'P<USALOPEZ<<AVA<INS2ID<<<<<<<<<<<<<<<<<<<<<<';
    const r = readPasses(
      [
        [wrong, line2],
        [wrong, line2],
        [wrong, line2],
      ],
      today,
    )!;
    expect(r.data?.lines[0]).toBe('P<USALOPEZ<<AVA<INSZID<<<<<<<<<<<<<<<<<<<<<<');
    const out = vouchByPage(r, ['PASSPORT', 'LOPEZ', 'AVA INGRID'], today);
    expect(out.data?.lines[0]).toBe('P<USALOPEZ<<AVA<INSZID<<<<<<<<<<<<<<<<<<<<<<');
    expect(out.doubts?.map((d) => d.column)).toEqual([19]);
  });
});

describe('vouchByPage with the line-by-line reading', () => {
  const LINE_2 = 'A615930004USA8508155F2808152<<<<<<<<<<<<<<06';
  // The whole-zone passes read WILLIARS (and disagree on the O of OLIVIA); the line read alone read WILLIAMS.
  const BY_LINE = ['P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<', LINE_2];
  const PASSES_R = [
    ['P<USAWILLIARS<<ANNA<QLIVIA<<<<<<<<<<<<<<<<<<', LINE_2],
    ['P<USAWILLIARS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<', LINE_2],
    BY_LINE,
    ['P<USAWILLIARS<<ANNA<DLIWIA<<<<<<<<<<<<<<<<<<', LINE_2],
  ];
  const read = readPasses(PASSES_R, today, BY_LINE)!;

  it('keeps the doubt the line-by-line reading raised when the page vouches for another name', () => {
    const out = vouchByPage(read, ['PASSPORT', 'ANNA OLIVIA'], today);
    expect(out.data?.lines[0]).toBe('P<USAWILLIARS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<');
    expect(out.doubts?.map((d) => [d.kind, d.column])).toEqual([['line_read_disagrees', 11]]);
    expect(out.fields['Full Name']?.confidence).toBe(60);
  });

  it('takes the surname the page prints among the letters read there', () => {
    const out = vouchByPage(read, ['PASSPORT', 'WILLIAMS', 'ANNA OLIVIA'], today);
    expect(out.data?.lines[0]).toBe('P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<');
    expect(out.doubts ?? []).toEqual([]);
  });
});

describe('vouchByPage on a 6 the check digit cannot tell from G', () => {
  // Dim development passport 0 (document number G01813087): the passes read 6, 0 and 6 where the G is.
  const DIM_0 = [
    ['P<USAIVANOV<<XAVIER<WEI<<<<<<<<<<<<<<<<<<<<<', '6018130876USA7304040M2804040<<<<<<<<<<<<<<06'],
    ['P<USAANOV<<XAVIER<WEI<<<<<<<<<<<<<<<<<<<<<<<', '0018130876USA7304040M2804040<<<<<<<<<<<<<<06'],
    ['P<USAIVAMOV<<XAVIER<UEI<<<<<<<<<<<<<<<<<<<<<', '6018130876051730404002804040<<<<<<<<<<<<<<06'],
  ];
  const read = readPasses(DIM_0, today)!;

  it('keeps the doubt when the page prints the number with the 6 (its OCR reads the G as 6 too)', () => {
    expect(read.doubts?.some((d) => d.kind === 'check_blind')).toBe(true);
    const out = vouchByPage(read, ['PASSPORT UNITED STATES OF AMERICA', 'USA 601813087', 'IVANOV', 'XAVIER WEI'], today);
    expect(out.doubts?.some((d) => d.kind === 'check_blind' && d.field === 'document_number')).toBe(true);
    expect(out.fields['Document Number']?.confidence).toBe(60);
  });
});

// The passes as development-variant passport 4's read its name: O, Q, Q, O at the first letter.
describe("vouchByPage: a name the page prints with an apostrophe (O'CONNOR, OCONNOR in the MRZ)", () => {
  const line2 = 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04';
  // Two passes read the Os as D: a D is no blurred O (a Q read for an O on a line read alike
  // otherwise is not doubted, mrz-doubt.ts), so the names are doubted until the page vouches.
  const read = readPasses(
    [
      ['P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', line2],
      ['P<USADCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', line2],
      ['P<USADCONNDR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', line2],
      ['P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', line2],
    ],
    today,
  )!;

  it('counts the word with its apostrophe dropped, as well as its parts', () => {
    expect(vizWords(["O'CONNOR", 'O\u2019CONNOR AALIYAH'])).toEqual(new Set(['OCONNOR', 'CONNOR', 'AALIYAH']));
  });

  it('takes the name the page prints with an apostrophe, and drops the doubt', () => {
    expect(read.doubts?.some((d) => d.field === 'names')).toBe(true);
    const out = vouchByPage(read, ['PASSPORT UNITED STATES OF AMERICA', "O'CONNOR", 'AALIYAH LEE'], today);
    expect(out.data?.lines[0]).toBe('P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<');
    expect(out.doubts ?? []).toEqual([]);
  });
});
