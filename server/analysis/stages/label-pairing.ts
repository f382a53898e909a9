/**
 * Pairs a printed label with its value by the OCR's geometry, whatever the card's layout. A
 * licence prints a label either before its value ("DOB 04/04/1973", "DOB: 04/04/1973") or above
 * it (small "DOB" over the date, a row of labels over a row of values). Line text alone reads
 * the second as "DOB EXP ISS" then "04/04/1973 04/04/2028 …", which no label regex can pair. Here
 * a label whose own row holds no value right after it takes the nearest box below it that is not
 * itself a label, and that value is read as one "LABEL VALUE" line. Rows without such a label keep
 * the OCR's own text, so layouts with labels beside their values read exactly as before.
 *
 * Input: rows of boxes (tesseract's lines of words, or PaddleOCR's boxes grouped into rows), in
 * reading order. A box is a word or a phrase; a label may span several boxes ("LAST" "NAME").
 */
import { placeCodes } from './code-places.js';
import { centreY, median, medianHeight, overlapX, spanOf, type BoxRow, type Span, type TextBox, type Value } from './label-boxes.js';
import { lexiconLabel } from './label-lexicon.js';
import { fieldOfLabel, pairsByShape } from './label-shapes.js';
import type { OcrLine } from './ocr.js';

export type { BoxRow, TextBox } from './label-boxes.js';

/**
 * Field labels (the AAMVA set; an AAMVA field number such as "4d" or "15" may precede one, glued
 * on as OCR often reads it: "5SEX", "9CLASS"), with a colon or full stop after them. Passport labels are left out: their reader pairs them itself.
 */
const LABEL =
  /^(?:\d{1,2}[a-z]?\s*)?(?:DOB|DATE OF BIRTH|EXP|EXPIRES|ISS|ISSUED|SEX|HGT|HEIGHT|EYES|CLASS|RSTR|RESTR|RESTRICTIONS|END|ENDORSE|ENDORSEMENTS|DD|DL|DLN|DL NO|LIC NO|LN|FN|LAST NAME|FIRST NAME|FAMILY NAME|GIVEN NAMES?)[:.]?$/i;

/**
 * A box read as a code field's label and its value ("CLASS B", "END NONE"): read whole, its value
 * beside it, so never a bare label from the closed list (the box scores close to "CLASS" alone).
 */
const LABEL_AND_VALUE = /^(?:\d{1,2}[a-z]?\s*)?(?:SEX|HGT|EYES|CLASS|RSTR|END|DD|DLN|DOB|EXP|ISS)[:.]?\s+[A-Z0-9]/;

/** Labels long enough to be known with one letter lost or misread ("RST", "CLAS", "EYFS"). */
const LONG_LABELS = ['CLASS', 'RSTR', 'RESTR', 'EYES'];

/**
 * Whether `a` is `b` with at most one letter dropped or changed. Not one added: a label with its
 * value glued on ("CLASSA", "RSTRB") is not a bare label.
 */
function oneEdit(a: string, b: string): boolean {
  if (a.length > b.length || b.length - a.length > 1) return false;
  let i = 0;
  while (i < Math.min(a.length, b.length) && a[i] === b[i]) i++;
  const [ra, rb] = [a.slice(i), b.slice(i)];
  return ra.slice(1) === rb.slice(1) || ra.slice(1) === rb || ra === rb.slice(1);
}

/** The label a text reads as: itself when it reads right, the label it garbles, or null. */
function labelOf(text: string): string | null {
  if (LABEL.test(text)) return text;
  const word = /^(?:\d{1,2}[a-z]?\s*)?([A-Z]{3,6})[:.]?$/.exec(text)?.[1];
  return (word !== undefined && LONG_LABELS.find((l) => oneEdit(word, l))) || null;
}

/** At most this many boxes make one label ("4d" "DL" "NO"). */
const MAX_LABEL_BOXES = 3;

