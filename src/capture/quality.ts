import { ID1_CARD, type DocumentShape } from './document-shape.js';

/**
 * Document capture quality checks as pure functions over RGBA pixels (an `ImageData` or the
 * same shape). The camera loop downsizes each frame (about 480 px wide) with a canvas and calls
 * {@link assessFrame}; tests call the functions on images with known answers.
 *
 * Issues are ranked like Onfido's SDK (cut-off before glare before blur), with exposure first
 * because a dark frame hides every other problem.
 */

/** RGBA pixels, row-major (like `ImageData`). */
export interface Pixels {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/** A rectangle in pixels of the analysed frame. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Capture problems, in rank order (first is the one the user is told about). */
export const CAPTURE_ISSUES = ['TOO_DARK', 'TOO_BRIGHT', 'NO_DOCUMENT', 'CUTOFF_DETECTED', 'TOO_FAR', 'GLARE_DETECTED', 'BLUR_DETECTED'] as const;
/** One of {@link CAPTURE_ISSUES}. */
export type CaptureIssue = (typeof CAPTURE_ISSUES)[number];

/** Tunable limits (defaults measured on the test images in `test/src/capture`). */
export interface QualityThresholds {
  /** Laplacian variance below this is blurred. */
  minBlurVariance: number;
  /**
   * Share of glare pixels inside the document above this is glare. A glare pixel is near-white
   * (luma >= 250) and clearly brighter than the document's own paper (its median luma + 12): a
   * specular highlight over content, not white card stock or a white page (issue 20).
   */
  maxGlareRatio: number;
  /** Mean luma below this is too dark. */
  minMeanLuma: number;
  /** Share of near-white pixels in the whole frame above this is over-exposed. */
  maxSaturatedFrameRatio: number;
  /** Smallest document area as a share of the frame. */
  minDocumentArea: number;
  /** Gradient step (0..255) that counts as an edge. */
  edgeStep: number;
}

/** The default thresholds. */
export const DEFAULT_THRESHOLDS: QualityThresholds = {
  minBlurVariance: 120,
  maxGlareRatio: 0.02,
  minMeanLuma: 50,
  maxSaturatedFrameRatio: 0.35,
  minDocumentArea: 0.2,
  edgeStep: 24,
};

/** Where the document is, and whether it is whole. */
export interface DocumentFinding {
  /** At least one corner (a horizontal and a vertical border) was seen. */
  found: boolean;
  /** A border is missing or touches the frame edge: part of the document is outside. */
  cutOff: boolean;
  /** Which borders were seen. */
  sides: { top: boolean; bottom: boolean; left: boolean; right: boolean };
  /** The document's box (frame edges stand in for missing borders). */
  box: Box;
}

/** Everything measured on one frame. */
export interface QualityReport {
  blurVariance: number;
  glareRatio: number;
  meanLuma: number;
  saturatedRatio: number;
  document: DocumentFinding;
  /** Problems found, in rank order; empty when the frame is good. */
  issues: CaptureIssue[];
}

/** Luma (BT.601) of each pixel, 0..255. */
export function toLuma(pixels: Pixels): Uint8Array {
  const { data, width, height } = pixels;
  const out = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += 4) {
    out[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
  }
  return out;
}

function clampBox(box: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.min(width - 1, Math.round(box.x)));
  const y = Math.max(0, Math.min(height - 1, Math.round(box.y)));
  return {
    x,
    y,
    width: Math.max(1, Math.min(width - x, Math.round(box.width))),
    height: Math.max(1, Math.min(height - y, Math.round(box.height))),
  };
}

