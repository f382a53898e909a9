import { describe, expect, it } from 'vitest';
import { printedFields } from '../../../../server/analysis/stages/printed-fields.js';

const today = new Date('2026-06-01T00:00:00Z');
const ocr = (texts: string[]) => ({ text: texts.join('\n'), confidence: 90, lines: texts.map((text) => ({ text, confidence: 90 })) });

describe('printedFields', () => {
  it('reads a licence front laid out as AAMVA recommends, even with garbled labels', () => {
    // Lines as tesseract actually returned them for a generated licence (labels misread).
    const out = printedFields(
      ocr([
        'CALIFORNIA',
        'DRIVER LICENSE',
        '0. D1234567',
        'exe 08/12/2029',
        'w ERIKSSON',
        'n ANNA MARIA',
        '1234 MAPLE AVENUE',
        'SACRAMENTO, CA 95814',
        'pos 08/12/1984',
        'sex F HGT 5\'-06"',
        'Iss 03/04/2021',
        'eves BLU',
      ]),
      today,
    );
    expect(out['Full Name']?.value).toBe('ANNA MARIA ERIKSSON');
    expect(out['Date of Birth']?.value).toBe('1984-08-12');
    expect(out['Date of Expiry']?.value).toBe('2029-08-12');
    expect(out['Date of Issue']?.value).toBe('2021-03-04');
    expect(out['Address Postal Code']?.value).toBe('95814');
    expect(out['Sex']?.value).toBe('F');
    expect(out['Eyes Color']?.value).toBe('BLU');
    expect(out['Document Number']?.value).toBe('D1234567');
    expect(out['Full Name']!.confidence).toBeLessThanOrEqual(80);
  });

  it('reads passport labels and leaves out what is not there', () => {
    const out = printedFields(
      ocr(['PASSPORT', 'P USA P55512345', 'Surname', "O'BRIEN", 'Given Names', 'MARY ELIZABETH', 'Date of birth', '02 NOV 1975']),
      today,
    );
    expect(out['Full Name']?.value).toBe("MARY ELIZABETH O'BRIEN");
    expect(out['Date of Birth']?.value).toBe('1975-11-02');
    expect(out['Document Number']?.value).toBe('P55512345');
    expect(out['Address Street']).toBeUndefined();
    expect(out['Height']).toBeUndefined();
  });
});

/**
 * Lines tesseract returned for white-stock fronts printed in other fonts with AAMVA field
 * numbers (test/server/analysis/captures.ts, PEOPLE 0-3): labels glued on to values, labels
 * garbled, document numbers holding letters.
 */