/** Label spans of every row: the longest run of boxes (close together) that reads as a label. */
function findLabels(rows: readonly BoxRow[]): Span[] {
  const out: Span[] = [];
  rows.forEach((row, r) => {
    let i = 0;
    while (i < row.boxes.length) {
      let found: Span | null = null;
      for (let n = Math.min(MAX_LABEL_BOXES, row.boxes.length - i); n >= 1 && !found; n--) {
        const s = spanOf(rows, r, i, i + n);
        // The boxes of one label sit a word space apart, not a column apart.
        const tight = row.boxes.slice(i + 1, i + n).every((b, k) => b.x - (row.boxes[i + k]!.x + row.boxes[i + k]!.w) < 1.5 * s.h);
        // A box whose free reading is no label may still read as one from the closed list.
        const lex = n === 1 && !LABEL_AND_VALUE.test(s.text) ? row.boxes[i]!.lexicon : undefined;
        const canon = tight ? (labelOf(s.text) ?? (lex ? lexiconLabel(lex) : null)) : null;
        if (canon) found = { ...s, text: canon };
      }
      if (found) {
        out.push(found);
        i = found.to;
      } else i++;
    }
  });
  return out;
}

/**
 * The value under a bare label: the first box of a later row that starts under the label, at
 * most about a line lower, then the boxes after it in that row a word space apart, up to the
 * next label's column.
 */
function valueBelow(rows: readonly BoxRow[], label: Span, labels: readonly Span[], taken: ReadonlySet<TextBox>): Value | null {
  const isLabelBox = (r: number, i: number): boolean => labels.some((l) => l.row === r && i >= l.from && i < l.to);
  let best: { v: Value; d: number } | null = null;
  rows.forEach((row, r) => {
    row.boxes.forEach((b, i) => {
      if (taken.has(b) || isLabelBox(r, i) || (r === label.row && i >= label.from && i < label.to)) return;
      const gapY = b.y - (label.y + label.h);
      const near = gapY > -0.5 * label.h && gapY < 1.5 * Math.max(label.h, b.h);
      // Starting under the label (left-aligned or centred under it), not in the next column.
      const under = overlapX(label, b) > 0 && b.x > label.x - 1.5 * label.h;
      if (!near || !under || centreY(b) <= centreY(label)) return;
      const d = Math.max(0, gapY) + 0.25 * Math.abs(b.x - label.x);
      if (!best || d < best.d) best = { v: { row: r, from: i, to: i + 1 }, d };
    });
  });
  if (!best) return null;
  const { row, from } = (best as { v: Value }).v;
  // The next label on the label's row bounds this value's column.
  const bound = Math.min(
    ...labels.filter((l) => l !== label && l.x > label.x && Math.abs(centreY(l) - centreY(label)) < 0.5 * Math.min(l.h, label.h)).map((l) => l.x),
  );
  const boxes = rows[row]!.boxes;
  let to = from + 1;
  while (to < boxes.length) {
    const [prev, next] = [boxes[to - 1]!, boxes[to]!];
    if (taken.has(next) || isLabelBox(row, to) || next.x >= bound || next.x - (prev.x + prev.w) > 1.2 * Math.max(prev.h, next.h)) break;
    to++;
  }
  return { row, from, to };
}

/**
 * A label is bare when no value follows it on its row: the next box is another label, or there
 * is none, or it is more than a column away.
 */
function isBare(rows: readonly BoxRow[], label: Span, labels: readonly Span[]): boolean {
  const next = rows[label.row]!.boxes[label.to];
  if (!next) return true;
  if (labels.some((l) => l.row === label.row && l.from === label.to)) return true;
  return next.x - (label.x + label.w) > 4 * label.h;
}

