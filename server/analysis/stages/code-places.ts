/**
 * Short code values whose labels went unread, named by their place and shape instead. A licence
 * printing its labels above its values in 5-7 px print (labels the recogniser cannot read, nor
 * score against the closed list: docs/analysis.md) still prints sex, class, restrictions and
 * endorsements as values of their own shapes in the rows of short codes beside the height and
 * eye colour: sex is the one M/F/X among them, NONE is only restrictions or endorsements, and
 * class comes before both (AAMVA numbers them 9, 9a, 12; every card design seen prints class
 * first). A value is named only when every assignment of the row's codes to the fields still
 * free that these rules allow gives it the same field: a page with a code left over that fits
 * more than one field names nothing (a wrong value is worse than a missing one).
 */
import type { BoxRow, TextBox } from './label-pairing.js';
import { EYE_CODES } from './garbled-labels.js';

/** A code value named by its place: the field, and the box in its row. */
export interface PlacedCode {
  readonly field: 'SEX' | 'CLASS' | 'RSTR' | 'END';
  readonly row: number;
  readonly i: number;
}

/**
 * A height as printed (5'-09", 6-02, 4'11", 6'-0 0"): the anchor of the row of codes. The foot
 * mark, a small tick, is read as any tick or accent (PaddleOCR's "5`06\"", dev-variant 19), as
 * the field parser takes it (printed-codes.ts).
 */
