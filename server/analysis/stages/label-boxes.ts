/**
 * The OCR's boxes and rows as the label pairing reads them (label-pairing.ts, label-shapes.ts),
 * and the spans and measures both take of them.
 */
import type { LexiconReading } from './label-lexicon.js';

export interface TextBox {
  readonly text: string;
  readonly confidence: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** The box scored against the list of labels (PaddleOCR's boxes; label-lexicon.ts). */
  readonly lexicon?: LexiconReading;
}

/** A row of boxes, left to right, with the OCR's own text for it when it has one. */
export interface BoxRow {
  readonly boxes: readonly TextBox[];
  readonly text?: string;
  readonly confidence: number;
}

/** A run of boxes in one row read as one label. */
export interface Span {
  readonly row: number;
  /** Index of the first and one past the last box of the span in its row. */
  readonly from: number;
  readonly to: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly text: string;
  readonly confidence: number;
}

export const spanOf = (rows: readonly BoxRow[], row: number, from: number, to: number): Span => {
  const bs = rows[row]!.boxes.slice(from, to);
  const x = Math.min(...bs.map((b) => b.x));
  const y = Math.min(...bs.map((b) => b.y));
  return {
    row,
    from,
    to,
    x,
    y,
    w: Math.max(...bs.map((b) => b.x + b.w)) - x,
    h: Math.max(...bs.map((b) => b.y + b.h)) - y,
    text: bs.map((b) => b.text).join(' '),
    confidence: Math.min(...bs.map((b) => b.confidence)),
  };
};

export const overlapX = (a: { x: number; w: number }, b: { x: number; w: number }): number => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
export const centreY = (b: { y: number; h: number }): number => b.y + b.h / 2;

/** Where a label's value is: a run of boxes in one row. */
export interface Value {
  readonly row: number;
  readonly from: number;
  readonly to: number;
}

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
export const medianHeight = (bs: readonly TextBox[]): number => median(bs.map((b) => b.h));