/** Lines for the field parser: labels printed above their values joined to them, other rows as read. */
export function pairLabels(rows: readonly BoxRow[]): OcrLine[] {
  const labels = findLabels(rows);
  const taken = new Set<TextBox>();
  // Values printed beside their label belong to it: no label above may take them.
  for (const l of labels) {
    if (isBare(rows, l, labels)) continue;
    const next = rows[l.row]!.boxes[l.to];
    if (next) taken.add(next);
  }
  const pairs: { label: Span; value: Value }[] = [];
  // Top to bottom: a label takes the value under it before a label further down could.
  for (const label of [...labels].sort((a, b) => a.y - b.y || a.x - b.x)) {
    if (!isBare(rows, label, labels)) continue;
    const value = valueBelow(rows, label, labels, taken);
    if (!value) continue;
    for (const b of rows[value.row]!.boxes.slice(value.from, value.to)) taken.add(b);
    pairs.push({ label, value });
  }
  // Codes whose labels went unread, named by their place and shape where only one reading fits
  // (code-places.ts), before the scores of their unreadable label boxes are weighed.
  // A box taken for a label only by the closed list's scores, with no value found for it, names
  // no field read: it may be a code itself (a bold "M" scored closest to SEX).
  const guessed = (l: Span): boolean =>
    isBare(rows, l, labels) && !pairs.some((p) => p.label === l) && labelOf(spanOf(rows, l.row, l.from, l.to).text) === null;
  const kept = labels.filter((l) => !guessed(l));
  // A code field's label with a box beside it that is no value of that field ("15 SEX" then the
  // garbled "16 HGT") has not had its value read.
  const besideFits = (l: Span): boolean => {
    const next = rows[l.row]!.boxes[l.to];
    const shape = CODE_SHAPES[fieldOfLabel(l.text)];
    return isBare(rows, l, labels) || !shape || (next !== undefined && shape.test(next.text));
  };
  const named = new Set(kept.filter(besideFits).map((l) => fieldOfLabel(l.text)));
  const labelBoxes = new Set(kept.flatMap((l) => rows[l.row]!.boxes.slice(l.from, l.to)));
  for (const c of placeCodes(rows, named, taken, labelBoxes)) {
    taken.add(rows[c.row]!.boxes[c.i]!);
    pairs.push({ label: { ...spanOf(rows, c.row, c.i, c.i + 1), text: c.field }, value: { row: c.row, from: c.i, to: c.i + 1 } });
  }
  const shaped = pairsByShape(rows, labels, taken, new Set(pairs.map((p) => p.label.text)));
  // What the label boxes' scores named leaves fewer fields free: a code left alone is named now.
  for (const c of placeCodes(rows, new Set([...named, ...pairs.map((p) => p.label.text), ...shaped.map((p) => p.label.text)]), taken, labelBoxes)) {
    taken.add(rows[c.row]!.boxes[c.i]!);
    shaped.push({ label: { ...spanOf(rows, c.row, c.i, c.i + 1), text: c.field }, value: { row: c.row, from: c.i, to: c.i + 1 } });
  }
  const crosswise = outOfOrder(rows, pairs, shaped);
  pairs.push(...shaped.filter((p) => !crosswise.includes(p)));
  const unread = unreadLabelRows(rows);
  const renamed = besideRenamed(rows, labels, pairs);
  if (pairs.length === 0)
    return rows.map((row, r) => (unread.has(r) ? null : (renamed.get(r) ?? rowLine(row)))).filter((l): l is OcrLine => l !== null && Boolean(l.text));

  const moved = new Set<TextBox>();
  for (const { label, value } of pairs) {
    for (const b of rows[label.row]!.boxes.slice(label.from, label.to)) moved.add(b);
    for (const b of rows[value.row]!.boxes.slice(value.from, value.to)) moved.add(b);
  }
  const out: OcrLine[] = [];
  rows.forEach((row, r) => {
    if (unread.has(r)) return;
    // Pairs go where their value was, left to right, before what is left of that row.
    const here = pairs.filter((p) => p.value.row === r).sort((a, b) => row.boxes[a.value.from]!.x - row.boxes[b.value.from]!.x);
    for (const { label, value } of here) {
      const vs = row.boxes.slice(value.from, value.to);
      out.push({
        text: `${label.text} ${vs.map((b) => b.text).join(' ')}`,
        confidence: Math.min(label.confidence, ...vs.map((b) => b.confidence)),
        height: medianHeight(vs),
      });
    }
    const rest = row.boxes.filter((b) => !moved.has(b));
    if (rest.length === row.boxes.length) out.push(renamed.get(r) ?? rowLine(row));
    else if (rest.length)
      out.push({ text: rest.map((b) => b.text).join(' '), confidence: Math.min(...rest.map((b) => b.confidence)), height: medianHeight(rest) });
  });
  return out.filter((l) => l.text);
}

type Pair = { label: Span; value: Value };

/**
 * Shape pairings (label-shapes.ts), and the codes named by place only once they were made, that
 * put the class after a restriction or an endorsement in reading order: cards print the class
 * first (AAMVA numbers them 9, 9a, 12; code-places.ts), and the closed list scores a 5-7 px label
 * box closer to the shorter labels than to CLASS whatever is printed there (dev-variant 27: the
 * class E paired as restrictions, then the restrictions AB left alone named the class). Which one
 * is wrong is not known: both are left unread (a wrong value is worse than a missing one); a
 * label that was read, or a code its place alone named, keeps its value.
 */
