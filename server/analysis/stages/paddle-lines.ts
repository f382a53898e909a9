/**
 * Turns PaddleOCR's text boxes into the lines the printed-field parser reads. A licence prints
 * a label either before its value ("DOB 04/04/1973") or above it (small "DOB" over the date):
 * a box holding a bare label is paired by geometry with the box to its right on the same row
 * or the box just below it, whichever is nearer, and read as one "LABEL VALUE" line. The other
 * boxes are joined into rows by their vertical centres, left to right, as tesseract's lines are.
 */
import type { OcrLine, OcrResult } from './ocr.js';
import type { PaddleBox } from './paddle.js';

/**
 * A box that is only a label (an AAMVA field number may precede it). Labels of one or two
 * letters (LN, FN, DD) stay bare only when the box is that short: a longer box is a value.
 */
const BARE_LABEL =
  /^(?:\d{1,2}[a-z]?\s*)?(?:DOB|DATE OF BIRTH|EXP|EXPIRES|ISS|ISSUED|SEX|HGT|HEIGHT|EYES|CLASS|RSTR|RESTR|END|ENDORSE|DD|DL|DLN|DL NO|LIC NO|LN|FN|LAST NAME|FIRST NAME|FAMILY NAME|GIVEN NAMES?)[:.]?$/i;

interface Item {
  text: string;
  confidence: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

const centreY = (b: Item): number => b.y + b.h / 2;
const overlapX = (a: Item, b: Item): number => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
const sameRow = (a: Item, b: Item): boolean => Math.abs(centreY(a) - centreY(b)) < 0.5 * Math.min(a.h, b.h);

/** The value box a bare label names: right of it on its row, or under it; null when neither is near. */
function valueFor(label: Item, boxes: readonly Item[], taken: ReadonlySet<Item>): Item | null {
  let best: { box: Item; d: number } | null = null;
  for (const b of boxes) {
    if (b === label || taken.has(b) || BARE_LABEL.test(b.text)) continue;
    let d = Infinity;
    const gapX = b.x - (label.x + label.w);
    if (sameRow(label, b) && gapX > -0.3 * label.h && gapX < 3 * label.h) d = Math.max(0, gapX);
    const gapY = b.y - (label.y + label.h);
    // Under it: starting within the label's width and at most a value's height lower.
    if (gapY > -0.5 * label.h && gapY < 1.2 * b.h && overlapX(label, b) > 0 && b.x > label.x - label.h)
      d = Math.min(d, Math.max(0, gapY) + Math.abs(b.x - label.x) * 0.25);
    if (d < (best?.d ?? Infinity)) best = { box: b, d };
  }
  return best?.box ?? null;
}

/** Lines (top to bottom, each left to right) built from the boxes, labels joined to their values. */
export function boxesToLines(boxes: readonly PaddleBox[]): OcrResult {
  const items: Item[] = boxes.map((b) => ({ ...b }));
  const taken = new Set<Item>();
  const merged: Item[] = [];
  // Larger labels first would not matter; top-to-bottom keeps a value from going to a label below it.
  for (const label of [...items].sort((a, b) => a.y - b.y || a.x - b.x)) {
    if (taken.has(label) || !BARE_LABEL.test(label.text)) continue;
    const value = valueFor(label, items, taken);
    if (!value) continue;
    taken.add(label).add(value);
    merged.push({
      text: `${label.text} ${value.text}`,
      confidence: Math.min(label.confidence, value.confidence),
      x: Math.min(label.x, value.x),
      y: value.y,
      w: Math.max(label.x + label.w, value.x + value.w) - Math.min(label.x, value.x),
      h: value.h,
    });
  }
  const rest = [...merged, ...items.filter((b) => !taken.has(b))].sort((a, b) => centreY(a) - centreY(b));
  const rows: Item[][] = [];
  for (const b of rest) {
    const row = rows.find((r) => r.some((o) => sameRow(o, b)));
    if (row) row.push(b);
    else rows.push([b]);
  }
  const lines: OcrLine[] = rows
    .map((r) => r.sort((a, b) => a.x - b.x))
    .sort((a, b) => centreY(a[0]!) - centreY(b[0]!))
    .map((r) => ({ text: r.map((b) => b.text).join(' '), confidence: Math.min(...r.map((b) => b.confidence)) }));
  const confidence = lines.length ? Math.round(lines.reduce((s, l) => s + l.confidence, 0) / lines.length) : 0;
  return { text: lines.map((l) => l.text).join('\n'), lines, confidence };
}