const CAPTURED_FRONTS: readonly { readonly lines: readonly string[]; readonly expected: Readonly<Record<string, string>> }[] = [
  {
    lines: [
      'Washington',
      'DRIVER LICENSE',
      '«oinWDLOK7QX52PB',
      '1 OKAFOR',
      '> HARRIET QUINN',
      's 2207 NW 58TH ST',
      'SEATTLE, WA 98107',
      '2 poe02/29/1988 4 ExP02/28/2030',
      '4a 1s 05/17/2022 9 CLASSD',
      '12 RSTRB 9a ENDNONE',
      '15 SEXF 16 HGT5\'-05" 18 EYESHAZ',
      '5 DDWDLOK7QX52PB2205170Q12',
      'HARRIET OKAFOR',
    ],
    expected: {
      'Document Number': 'WDLOK7QX52PB',
      'Last Name': 'OKAFOR',
      'First Name': 'HARRIET',
      'Middle Name': 'QUINN',
      'Date of Birth': '1988-02-29',
      'Date of Expiry': '2030-02-28',
      'Date of Issue': '2022-05-17',
      'DL Class': 'D',
      'DL Restriction Code': 'B',
      'DL Endorsed': 'NONE',
      Sex: 'F',
      Height: '5\'-05"',
      'Eyes Color': 'HAZ',
      'Document Discriminator': 'WDLOK7QX52PB2205170Q12',
      'Issuing State Code': 'WA',
      'Address Street': '2207 NW 58TH ST',
      'Address City': 'SEATTLE',
      'Address Postal Code': '98107',
    },
  },
  {
    lines: [
      'Illinois',
      '«oinV41270079276',
      '+ VOLKOV',
      '> DMITRI PAVEL',
      '& 4400 N BROADWAY ST',
      'CHICAGO, IL 60640',
      's pos10/03/1979',
      '4a 18S 10/03/2021',
      '12 RSTRNONE',
      '15 SEXM 16 HGT5"-10"',
      '5 DD0G21276R0031',
      'DRIVER LICENSE',
      '4» ExP10/03/2029',
      '9 CLAssD',
      '9a ENDM',
      '18 EYESBRO',
      'DMITRI VOLKOV',
    ],
    expected: {
      'Document Number': 'V41270079276',
      'Last Name': 'VOLKOV',
      'First Name': 'DMITRI',
      'Date of Birth': '1979-10-03',
      'Date of Expiry': '2029-10-03',
      'Date of Issue': '2021-10-03',
      'DL Class': 'D',
      'DL Restriction Code': 'NONE',
      'DL Endorsed': 'M',
      Sex: 'M',
      Height: '5\'-10"',
      'Eyes Color': 'BRO',
      'Document Discriminator': '0G21276R0031',
      'Issuing State Code': 'IL',
      'Address Street': '4400 N BROADWAY ST',
    },
  },
  {
    lines: [
      'Massachusetts',
      'a o.nS90877103',
      '+ MENDEZ',
      '» LUCIAROSA',
      'g¢ 17 BEACON HILL RD',
      'WORCESTER, MA 01609',
      '» pos06/21/1996',
      '4a 15s 01/09/2023',
      '12 RSTRJ',
      '15 SEXF 16 HGT5\'-02"',
      'DRIVER LICENSE',
      '4 ExP06/21/2028',
      '9 CLASSD',
      '9a ENDONONE',
      '18 EYESBLK',
    ],
    expected: {
      'Document Number': 'S90877103',
      'Last Name': 'MENDEZ',
      'Date of Birth': '1996-06-21',
      'Date of Expiry': '2028-06-21',
      'Date of Issue': '2023-01-09',
      'DL Class': 'D',
      'DL Restriction Code': 'J',
      'DL Endorsed': 'NONE',
      Sex: 'F',
      'Eyes Color': 'BLK',
      'Issuing State Code': 'MA',
      'Address Street': '17 BEACON HILL RD',
    },
  },
  {
    lines: [
      'Arizona',
      '4d DLN D08954796',
      '1 PRICE',
      '> OWEN GRANT',
      '8 9100 E SAGUARO BLVD',
      'SCOTTSDALE, AZ 85258',
      '3 00812/11/1968',
      '4alss 12/11/2020',
      '12RSTRB',
      '15SEXM 16 HGT6\'-01"',
      '5 DD4X05DF0GQ2L9',
      'DRIVER LICENSE',
      'ab Exp 12/11/2032',
      '9 CLASSA',
      '9a ENDT',
      '18 EYES GRY',
      'OWEN PRICE',
    ],
    expected: {
      'Document Number': 'D08954796',
      'Last Name': 'PRICE',
      'First Name': 'OWEN',
      'Middle Name': 'GRANT',
      'Date of Birth': '1968-12-11',
      'Date of Expiry': '2032-12-11',
      'Date of Issue': '2020-12-11',
      'DL Class': 'A',
      'DL Restriction Code': 'B',
      'DL Endorsed': 'T',
      Sex: 'M',
      Height: '6\'-01"',
      'Eyes Color': 'GRY',
      'Document Discriminator': '4X05DF0GQ2L9',
      'Issuing State Code': 'AZ',
      'Address Street': '9100 E SAGUARO BLVD',
    },
  },
];