function outOfOrder(rows: readonly BoxRow[], known: readonly Pair[], shaped: readonly Pair[]): Pair[] {
  const at = (p: Pair): number => p.value.row * 1e6 + rows[p.value.row]!.boxes[p.value.from]!.x;
  const all = [...known, ...shaped];
  const field = (p: Pair): string => fieldOfLabel(p.label.text);
  const out = new Set<Pair>();
  for (const c of all.filter((p) => field(p) === 'CLASS'))
    for (const r of all.filter((p) => (field(p) === 'RSTR' || field(p) === 'END') && at(p) < at(c))) for (const p of [c, r]) if (shaped.includes(p)) out.add(p);
  return [...out];
}

/**
 * Rows holding a label known only garbled ("12 BSTR NONE": RSTR with one letter misread) with
 * its value right after it, rewritten with the label's own name: the field parser reads labels by their spelling, and the pairing had already named
 * this one. Rows with a label paired above a value are left to the pairing.
 */
function besideRenamed(rows: readonly BoxRow[], labels: readonly Span[], pairs: readonly { label: Span }[]): Map<number, OcrLine> {
  const out = new Map<number, OcrLine>();
  rows.forEach((row, r) => {
    const here = labels.filter((l) => l.row === r && !isBare(rows, l, labels) && !pairs.some((p) => p.label === l));
    // Only labels known by their spelling with a letter misread: a box named from the closed
    // list alone may be a value ("M" scored as SEX beside the SEX label).
    const garbled = here.filter((l) => {
      const raw = spanOf(rows, r, l.from, l.to).text;
      return !LABEL.test(raw) && labelOf(raw) !== null;
    });
    if (!garbled.length) return;
    const words = row.boxes.map((b, i) => {
      const l = garbled.find((g) => i >= g.from && i < g.to);
      if (!l) return b.text;
      return i === l.from ? l.text : '';
    });
    out.set(r, { text: words.filter(Boolean).join(' '), confidence: row.confidence, height: medianHeight(row.boxes) });
  });
  return out;
}

/** The shapes of the code fields' values: a box of another shape beside such a label is not its value. */
const CODE_SHAPES: Readonly<Record<string, RegExp>> = {
  SEX: /^[MFX]$/,
  CLASS: /^[A-Z0-9]{1,2}$/,
  RSTR: /^(?:NONE|[A-Z0-9]{1,4}(?:,?[A-Z0-9]{1,4})*)$/,
  END: /^(?:NONE|[A-Z0-9]{1,5})$/,
};

/**
 * Rows of small print right above a row of larger print holding no value (no run of digits, no
 * date, not read with confidence), once the labels read in them went to their values: the labels printed above their values that the OCR garbled ("3 PRY MANE"
 * for "1 FAMILY NAME"). Left in, they sit between the values and break the order the parser
 * reads a licence's name and address by; their values are read from the rows under them.
 */
function unreadLabelRows(rows: readonly BoxRow[]): Set<number> {
  const out = new Set<number>();
  rows.forEach((row, r) => {
    // A word read with confidence is a value, whatever its size ("w« NGUYEN": a garbled field number).
    if (!row.boxes.length || median(row.boxes.map((b) => b.confidence)) >= 90 || /\d{4}|\d[/.-]\d/.test(row.boxes.map((b) => b.text).join(' '))) return;
    const h = median(row.boxes.map((b) => b.h));
    const bottom = Math.max(...row.boxes.map((b) => b.y + b.h));
    const left = Math.min(...row.boxes.map((b) => b.x));
    const right = Math.max(...row.boxes.map((b) => b.x + b.w));
    const below = rows.find((o) => {
      if (o === row || !o.boxes.length) return false;
      const top = Math.min(...o.boxes.map((b) => b.y));
      const spans = Math.min(right, Math.max(...o.boxes.map((b) => b.x + b.w))) - Math.max(left, Math.min(...o.boxes.map((b) => b.x)));
      // Below it (PaddleOCR's boxes are padded, so they may overlap it), at most a line lower.
      const centre = (top + Math.max(...o.boxes.map((b) => b.y + b.h))) / 2;
      return centre > bottom && top - bottom < 1.2 * h && spans > 0;
    });
    if (below && median(below.boxes.map((b) => b.h)) > 1.35 * h) out.add(r);
  });
  return out;
}

function rowLine(row: BoxRow): OcrLine {
  const text = (row.text ?? row.boxes.map((b) => b.text).join(' ')).replace(/\s+/g, ' ').trim();
  return row.boxes.length ? { text, confidence: row.confidence, height: medianHeight(row.boxes) } : { text, confidence: row.confidence };
}
