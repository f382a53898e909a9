/**
 * Capture quality: blur (variance of the Laplacian), exposure, glare and cut-off. A poor image
 * fails the job with a specific reason; when several apply they are ranked
 * cut-off > glare > blur > exposure (the order Onfido's capture SDK uses, house-style.md).
 * Only an image with no usable exposure is refused before reading; a cut-off edge (often a
 * finger or a corner over the frame's border), glare, blur and a poor exposure refuse a capture
 * only when its fields cannot be read ({@link fieldsReadable}, issue 20): a genuine user refused
 * is as bad as a forgery accepted. Exposure is judged after normalising: a dim or bright photo
 * whose contrast can be stretched back is not badly exposed, whatever its mean brightness.
 */
import { fitRaster, laplacianVariance, toGrey, type GreyPlane, type Raster } from '../raster.js';
import { growQuad, type Point, type Quad } from '../warp.js';

/** Closed set of quality failures. */
export const QualityIssue = {
  Cutoff: 'CUTOFF_DETECTED',
  Glare: 'GLARE_DETECTED',
  Blur: 'BLUR_DETECTED',
  UnderExposed: 'UNDEREXPOSED',
  OverExposed: 'OVEREXPOSED',
} as const;
export type QualityIssue = (typeof QualityIssue)[keyof typeof QualityIssue];

const RANK: readonly QualityIssue[] = [QualityIssue.Cutoff, QualityIssue.Glare, QualityIssue.Blur, QualityIssue.UnderExposed, QualityIssue.OverExposed];

const MESSAGES: Record<QualityIssue, string> = {
  CUTOFF_DETECTED: 'The document is cut off: part of it is outside the image.',
  GLARE_DETECTED: 'Glare hides part of the document.',
  BLUR_DETECTED: 'The image is too blurry to read.',
  UNDEREXPOSED: 'The image is too dark.',
  OVEREXPOSED: 'The image is too bright.',
};

/** Thresholds, calibrated on the generated fixtures and checked on captures made differently (docs/analysis.md). */
export const QUALITY_THRESHOLDS = {
  /** 90th-percentile tile Laplacian variance (1000 px image) below this = blurred. */
  minSharpness: 60,
  /** Mean luma below this, or 99th percentile below `minHighlight` = dim. */
  minMeanLuma: 45,
  minHighlight: 110,
  /** Mean luma above this with a bright 5th percentile = bright. */
  maxMeanLuma: 225,
  /**
   * A dim or bright image is badly exposed only when its luma range (99th − 1st percentile) is
   * under this: with more, stretching it gives ink and paper at least this many grey levels
   * apart, which reads (dim development captures at 72-110 read their MRZ and fields; 8-bit
   * JPEG keeps that many levels). Under it the reading decides.
   */
  minLegibleRange: 40,
  /**
   * Luma range below this: nothing is left to stretch, so the image is refused for its exposure
   * without trying to read it.
   */
  minUsableRange: 24,
  /** Fraction of the image in saturated tiles next to washed-out content above this = glare. */
  maxGlareFraction: 0.008,
  /**
   * A saturated tile is part of a highlight over content when at least this share of the
   * content tiles near it are washed out (their darkest ink lifted above `washedInkFloor`).
   */
  minWashedRing: 0.3,
  washedInkFloor: 130,
  /** Median luma from which a blank tile counts as paper (for `clippedPaper`). */
  paperLuma: 180,
  /** Share of the paper blown from which the page is clipped by its exposure. */
  minClippedPaper: 0.3,
  /** Fraction of a border strip crossed by strong edges above this = content cut off. */
  maxBorderEdgeDensity: 0.04,
} as const;

export interface QualityMetrics {
  readonly sharpness: number;
  readonly meanLuma: number;
  readonly p99Luma: number;
  readonly p5Luma: number;
  /** 99th − 1st luma percentile: the range a normalisation can stretch. */
  readonly lumaRange: number;
  /** Share of the image in saturated, textureless tiles (white paper included). */
  readonly blownFraction: number;
  /** Share of the image in saturated blobs judged to be highlights hiding content. */
  readonly glareFraction: number;
  /** Share of the blank paper-like tiles that are blown: near 1 when the exposure clips the whole page. */
  readonly clippedPaper: number;
  /** Edge density of the top, right, bottom, left border strips. */
  readonly borderEdgeDensity: readonly [number, number, number, number];
}

