/**
 * Code fields whose label the OCR garbled past what the parser's label patterns allow ("sass C",
 * "CAS B", "S LASS B" for CLASS; "woes BLK", "WETESBLK" for EYES), read by the label the garbled
 * word is nearest to. A licence front prints a short code right after its label; small print
 * loses or swaps a letter or two of the label and keeps the larger, bolder value. A word is taken
 * for a label only when it is within a field's edit budget of that label and strictly nearer to it
 * than to every other label a front prints whose value could look like this one (a date label
 * cannot stand before a letter: tesseract reads ISS "sass" too), and a field is read only when
 * every such pair on the page gives the same value. Used by printed-codes.ts when its own
 * label patterns found nothing.
 */
import { editDistance } from './mrz-align.js';

/** AAMVA eye colour codes (D20 field DAY): a closed list, so a value glued to its label can be cut from it. */
export const EYE_CODES = ['BLK', 'BLU', 'BRO', 'GRY', 'GRN', 'HAZ', 'MAR', 'PNK', 'DIC', 'UNK'] as const;

/** A code field: its label, how many edits of it a garbled word may be, and the values it takes. */
interface CodeField {
  /** The label and the other words cards print for it ("RESTR" for RSTR). */
  readonly labels: readonly string[];
  /** Edits allowed: about two in five letters; a three-letter label one, or every short word would be one. */
  readonly budget: number;
  readonly value: RegExp;
}

/**
 * The code fields read here. Sex's label is three letters, so one edit ("wsex", "sux", "six":
 * a stray glyph, a vowel misread); its M/F/X is a letter class and the codes print too, so the
 * word must still be strictly nearer to SEX than to any other label.
 */
export const CODE_FIELDS = {
  sex: { labels: ['SEX'], budget: 1, value: /^[MFX]$/ },
  class: { labels: ['CLASS'], budget: 2, value: /^[A-Z]{1,2}$/ },
  eyes: { labels: ['EYES'], budget: 2, value: new RegExp(`^(?:${EYE_CODES.join('|')})$`) },
  restrictions: { labels: ['RSTR', 'RESTR'], budget: 1, value: /^(?:NONE|[A-Z]{1,2})$/ },
  endorsements: { labels: ['END'], budget: 1, value: /^(?:NONE|[A-Z]{1,2})$/ },
} as const satisfies Record<string, CodeField>;

/**
 * Labels a front prints, as words (the AAMVA card design's and the plain ones US cards use):
 * a garbled word nearer to one of these than to the field's label is not that field's.
 * HAIR is here though this reader does not read it: its codes (BLK, BRO, GRY) are eye colours too.
 */
const OTHER_LABELS = [
  'DLN',
  'DL',
  'LIC',
  'LN',
  'FN',
  'NAME',
  'ADDRESS',
  'SEX',
  'HGT',
  'HEIGHT',
  'WGT',
  'WEIGHT',
  'HAIR',
  'EYES',
  'CLASS',
  'RSTR',
  'RESTR',
  'END',
  'DD',
  'DONOR',
  'VETERAN',
];

/**
 * A word read as a label: capitals only, with the digits small print takes letters for read
 * back (5 → S, 0 → O, 1 → I) and marks dropped; an AAMVA field number before it ("9", "18") is
 * no part of the label.
 */
function labelWord(raw: string): string {
  const word = raw.replace(/^\d{1,2}[a-z]?(?=[A-Za-z])/, '').toUpperCase();
  return word
    .replace(/5/g, 'S')
    .replace(/0/g, 'O')
    .replace(/1/g, 'I')
    .replace(/[^A-Z]/g, '');
}

/** Whether `word` is a garbled form of `field`'s label, nearer to it than to any other label. */
function namesField(word: string, field: CodeField): boolean {
  if (word.length < 2) return false;
  const d = Math.min(...field.labels.map((l) => editDistance(word, l)));
  if (d > field.budget || d >= word.length) return false;
  return OTHER_LABELS.every((other) => field.labels.includes(other) || editDistance(word, other) > d);
}

/**
 * The value after a garbled label of `field` on the page's lines, or null when none is found or
 * two differ. A value is a whole word after its label word; an eye colour may also be glued on to
 * the end of it ("WETESBLK"), its codes being a closed list.
 */
export function garbledLabelValue(lines: readonly string[], field: CodeField): string | null {
  const found = new Set<string>();
  for (const line of lines) {
    const words = line.split(/\s+/).filter(Boolean);
    words.forEach((w, i) => {
      // A NONE the reader parted ("STR NO NE") is NONE, not the code NO.
      const next = words[i + 1] === 'NO' && words[i + 2] === 'NE' ? 'NONE' : words[i + 1];
      if (next !== undefined && field.value.test(next) && namesField(labelWord(w), field)) found.add(next);
      if (field.labels.includes('EYES')) {
        const glued = new RegExp(`^(.{2,})(${EYE_CODES.join('|')})$`).exec(w);
        if (glued && namesField(labelWord(glued[1]!), field)) found.add(glued[2]!);
      }
    });
  }
  return found.size === 1 ? [...found][0]! : null;
}