describe('printedFields on fronts printed differently', () => {
  it.each(CAPTURED_FRONTS.map((c, i) => [i, c] as const))('reads every printed AAMVA field of front %i', (_i, { lines, expected }) => {
    const out = printedFields(ocr([...lines]), today);
    const got = Object.fromEntries(Object.keys(expected).map((k) => [k, out[k]?.value]));
    expect(got).toEqual(expected);
  });

  it('turns an O inside a run of digits into 0 and keeps letters a number really holds', () => {
    const out = printedFields(ocr(['Texas', 'DL 4123O578', '1 GARCIA', '2 JOSE LUIS', '88 ELM STREET', 'AUSTIN, TX 78701']), today);
    expect(out['Document Number']?.value).toBe('41230578');
    const wa = printedFields(ocr(['Washington', 'DLNWDLOK7QX52PB']), today);
    expect(wa['Document Number']?.value).toBe('WDLOK7QX52PB');
  });
});

describe('printedFields on small phone uploads', () => {
  it('reads an S read as $ and a city followed by a full stop', () => {
    // Lines tesseract returned for a 904 px upload of the evaluation's development half.
    const out = printedFields(
      ocr(['MASSACHUSETTS', '»n $10182152', 'ww DAVIS', 'in OMAR VIKTOR', '5328 OLD MILL RD', 'BOSTON. MA 02124', 'vos 03/05/1959']),
      today,
    );
    expect(out['Document Number']?.value).toBe('S10182152');
    expect(out['Address City']?.value).toBe('BOSTON');
    expect(out['Last Name']?.value).toBe('DAVIS');
  });

  it('reads lines as tesseract returned them for development fronts 3 and 10 of the hard set (issue 20)', () => {
    // Front 3: a full stop after the state, CLASS read "cass"; front 10: HGT with its foot mark lost.
    const three = printedFields(
      ocr(['ILLINOIS', 'on F54385887481', 'we 11/18/2027', 'i OKONKWO', 'i NORA ANNA', '2673 ELM STREET', 'CHICAGO, IL. 60692', 'vos 11/18/1955 cass E']),
      today,
    );
    expect(three['Address City']?.value).toBe('CHICAGO');
    expect(three['Address State']?.value).toBe('IL');
    expect(three['Address Postal Code']?.value).toBe('60692');
    expect(three['Full Name']?.value).toBe('NORA ANNA OKONKWO');
    expect(three['DL Class']?.value).toBe('E');
    const ten = printedFields(ocr(['OREGON', 'SEXP “GT 5-10"', 'cass M']), today);
    expect(ten['Height']?.value).toBe(`5'-10"`);
    expect(ten['DL Class']?.value).toBe('M');
  });

  it('knows sex and eye colour by their shape on the height line when their labels were not read', () => {
    // PaddleOCR's reading of a development front printed with labels above values (labels lost).
    const out = printedFields(ocr(['IVANOV', 'XAVIER WEI', '7220 ELM STREET', 'SACRAMENTO, CA 95835', 'M 6\'-04" GRN A', 'NONE NONE']), today);
    expect(out['Sex']?.value).toBe('M');
    expect(out['Eyes Color']?.value).toBe('GRN');
    expect(out['Height']?.value).toBe('6\'-04"');
    // A lone letter has no shape of its own: class, restrictions and endorsements need a label.
    expect(out['DL Class']).toBeUndefined();
    // Two NONE on the page are both fields', whichever is which (this front's were both NONE).
    expect(out['DL Restriction Code']?.value).toBe('NONE');
    expect(out['DL Endorsed']?.value).toBe('NONE');
  });
});

