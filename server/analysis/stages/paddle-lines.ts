/**
 * Turns PaddleOCR's text boxes into the lines the printed-field parser reads: boxes joined into
 * rows by their vertical centres, left to right, as tesseract's lines are, then a label printed
 * above its value paired with it by geometry (label-pairing.ts), as for tesseract's words.
 */
import { pairLabels, type BoxRow, type TextBox } from './label-pairing.js';
import type { OcrResult } from './ocr.js';
import type { PaddleBox } from './paddle.js';

const centreY = (b: TextBox): number => b.y + b.h / 2;
const sameRow = (a: TextBox, b: TextBox): boolean => Math.abs(centreY(a) - centreY(b)) < 0.5 * Math.min(a.h, b.h);

/** Lines (top to bottom, each left to right) built from the boxes, labels joined to their values. */
export function boxesToLines(boxes: readonly PaddleBox[]): OcrResult {
  const groups: TextBox[][] = [];
  for (const b of [...boxes].sort((p, q) => centreY(p) - centreY(q))) {
    const row = groups.find((r) => r.some((o) => sameRow(o, b)));
    if (row) row.push(b);
    else groups.push([b]);
  }
  const rows: BoxRow[] = groups
    .map((r) => r.sort((a, b) => a.x - b.x))
    .sort((a, b) => centreY(a[0]!) - centreY(b[0]!))
    .map((r) => ({ boxes: r, confidence: Math.min(...r.map((b) => b.confidence)) }));
  const lines = pairLabels(rows);
  const confidence = lines.length ? Math.round(lines.reduce((s, l) => s + l.confidence, 0) / lines.length) : 0;
  return { text: lines.map((l) => l.text).join('\n'), lines, confidence, boxes };
}