export interface QualityResult {
  /** True when no issue was found. */
  readonly ok: boolean;
  /** Issues found, most serious first. */
  readonly issues: readonly QualityIssue[];
  /**
   * The issues that refuse the capture whatever can be read from it (an image with no usable
   * exposure), most serious first. The other issues, a cut-off edge included, refuse it only
   * when its fields cannot be read (the pipeline decides, after reading).
   */
  readonly blocking: readonly QualityIssue[];
  readonly metrics: QualityMetrics;
}

/** What the reading stages got out of a capture, for deciding whether its quality issues matter. */
export interface ReadingOutcome {
  /** An AAMVA record was decoded from the PDF417 (its structure checked). */
  readonly barcode: boolean;
  /** An MRZ was read with every check digit right. */
  readonly mrzValid: boolean;
  /** `document_processor` fields read from the printed text. */
  readonly printed: Readonly<Record<string, unknown>>;
}

/** The printed fields a front without barcode or MRZ must yield to count as read. */
export const REQUIRED_PRINTED_FIELDS = ['Document Number', 'Last Name', 'First Name', 'Date of Birth', 'Date of Expiry'] as const;

/**
 * Whether the capture's fields could be read in spite of its (non-blocking) quality issues:
 * a checksummed source (PDF417 record, valid MRZ) or every required printed field. A dim or
 * glary capture that reads is accepted; one that does not is refused with its quality reason.
 */
export function fieldsReadable(reading: ReadingOutcome): boolean {
  if (reading.barcode || reading.mrzValid) return true;
  return REQUIRED_PRINTED_FIELDS.every((f) => reading.printed[f] !== undefined);
}

/** Human-readable reason for the most serious issue. */
export function qualityReason(issues: readonly QualityIssue[]): string | null {
  const first = issues[0];
  return first ? `${MESSAGES[first]} (${first})` : null;
}

function percentile(hist: Uint32Array, total: number, p: number): number {
  const target = total * p;
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= target) return v;
  }
  return 255;
}

function tileSharpness(g: GreyPlane): number {
  const tiles = 8;
  const tw = Math.floor(g.width / tiles);
  const th = Math.floor(g.height / tiles);
  const values: number[] = [];
  for (let ty = 0; ty < tiles; ty++) {
    for (let tx = 0; tx < tiles; tx++) {
      const data = new Uint8Array(tw * th);
      for (let y = 0; y < th; y++) data.set(g.data.subarray((ty * th + y) * g.width + tx * tw, (ty * th + y) * g.width + tx * tw + tw), y * tw);
      values.push(laplacianVariance({ data, width: tw, height: th }));
    }
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length * 0.9)] ?? 0;
}

function boxBlur3(g: GreyPlane): Uint8Array {
  const { data, width, height } = g;
  const out = new Uint8Array(data.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      out[i] =
        (data[i - width - 1]! +
          data[i - width]! +
          data[i - width + 1]! +
          data[i - 1]! +
          data[i]! +
          data[i + 1]! +
          data[i + width - 1]! +
          data[i + width]! +
          data[i + width + 1]!) /
        9;
    }
  }
  return out;
}

/** Fraction of pixels with a strong (smoothed) gradient in each border strip. */
function borderEdges(g: GreyPlane): [number, number, number, number] {
  const s = boxBlur3(g);
  const { width, height } = g;
  const strip = Math.max(4, Math.round(Math.min(width, height) * 0.02));
  const strong = (x: number, y: number): boolean => {
    const i = y * width + x;
    const gx = s[i + 1]! - s[i - 1]!;
    const gy = s[i + width]! - s[i - width]!;
    return gx * gx + gy * gy > 30 * 30;
  };
  const density = (x0: number, y0: number, x1: number, y1: number): number => {
    let n = 0;
    let hit = 0;
    for (let y = Math.max(2, y0); y < Math.min(height - 2, y1); y++) {
      for (let x = Math.max(2, x0); x < Math.min(width - 2, x1); x++) {
        n++;
        if (strong(x, y)) hit++;
      }
    }
    return n ? hit / n : 0;
  };
  return [density(0, 0, width, strip), density(width - strip, 0, width, height), density(0, height - strip, width, height), density(0, 0, strip, height)];
}

const GLARE_TILE = 16;
/** How far (in tiles) round a saturated tile the content is looked at. */
const GLARE_REACH = 3;

