/**
 * Values no reader returned, read again where the page's own labels say they are. On a 720-1080
 * px upload the detector passes over a lone sex letter or class code, or the recogniser reads it
 * glued to its neighbours ("BLKM", "ABNON"); the label is often still read by some reader (a
 * tesseract word "SEX", a PaddleOCR box "15SEX"). From such a label the value's word is found as
 * ink right of it (labels beside their values) or under it (labels above them), by print size
 * alone: a value is printed larger than its label (the discriminator: as large). That word is
 * read alone with the recogniser, and kept only when it has the field's shape. No place is
 * assumed from a layout: the label found on the page is the only anchor.
 */
import type { GreyPlane } from '../raster.js';
import type { ProcessorField } from './aamva.js';
import { EYE_CODES } from './garbled-labels.js';
import type { TextBox } from './label-boxes.js';
import { lexiconLabel } from './label-lexicon.js';
import { blobs, type Blob, type Rect } from './row-band.js';

/** A recogniser's reading of one crop (paddle.ts `readWord`). */
export type CropReader = (rect: Rect) => Promise<{ readonly text: string; readonly confidence: number } | null>;

interface Target {
  /** The printed-field name (printed-fields.ts). */
  readonly field: string;
  /** The label as a reader's word reads it, its AAMVA field number glued on or not. */
  readonly label: RegExp;
  /** The closed list's name for it (label-lexicon.ts). */
  readonly lexicon: string;
  readonly value: RegExp;
  /** Least height of the value's glyphs, in the label's glyph heights. */
  readonly taller: number;
  /** Widest value, in label glyph heights. */
  readonly span: number;
}

const CODE = /^(?:NONE|[A-Z]{1,2})$/;
export const REREAD_TARGETS: readonly Target[] = [
  { field: 'Sex', label: /^(?:\d{1,2})?SEX[:.]?$/, lexicon: 'SEX', value: /^[MFX]$/, taller: 1.1, span: 4 },
  { field: 'DL Class', label: /^9?CLASS[:.]?$/, lexicon: 'CLASS', value: /^[A-Z]{1,2}$/, taller: 1.1, span: 6 },
  { field: 'Eyes Color', label: /^(?:18)?EYES[:.]?$/, lexicon: 'EYES', value: new RegExp(`^(?:${EYE_CODES.join('|')})$`), taller: 1.1, span: 8 },
  { field: 'DL Restriction Code', label: /^(?:12)?R(?:E)?STR[:.]?$/, lexicon: 'RSTR', value: CODE, taller: 1.1, span: 10 },
  { field: 'DL Endorsed', label: /^(?:9A)?END[:.]?$/i, lexicon: 'END', value: CODE, taller: 1.1, span: 10 },
];

/** A re-read is kept at this recogniser confidence or more. */
const MIN_CONFIDENCE = 90;
/** At most this many crops are read per page (each ~10-30 ms). */
const MAX_READS = 8;

const hOf = (b: Blob): number => b.y1 - b.y0 + 1;

/**
 * The label's print: the extent of the ink whose centre lies in its box. A label is printed faint
 * (a dark red or grey) and its glyphs break into pieces at the ink threshold, so its height is the
 * pieces' joint extent, not a glyph's. Ink centred past the box's end (the value's first letter,
 * which a padded box reaches into) is not the label's.
 */
function labelGlyphs(g: GreyPlane, box: Rect): { top: number; bottom: number; height: number } | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y - 0.3 * box.h));
  const x1 = Math.min(g.width, Math.ceil(box.x + box.w + box.h));
  const y1 = Math.min(g.height, Math.ceil(box.y + 1.3 * box.h));
  const centred = (k: Blob): boolean => (k.x0 + k.x1) / 2 <= box.x + box.w && (k.y0 + k.y1) / 2 >= box.y && (k.y0 + k.y1) / 2 <= box.y + box.h;
  // Not specks of halftone: a piece a quarter of the box's height at least.
  const own = blobs(g, x0, y0, x1, y1).filter((k) => hOf(k) >= Math.max(3, 0.25 * box.h) && centred(k));
  if (!own.length) return null;
  const top = Math.min(...own.map((k) => k.y0));
  const bottom = Math.max(...own.map((k) => k.y1));
  return { top, bottom, height: bottom - top + 1 };
}

/**
 * The first word of value-sized ink right of the label or under it, as the crop to read: its
 * seed glyph nearest the label, then the ink on its line a letter space apart at most.
 */