describe('printedFields: names by their place, the discriminator as one run', () => {
  /** Lines with the print height of their words (a label is smaller than the values). */
  const sized = (rows: ReadonlyArray<readonly [string, number]>) => ({
    text: rows.map(([t]) => t).join('\n'),
    confidence: 90,
    lines: rows.map(([text, height]) => ({ text, confidence: 90, height })),
  });

  it('finds the family and given names above the street when a row of dates is printed between', () => {
    // Labels above the values unread, the dates between the names and the address (as some
    // states print them): the names are the two lines in capitals nearest above the street.
    const out = printedFields(
      sized([
        ['DRIVER LICENSE', 30],
        ['W500IJB415JZ', 26],
        ['BROWN', 26],
        ['HANNAH ZOE', 24],
        ['POS EO 1SS', 12],
        ['10/06/1965 10/06/2029 03/22/2025', 22],
        ['6021 MAPLE AVE', 22],
        ['SEATTLE, WA 98142', 22],
      ]),
      today,
    );
    expect(out['Full Name']?.value).toBe('HANNAH ZOE BROWN');
    expect(out['Last Name']?.value).toBe('BROWN');
    expect(out['First Name']?.value).toBe('HANNAH');
  });

  it('passes over a label row read in capitals, and stops at the header', () => {
    // "EN NAMES": tesseract's reading of "2 GIVEN NAMES" printed above the given names.
    const out = printedFields(ocr(['OHIO DRIVER LICENSE', 'OKONKWO', 'EN NAMES', 'MARIA OLGA', '940 LAKE SHORE DR', 'COLUMBUS, OH 43211']), today);
    expect(out['Full Name']?.value).toBe('MARIA OLGA OKONKWO');
    // One name line only: the header is not taken for a family name.
    const one = printedFields(ocr(['OHIO DRIVER LICENSE', '12/25/1970', 'MARIA OLGA', '940 LAKE SHORE DR', 'COLUMBUS, OH 43211']), today);
    expect(one['Full Name']).toBeUndefined();
    // Smaller print above the street is a garbled label, not a name.
    const small = printedFields(
      sized([
        ['BROWN', 26],
        ['HANNAH ZOE', 24],
        ['ONOO RES', 12],
        ['04/04/1973', 22],
        ['6021 MAPLE AVE', 22],
        ['SEATTLE, WA 98142', 22],
      ]),
      today,
    );
    expect(small['Full Name']?.value).toBe('HANNAH ZOE BROWN');
  });

  it('repairs a year whose century a look-alike digit took, when only one century fits', () => {
    // Development-variant front 11: a blurred 0 of 2028 read 8.
    const out = printedFields(ocr(['DOB 08/15/1985', 'EXP 08/15/2828']), today);
    expect(out['Date of Expiry']?.value).toBe('2028-08-15');
    // "7985": the 1 of 1985 read 7.
    expect(printedFields(ocr(['DOB 08/15/7985']), today)['Date of Birth']?.value).toBe('1985-08-15');
  });

  it('leaves a birth year before 1900 unread, and takes no other date of the row for it', () => {
    // Development-variant front 16 (dim), PaddleOCR's row of dates: 05/10/1956 read "03/10/1056".
    const out = printedFields(ocr(['03/10/1056 05/10/2023 11/28/2009']), today);
    expect(out['Date of Birth']).toBeUndefined();
    expect(out['age']).toBeUndefined();
    expect(out['Date of Expiry']?.value).toBe('2023-05-10');
    expect(out['Date of Issue']?.value).toBe('2009-11-28');
  });

  it('reads a name whose label was paired with it by geometry', () => {
    const out = printedFields(ocr(['ILLINOIS DRIVER LICENSE', 'OCONNOR', 'GIVEN NAMES AALIYAH LEE', '7235 OLD MILL RD', 'CHICAGO, IL 60674']), today);
    expect(out['Full Name']?.value).toBe('AALIYAH LEE OCONNOR');
  });

  it('reads the discriminator as one run, without the spaces a reader put in or what follows it', () => {
    expect(printedFields(ocr(['DDN4106 408913KT']), today)['Document Discriminator']?.value).toBe('N4106408913KT');
    expect(printedFields(ocr(['DD 02818130446ON O.DAVIS']), today)['Document Discriminator']?.value).toBe('02818130446ON');
    expect(printedFields(ocr(['5 DD 68/58/48860684BU/BW F3/87']), today)['Document Discriminator']?.value).toBe('68/58/48860684BU/BWF3/87');
    expect(printedFields(ocr(['DD 12345678 OMAR DAVIS']), today)['Document Discriminator']?.value).toBe('12345678');
  });
});