/** Variance of the 4-neighbour Laplacian over `region` (sharpness: higher is sharper). */
export function laplacianVariance(luma: Uint8Array, width: number, height: number, region?: Box): number {
  const r = clampBox(region ?? { x: 0, y: 0, width, height }, width, height);
  const x0 = Math.max(1, r.x);
  const y0 = Math.max(1, r.y);
  const x1 = Math.min(width - 1, r.x + r.width);
  const y1 = Math.min(height - 1, r.y + r.height);
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    const row = y * width;
    for (let x = x0; x < x1; x++) {
      const i = row + x;
      const lap = luma[i - 1]! + luma[i + 1]! + luma[i - width]! + luma[i + width]! - 4 * luma[i]!;
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/** Share of pixels in `region` with luma >= `level`. */
export function saturatedRatio(luma: Uint8Array, width: number, height: number, region?: Box, level = 250): number {
  const r = clampBox(region ?? { x: 0, y: 0, width, height }, width, height);
  let count = 0;
  for (let y = r.y; y < r.y + r.height; y++) {
    const row = y * width;
    for (let x = r.x; x < r.x + r.width; x++) if (luma[row + x]! >= level) count++;
  }
  return count / (r.width * r.height);
}

/** Median luma of `region`, 0..255 (the paper's own level on a document). */
export function medianLuma(luma: Uint8Array, width: number, height: number, region?: Box): number {
  const r = clampBox(region ?? { x: 0, y: 0, width, height }, width, height);
  const histogram = new Uint32Array(256);
  for (let y = r.y; y < r.y + r.height; y++) {
    const row = y * width;
    for (let x = r.x; x < r.x + r.width; x++) histogram[luma[row + x]!]!++;
  }
  const half = (r.width * r.height) / 2;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= half) return v;
  }
  return 255;
}

/** Mean luma, 0..255. */
export function meanLuma(luma: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < luma.length; i++) sum += luma[i]!;
  return luma.length ? sum / luma.length : 0;
}

/**
 * Finds the document's borders as long straight edges: for each row the longest run of pixels
 * with a strong vertical step (a horizontal border), for each column the same across (a vertical
 * border). Borders are the outermost runs long enough to span most of the document (which rules
 * out the photo and text lines printed on it); a missing border, or one at the frame's edge,
 * means part of the document is outside the frame.
 */
export function findDocument(luma: Uint8Array, width: number, height: number, edgeStep = DEFAULT_THRESHOLDS.edgeStep): DocumentFinding {
  const rowRun = new Uint16Array(height);
  for (let y = 1; y < height - 1; y++) {
    let run = 0;
    let best = 0;
    const above = (y - 1) * width;
    const below = (y + 1) * width;
    for (let x = 0; x < width; x++) {
      run = Math.abs(luma[below + x]! - luma[above + x]!) >= edgeStep ? run + 1 : 0;
      if (run > best) best = run;
    }
    rowRun[y] = best;
  }
  const colRun = new Uint16Array(width);
  for (let x = 1; x < width - 1; x++) {
    let run = 0;
    let best = 0;
    for (let y = 0, i = x; y < height; y++, i += width) {
      run = Math.abs(luma[i + 1]! - luma[i - 1]!) >= edgeStep ? run + 1 : 0;
      if (run > best) best = run;
    }
    colRun[x] = best;
  }
  const outermost = (runs: Uint16Array, min: number): [number, number] => {
    let first = -1;
    let last = -1;
    for (let i = 0; i < runs.length; i++) {
      if (runs[i]! >= min) {
        if (first < 0) first = i;
        last = i;
      }
    }
    return [first, last];
  };
  // First pass: generous minimum lengths.
  let [top, bottom] = outermost(rowRun, width * 0.2);
  let [left, right] = outermost(colRun, height * 0.12);
  // Second pass: a border spans most of the distance between the opposite borders.
  if (top >= 0 && bottom - top >= height * 0.15) [left, right] = outermost(colRun, Math.max(height * 0.12, 0.7 * (bottom - top)));
  if (left >= 0 && right - left >= width * 0.15) [top, bottom] = outermost(rowRun, Math.max(width * 0.2, 0.7 * (right - left)));

  const margin = Math.max(2, Math.round(Math.min(width, height) * 0.015));
  const pair = (first: number, last: number, size: number): { start: boolean; end: boolean; a: number; b: number } => {
    if (first < 0) return { start: false, end: false, a: 0, b: size - 1 };
    if (last - first < size * 0.15) {
      // One border only: which one depends on the side of the frame it is on.
      return first < size / 2 ? { start: first > margin, end: false, a: first, b: size - 1 } : { start: false, end: last < size - 1 - margin, a: 0, b: last };
    }
    return { start: first > margin, end: last < size - 1 - margin, a: first, b: last };
  };
  const v = pair(top, bottom, height);
  const h = pair(left, right, width);
  const sides = { top: v.start, bottom: v.end, left: h.start, right: h.end };
  const found = (sides.top || sides.bottom) && (sides.left || sides.right);
  return {
    found,
    cutOff: found && !(sides.top && sides.bottom && sides.left && sides.right),
    sides,
    box: { x: h.a, y: v.a, width: Math.max(1, h.b - h.a), height: Math.max(1, v.b - v.a) },
  };
}