export function valueWord(g: GreyPlane, box: Rect, t: Target, where: 'right' | 'below'): Rect | null {
  const lab = labelGlyphs(g, box);
  if (!lab) return null;
  const lh = lab.height;
  const right = box.x + box.w;
  const area =
    where === 'right'
      ? // A reader's box may end inside the value's first letter: the area starts a little before its end.
        { x0: right - 0.5 * lh, x1: right + t.span * lh, y0: lab.top - 2.5 * lh, y1: lab.bottom + 1.2 * lh }
      : { x0: box.x - 2 * lh, x1: right + t.span * lh, y0: lab.bottom + 0.2 * lh, y1: lab.bottom + 4.5 * lh };
  const [x0, y0] = [Math.max(0, Math.floor(area.x0)), Math.max(0, Math.floor(area.y0))];
  const [x1, y1] = [Math.min(g.width, Math.ceil(area.x1)), Math.min(g.height, Math.ceil(area.y1))];
  if (x1 - x0 < 4 || y1 - y0 < 4) return null;
  const ink = blobs(g, x0, y0, x1, y1).filter((k) => k.y0 > y0 && k.y1 < y1 - 1);
  const glyphs = ink.filter((k) => hOf(k) >= t.taller * lh && hOf(k) <= 3.5 * lh && k.x1 - k.x0 + 1 <= 2.5 * hOf(k));
  // Right of a label the value starts a word space after it; under it, at its left edge.
  const near = where === 'right' ? glyphs.filter((k) => k.x0 - right <= 2.5 * lh && (k.x0 + k.x1) / 2 > right) : glyphs.filter((k) => k.x0 <= box.x + 2 * lh);
  // Under a label, the top line of value-sized ink; its leftmost glyph starts the word.
  const top = Math.min(...near.map((k) => (k.y0 + k.y1) / 2));
  const line = where === 'right' ? near : near.filter((k) => (k.y0 + k.y1) / 2 - top <= 0.5 * hOf(k));
  const seed = [...line].sort((a, b) => a.x0 - b.x0)[0];
  if (!seed) return null;
  const gh = hOf(seed);
  const word = { x0: seed.x0, y0: seed.y0, x1: seed.x1, y1: seed.y1 };
  // Marks of the value (a height's foot and inch marks, a hyphen) are smaller than its letters: any
  // ink on the word's line joins it.
  for (const k of [...ink].sort((a, b) => a.x0 - b.x0)) {
    if (k.x1 <= word.x1 || k.y0 < seed.y0 - 0.3 * gh || k.y1 > seed.y1 + 0.3 * gh) continue;
    if (k.x0 - word.x1 > 0.9 * gh) break;
    word.x1 = k.x1;
    word.y0 = Math.min(word.y0, k.y0);
    word.y1 = Math.max(word.y1, k.y1);
  }
  return { x: word.x0 - 0.5 * gh, y: (word.y0 + word.y1) / 2 - 0.9 * gh, w: word.x1 - word.x0 + 1 + gh, h: 1.8 * gh };
}

/** Whether a reader's box is the target's label: its text, or the closed list's reading of it. */
function isLabel(b: TextBox, t: Target): boolean {
  return t.label.test(b.text.replace(/\s+/g, '').toUpperCase()) || (b.lexicon !== undefined && lexiconLabel(b.lexicon) === t.lexicon);
}

/**
 * Fields of `missing` read again from the crops their labels point at. Every label box of a field
 * found by any reader is tried, right of it, else under it; a field is taken only when every crop
 * that read its shape read the same value.
 */
export async function rereadByLabels(
  g: GreyPlane,
  words: readonly TextBox[],
  missing: ReadonlySet<string>,
  read: CropReader,
): Promise<Record<string, ProcessorField>> {
  const out: Record<string, ProcessorField> = {};
  let reads = 0;
  for (const t of REREAD_TARGETS) {
    if (!missing.has(t.field)) continue;
    const values = new Set<string>();
    for (const box of words.filter((b) => isLabel(b, t))) {
      // Value-sized ink right of the label says the card prints its values beside their labels:
      // the ink under it is then the next row's value (CLASS over END's "N"), not this one's.
      const rect = valueWord(g, box, t, 'right') ?? valueWord(g, box, t, 'below');
      if (!rect || reads >= MAX_READS) continue;
      reads++;
      const r = await read(rect);
      const text = r?.text.replace(/\s+/g, '') ?? '';
      if (r && r.confidence >= MIN_CONFIDENCE && t.value.test(text)) values.add(text);
    }
    if (values.size === 1) out[t.field] = { value: [...values][0]!, confidence: 40 };
  }
  return out;
}