/** Per tile: share of saturated pixels, and the 3rd-darkest and median luma (the tile's ink floor and paper). */
function tileStats(r: Raster): { cols: number; rows: number; blown: Float32Array; floor: Uint8Array; median: Uint8Array } {
  const t = GLARE_TILE;
  const cols = Math.floor(r.width / t);
  const rows = Math.floor(r.height / t);
  const blown = new Float32Array(cols * rows);
  const floor = new Uint8Array(cols * rows);
  const median = new Uint8Array(cols * rows);
  const hist = new Uint16Array(256);
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < cols; tx++) {
      hist.fill(0);
      let sat = 0;
      for (let y = ty * t; y < ty * t + t; y++) {
        for (let x = tx * t; x < tx * t + t; x++) {
          const i = (y * r.width + x) * r.channels;
          const a = r.data[i]!;
          if (r.channels === 1) {
            hist[a]!++;
            if (a >= 250) sat++;
          } else {
            const b = r.data[i + 1]!;
            const c = r.data[i + 2]!;
            hist[Math.round((a * 299 + b * 587 + c * 114) / 1000)]!++;
            if (a >= 250 && b >= 250 && c >= 250) sat++;
          }
        }
      }
      const k = ty * cols + tx;
      blown[k] = sat / (t * t);
      let acc = 0;
      let f = -1;
      for (let v = 0; v < 256; v++) {
        acc += hist[v]!;
        if (f < 0 && acc >= 3) f = v;
        if (acc >= (t * t) / 2) {
          median[k] = v;
          break;
        }
      }
      floor[k] = Math.max(0, f);
    }
  }
  return { cols, rows, blown, floor, median };
}

/**
 * Glare: saturated, textureless areas that hide content. White paper is saturated too when a
 * phone exposes for it, and the white quiet zone round a PDF417 is a large blank area, so
 * saturation alone proves nothing. Specular light is added on top of ink and paper alike and
 * fades out round its core: next to a highlight the ink is lifted towards white, while next to
 * blank paper the ink (text, bars) keeps its dark floor. A saturated tile counts as glare when,
 * among the content tiles within {@link GLARE_REACH} tiles of it, enough are washed out (their
 * darkest pixels lifted). Saturated areas with no content round them hide nothing readable.
 */
function glare(r: Raster): { blownFraction: number; glareFraction: number; clippedPaper: number } {
  const { cols, rows, blown, floor, median } = tileStats(r);
  const total = cols * rows;
  if (!total) return { blownFraction: 0, glareFraction: 0, clippedPaper: 0 };
  const t = QUALITY_THRESHOLDS;
  const isBlown = (k: number): boolean => blown[k]! >= 0.6;
  // Per tile: 0 = blank or blown, 1 = content with dark ink, 2 = content washed out.
  const kind = new Uint8Array(total);
  for (let k = 0; k < total; k++) {
    if (isBlown(k) || median[k]! - floor[k]! < 25) continue;
    kind[k] = floor[k]! >= t.washedInkFloor ? 2 : 1;
  }
  // Blank paper-like tiles, and how many of them are blown: a phone exposing for a white card
  // clips its whole paper, and saturation then says nothing about where a highlight is.
  let paper = 0;
  let clipped = 0;
  for (let k = 0; k < total; k++) {
    if (kind[k] || median[k]! < t.paperLuma) continue;
    paper++;
    if (isBlown(k)) clipped++;
  }
  let blownTiles = 0;
  let glareTiles = 0;
  for (let k = 0; k < total; k++) {
    if (!isBlown(k)) continue;
    blownTiles++;
    const x = k % cols;
    const y = (k - x) / cols;
    let content = 0;
    let washed = 0;
    for (let ny = Math.max(0, y - GLARE_REACH); ny <= Math.min(rows - 1, y + GLARE_REACH); ny++) {
      for (let nx = Math.max(0, x - GLARE_REACH); nx <= Math.min(cols - 1, x + GLARE_REACH); nx++) {
        const v = kind[ny * cols + nx]!;
        if (v) content++;
        if (v === 2) washed++;
      }
    }
    if (washed >= 3 && washed >= content * t.minWashedRing) glareTiles++;
  }
  return { blownFraction: blownTiles / total, glareFraction: glareTiles / total, clippedPaper: paper ? clipped / paper : 0 };
}

const inside = (q: Quad, p: Point): boolean => {
  // Convex quad: the point is on the same side of all four edges.
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const c = Math.sign((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x));
    if (c !== 0 && sign !== 0 && c !== sign) return false;
    if (c !== 0) sign = c;
  }
  return true;
};

/**
 * Whether a highlight hides a located PDF417 (issue 20). What a licence back must give is its
 * symbol: a back whose paper is clipped by a bright exposure, with its small print lifted pale
 * by blur and a finger at its edge, raises the page-wide glare check though nothing over the
 * symbol is washed out. Glare hides the symbol when more than {@link SYMBOL_GLARE_SHARE} of
 * the tiles inside it have their darkest bars lifted above `washedInkFloor` (blown white among
 * its bars is the clipped paper of its spaces, not a highlight); tiles ~16 px at 1000 px, as
 * in {@link glare}.
 */
