/**
 * Capture quality: blur (variance of the Laplacian), exposure, glare and cut-off. A poor image
 * fails the job with a specific reason; when several apply they are ranked
 * cut-off > glare > blur > exposure (the order Onfido's capture SDK uses, house-style.md).
 */
import { fitRaster, laplacianVariance, toGrey, type GreyPlane, type Raster } from '../raster.js';

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

/** Thresholds, calibrated on the generated fixtures (see README, "Analysis evaluation"). */
export const QUALITY_THRESHOLDS = {
  /** 90th-percentile tile Laplacian variance (1000 px image) below this = blurred. */
  minSharpness: 60,
  /** Mean luma below this, or 99th percentile below `minHighlight` = too dark. */
  minMeanLuma: 45,
  minHighlight: 110,
  /** Mean luma above this with a bright 5th percentile = too bright. */
  maxMeanLuma: 225,
  /** Fraction of the image in blown (all channels ≥ 250) tiles above this = glare. */
  maxGlareFraction: 0.008,
  /** Fraction of a border strip crossed by strong edges above this = content cut off. */
  maxBorderEdgeDensity: 0.04,
} as const;

export interface QualityMetrics {
  readonly sharpness: number;
  readonly meanLuma: number;
  readonly p99Luma: number;
  readonly p5Luma: number;
  readonly glareFraction: number;
  /** Edge density of the top, right, bottom, left border strips. */
  readonly borderEdgeDensity: readonly [number, number, number, number];
}

export interface QualityResult {
  readonly ok: boolean;
  /** Issues found, most serious first. */
  readonly issues: readonly QualityIssue[];
  readonly metrics: QualityMetrics;
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

function glareFraction(r: Raster): number {
  const tile = 16;
  let blownTiles = 0;
  let tiles = 0;
  for (let ty = 0; ty + tile <= r.height; ty += tile) {
    for (let tx = 0; tx + tile <= r.width; tx += tile) {
      tiles++;
      let blown = 0;
      for (let y = ty; y < ty + tile; y++) {
        for (let x = tx; x < tx + tile; x++) {
          const i = (y * r.width + x) * r.channels;
          if (r.channels === 1 ? r.data[i]! >= 250 : r.data[i]! >= 250 && r.data[i + 1]! >= 250 && r.data[i + 2]! >= 250) blown++;
        }
      }
      if (blown >= tile * tile * 0.6) blownTiles++;
    }
  }
  return tiles ? blownTiles / tiles : 0;
}

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
  const metrics: QualityMetrics = {
    sharpness: tileSharpness(g),
    meanLuma: sum / total,
    p99Luma: percentile(hist, total, 0.99),
    p5Luma: percentile(hist, total, 0.05),
    glareFraction: glareFraction(small),
    // On a 400 px image: fine periodic patterns (screen moiré, noise) average out, while the
    // edges of a cut-off card and its text stay.
    borderEdgeDensity: borderEdges(toGrey(await fitRaster(small, 400))),
  };
  const t = QUALITY_THRESHOLDS;
  const found = new Set<QualityIssue>();
  if (metrics.borderEdgeDensity.some((d) => d > t.maxBorderEdgeDensity)) found.add(QualityIssue.Cutoff);
  if (metrics.glareFraction > t.maxGlareFraction) found.add(QualityIssue.Glare);
  if (metrics.sharpness < t.minSharpness) found.add(QualityIssue.Blur);
  if (metrics.meanLuma < t.minMeanLuma || metrics.p99Luma < t.minHighlight) found.add(QualityIssue.UnderExposed);
  if (metrics.meanLuma > t.maxMeanLuma && metrics.p5Luma > 170) found.add(QualityIssue.OverExposed);
  const issues = RANK.filter((i) => found.has(i));
  return { ok: issues.length === 0, issues, metrics };
}