/**
 * A passport's data page within what {@link findDocument} saw (issue 20). Its left, right and
 * bottom edges are the booklet's; its top is the fold, often without a clear edge, with the other
 * page (and beyond the frame, the booklet's top) above it. So the page is placed from its bottom
 * edge and width by its aspect ratio, and it is whole when those three borders were seen and its
 * top falls inside the frame.
 */
export function passportPage(found: DocumentFinding, width: number, height: number, shape: DocumentShape): DocumentFinding {
  const { sides, box } = found;
  const sideSeen = sides.left || sides.right;
  // Side borders without the bottom one: the MRZ edge is out of the frame.
  if (!sides.bottom || !sideSeen) return { ...found, found: found.found || sideSeen, cutOff: found.found || sideSeen };
  const pageHeight = box.width / shape.aspect;
  const top = box.y + box.height - pageHeight;
  const margin = Math.max(2, Math.round(Math.min(width, height) * 0.015));
  const whole = sides.left && sides.right && top > margin;
  return {
    found: true,
    cutOff: !whole,
    sides: { ...sides, top: top > margin },
    box: { x: box.x, y: Math.max(0, top), width: box.width, height: Math.min(pageHeight, box.y + box.height) },
  };
}

/** Measures one frame for a document of `shape` (an ID-1 card by default) and lists its problems in rank order. */
export function assessFrame(pixels: Pixels, thresholds: QualityThresholds = DEFAULT_THRESHOLDS, shape: DocumentShape = ID1_CARD): QualityReport {
  const { width, height } = pixels;
  const luma = toLuma(pixels);
  const mean = meanLuma(luma);
  const saturated = saturatedRatio(luma, width, height);
  const seen = findDocument(luma, width, height, thresholds.edgeStep);
  const document = shape.kind === 'passport_page' ? passportPage(seen, width, height, shape) : seen;
  // Inside the borders (inset a little so the border itself does not count as detail or glare).
  const inset = document.found
    ? {
        x: document.box.x + document.box.width * 0.04,
        y: document.box.y + document.box.height * 0.04,
        width: document.box.width * 0.92,
        height: document.box.height * 0.92,
      }
    : undefined;
  // Sharpness where the document must be read: a passport's MRZ band, a card's whole face.
  const sharpRegion =
    inset && shape.sharpBand < 1 ? { ...inset, y: inset.y + inset.height * (1 - shape.sharpBand), height: inset.height * shape.sharpBand } : inset;
  const blurVariance = laplacianVariance(luma, width, height, sharpRegion);
  const paper = inset ? medianLuma(luma, width, height, inset) : 255;
  const glareRatio = saturatedRatio(luma, width, height, inset, Math.max(250, paper + 12));
  const issues: CaptureIssue[] = [];
  if (mean < thresholds.minMeanLuma) issues.push('TOO_DARK');
  if (saturated > thresholds.maxSaturatedFrameRatio) issues.push('TOO_BRIGHT');
  if (!document.found) issues.push('NO_DOCUMENT');
  else {
    if (document.cutOff) issues.push('CUTOFF_DETECTED');
    else if ((document.box.width * document.box.height) / (width * height) < thresholds.minDocumentArea) issues.push('TOO_FAR');
    if (glareRatio > thresholds.maxGlareRatio) issues.push('GLARE_DETECTED');
  }
  if (blurVariance < thresholds.minBlurVariance) issues.push('BLUR_DETECTED');
  return { blurVariance, glareRatio, meanLuma: mean, saturatedRatio: saturated, document, issues };
}

/**
 * Counts consecutive good frames and says when to take the picture automatically.
 * `required` good frames in a row trigger a capture once; any bad frame resets the count.
 */
export class AutoCapture {
  private streak = 0;
  private fired = false;

  constructor(readonly required = 5) {}

  /** Feeds one report; true exactly once, when the streak reaches `required`. */
  push(report: QualityReport): boolean {
    if (report.issues.length > 0) {
      this.streak = 0;
      return false;
    }
    this.streak += 1;
    if (this.streak >= this.required && !this.fired) {
      this.fired = true;
      return true;
    }
    return false;
  }

  /** Good frames in a row so far. */
  get goodFrames(): number {
    return this.streak;
  }

  /** Starts over (e.g. for the back side). */
  reset(): void {
    this.streak = 0;
    this.fired = false;
  }
}