export function glareOverSymbol(g: GreyPlane, located: Quad): boolean {
  // The tiles well inside the symbol: its box's edge tiles hold paper (the quiet zone).
  const quad = growQuad(located, -0.06, -0.2);
  const t = Math.max(6, Math.round((16 * Math.max(g.width, g.height)) / 1000));
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  let tiles = 0;
  let hidden = 0;
  const hist = new Uint32Array(256);
  for (let ty = Math.max(0, Math.floor(Math.min(...ys) / t)); (ty + 1) * t <= Math.min(g.height, Math.max(...ys) + t); ty++) {
    for (let tx = Math.max(0, Math.floor(Math.min(...xs) / t)); (tx + 1) * t <= Math.min(g.width, Math.max(...xs) + t); tx++) {
      if (!inside(quad, { x: (tx + 0.5) * t, y: (ty + 0.5) * t })) continue;
      hist.fill(0);
      for (let y = ty * t; y < ty * t + t; y++) for (let x = tx * t; x < tx * t + t; x++) hist[g.data[y * g.width + x]!]!++;
      let acc = 0;
      let floor = 255;
      for (let v = 0; v < 256; v++) {
        acc += hist[v]!;
        if (acc >= Math.max(3, (t * t) / 85)) {
          floor = v;
          break;
        }
      }
      tiles++;
      if (floor >= QUALITY_THRESHOLDS.washedInkFloor) hidden++;
    }
  }
  return tiles > 0 && hidden / tiles > SYMBOL_GLARE_SHARE;
}

/** Share of a symbol's tiles blown or washed out from which glare hides it. */
const SYMBOL_GLARE_SHARE = 0.05;

/** Measures the capture quality of a (working) raster. */
export async function assessQuality(raster: Raster): Promise<QualityResult> {
  const small = await fitRaster(raster, 1000);
  const g = toGrey(small);
  const hist = new Uint32Array(256);
  let sum = 0;
  for (const v of g.data) {
    hist[v]!++;
    sum += v;
  }
  const total = g.data.length;
  const p1 = percentile(hist, total, 0.01);
  const p99 = percentile(hist, total, 0.99);
  const metrics: QualityMetrics = {
    sharpness: tileSharpness(g),
    meanLuma: sum / total,
    p99Luma: p99,
    p5Luma: percentile(hist, total, 0.05),
    lumaRange: p99 - p1,
    ...glare(small),
    // On a 400 px image: fine periodic patterns (screen moiré, noise) average out, while the
    // edges of a cut-off card and its text stay.
    borderEdgeDensity: borderEdges(toGrey(await fitRaster(small, 400))),
  };
  const t = QUALITY_THRESHOLDS;
  const found = new Set<QualityIssue>();
  const blocking = new Set<QualityIssue>();
  // Edges through the border: the card runs out of the frame, or a finger holds it there. What
  // matters is whether what must be read is still inside; the reading decides (a page cut
  // through its fields or MRZ reads neither and is refused as cut off).
  if (metrics.borderEdgeDensity.some((d) => d > t.maxBorderEdgeDensity)) found.add(QualityIssue.Cutoff);
  const blurred = metrics.sharpness < t.minSharpness;
  // Blur lifts the floor of thin ink just as a highlight does: on a blurred image that is no evidence of glare.
  if (metrics.glareFraction > t.maxGlareFraction && !blurred) found.add(QualityIssue.Glare);
  if (blurred) found.add(QualityIssue.Blur);
  // Exposure is judged after normalising (the reading stages stretch the page): a dim or bright
  // photo with range enough to stretch is not badly exposed; one with little is refused if it
  // cannot be read, one with none at once.
  const dark = metrics.meanLuma < t.minMeanLuma || metrics.p99Luma < t.minHighlight;
  const bright = metrics.meanLuma > t.maxMeanLuma && metrics.p5Luma > 170;
  const exposure = dark ? QualityIssue.UnderExposed : bright ? QualityIssue.OverExposed : null;
  if (exposure && metrics.lumaRange < t.minLegibleRange) (metrics.lumaRange < t.minUsableRange ? blocking : found).add(exposure);
  for (const issue of blocking) found.add(issue);
  const issues = RANK.filter((i) => found.has(i));
  return { ok: issues.length === 0, issues, blocking: RANK.filter((i) => blocking.has(i)), metrics };
}