const HEIGHT = /^\d\s*['’‘`´"-]\s*-?\s*\d ?\d(?!\d)/;
const EYES = new RegExp(`^(?:${EYE_CODES.join('|')})$`);
/** A code value: NONE, or one or two letters (a class "C" or "CM", a restriction "AB", an endorsement "T"). */
const CODE = /^(?:NONE|[A-Z]{1,2})$/;
/** A box read as a code field's label with its value ("CLASS C", "RSTR NONE"): its field is read already. */
const LABELLED = /^(?:\d{1,2}[a-z]?\s*)?(SEX|CLASS|RSTR|RESTR|END)\b[:.]?\s*\S/;
/** Below this confidence a short box is as likely a label's debris as a value. */
const MIN_CONFIDENCE = 50;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
/** Whether `a` lies inside `b` (a second, smaller reading of part of a value). */
const within = (a: TextBox, b: TextBox): boolean => a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.w <= b.x + b.w + 1 && a.y + a.h <= b.y + b.h + 1;

/**
 * Codes named by place. `used`: fields already labelled on the page; `taken`: boxes already paired
 * (they may still anchor a row); `labelBoxes`: boxes read as labels.
 */
export function placeCodes(rows: readonly BoxRow[], used: ReadonlySet<string>, taken: ReadonlySet<TextBox>, labelBoxes: ReadonlySet<TextBox>): PlacedCode[] {
  const all = rows.flatMap((r) => r.boxes);
  const pageH = median(all.map((b) => b.h));
  const done = new Set(used);
  for (const b of all) {
    const f = LABELLED.exec(b.text)?.[1];
    if (f) done.add(f === 'RESTR' ? 'RSTR' : f);
  }
  // Rows of the page's value print (not a row of small labels) holding a height or an eye colour.
  const valueRow = (r: BoxRow): boolean => median(r.boxes.map((b) => b.h)) >= 0.7 * pageH;
  const anchored = (r: BoxRow): boolean => r.boxes.some((b) => HEIGHT.test(b.text) || EYES.test(b.text) || /^(?:HGT|EYES)\s/.test(b.text));
  const codeRow = (r: BoxRow): boolean => anchored(r) || r.boxes.some((b) => b.text === 'NONE' || LABELLED.test(b.text));
  // Of two boxes of one place (a value read twice), the first is kept.
  const inside = (b: TextBox): boolean => all.some((o, k) => o !== b && within(b, o) && (!within(o, b) || k < all.indexOf(b)));
  const free = (b: TextBox): boolean => !taken.has(b) && !labelBoxes.has(b) && CODE.test(b.text) && b.confidence >= MIN_CONFIDENCE && !inside(b);
  const out: PlacedCode[] = [];

  // Sex: an M/F/X right beside the height in its row (cards print SEX next to HGT); a class M
  // sits further along the same row on some cards, so without a height read nothing is named.
  if (!done.has('SEX')) {
    const found: { row: number; i: number }[] = [];
    rows.forEach((r, row) => {
      if (!valueRow(r)) return;
      // Neighbours in the row, a value read twice counted once.
      const seen = r.boxes.map((b, i) => ({ b, i })).filter(({ b }) => !inside(b));
      const h = seen.findIndex(({ b }) => HEIGHT.test(b.text));
      if (h < 0) return;
      for (const k of [h - 1, h + 1]) {
        const n = seen[k];
        if (n && free(n.b) && /^[MFX]$/.test(n.b.text)) found.push({ row, i: n.i });
      }
    });
    if (found.length === 1) {
      out.push({ field: 'SEX', row: found[0]!.row, i: found[0]!.i });
      done.add('SEX');
    }
  }

  // Class, restrictions and endorsements: the codes left in the rows of codes.
  // Sex stays a choice for an M/F/X its place did not name: a lone F may be the sex beside a class M.
  const fields = (['SEX', 'CLASS', 'RSTR', 'END'] as const).filter((f) => !done.has(f));
  const cands: { row: number; i: number; text: string }[] = [];
  rows.forEach((r, row) => {
    if (!valueRow(r) || !codeRow(r)) return;
    r.boxes.forEach((b, i) => {
      if (free(b) && !out.some((o) => o.row === row && o.i === i)) cands.push({ row, i, text: b.text });
    });
  });
  // More codes than free fields: one of them is no value (a label's debris); nothing is named.
  if (!cands.length || cands.length > fields.length) return out;
  // Reading order (rows top to bottom, then left to right) of the candidates and of the boxes whose
  // field is read already: class comes before restrictions and endorsements.
  const at = (row: number, i: number): number => row * 1e6 + rows[row]!.boxes[i]!.x;
  const known = (f: string): number[] =>
    rows.flatMap((r, row) => r.boxes.flatMap((b, i) => (LABELLED.exec(b.text)?.[1]?.replace('RESTR', 'RSTR') === f ? [at(row, i)] : [])));
  const knownClass = known('CLASS');
  const knownLater = [...known('RSTR'), ...known('END')];
  const readings: Map<string, string>[] = [];
  const assign = (k: number, left: readonly string[], got: Map<string, { text: string; pos: number }>): void => {
    if (k === cands.length) {
      const cls = got.get('CLASS');
      const later = [...got.entries()].filter(([f]) => f === 'RSTR' || f === 'END').map(([, v]) => v.pos);
      if (cls && [...later, ...knownLater].some((p) => p < cls.pos)) return;
      if (knownClass.some((p) => later.some((q) => q < p))) return;
      readings.push(new Map([...got].map(([f, v]) => [f, v.text])));
      return;
    }
    const c = cands[k]!;
    for (const f of left) {
      if ((f === 'CLASS' && c.text === 'NONE') || (f === 'SEX' && !/^[MFX]$/.test(c.text))) continue;
      got.set(f, { text: c.text, pos: at(c.row, c.i) });
      assign(
        k + 1,
        left.filter((x) => x !== f),
        got,
      );
      got.delete(f);
    }
  };
  assign(0, fields, new Map());
  for (const f of fields) {
    const texts = new Set(readings.map((m) => m.get(f)));
    const text = readings[0]?.get(f);
    if (text === undefined || texts.size !== 1) continue;
    // Two NONE: which is which does not change what is read; the first left is taken.
    const c = cands.find((x) => x.text === text && !out.some((o) => o.row === x.row && o.i === x.i));
    if (c) out.push({ field: f, row: c.row, i: c.i });
  }
  return out;
}
