/**
 * `internet_detection`: is this a photo of a screen? A screen is a fine grid of RGB sub-pixels;
 * photographed again it leaves periodic colour patterns (moiré) that a photographed card or
 * paper does not. The chroma planes (R−G, B−G) of a few tiles are Fourier-transformed and the
 * strongest isolated non-DC peak is compared with the spectrum level at the same frequency
 * radius. Printed halftones can also be periodic; they are mostly colour-balanced, which is
 * why chroma (not luma) is used. Rates on the generated set are printed by `npm run eval`.
 *
 * On a document the rule is stricter (issue 20: a third of the development half's genuine
 * licence backs were flagged): sharp luma patterns (PDF417 rows, text lines, a woven cloth
 * under the card) leave colour fringes through the lens and JPEG's chroma subsampling, in one
 * chroma plane, or at the luma pattern's own frequency, in one or two tiles. A screen's
 * sub-pixel stripes show in both chroma planes and cover the whole screen. So each tile
 * scores its chroma peak by the weaker of the two chroma planes there (`both`), and that over
 * the luma's strength at the same frequency (`colour`); the document is a screen when the
 * median tile reaches {@link RECAPTURE_SETTINGS.minDocumentBoth} or
 * {@link RECAPTURE_SETTINGS.minDocumentColour}, only when the frame shows a beat or hue beat too.
 *
 * Those five central tiles missed most replays (issue 20, development half: 3 of 4 accepted):
 * the beat between a screen's pixel grid and the camera's often lands at 9-20 cycles per tile
 * (a period of 13-28 px), below the n/16 cut-off, and at an angle. A screen's beat has one
 * frequency over the whole displayed picture (card, desk round it and portrait alike), changing
 * only slowly with perspective; print patterns, text rows and a cloth's weave are each in one
 * part of the frame and mostly in luma. So a grid of tiles over the whole frame is also scored
 * (`beat`): in each tile the strongest frequency in both chroma planes at once (from
 * {@link RECAPTURE_SETTINGS.minBeatCycles} up to n/4, JPEG's colour resolution), counted when it reaches
 * {@link RECAPTURE_SETTINGS.minBeat} and outweighs the luma there; the document is a screen
 * when {@link RECAPTURE_SETTINGS.minBeatTiles} tiles share that frequency (within two bins).
 *
 * The same tiles' chroma also give the frame's hue beat (hue-beat.ts): a screen's sub-pixel
 * triad sampled at a drifting phase turns the hue steadily, which print does not; it catches
 * replays whose beat too few tiles carried strongly enough for the rule above. And their ratio
 * maps give the beat that 9 of the 12 tiles reach at one frequency in one chroma plane
 * (beat-consensus.ts): a beat too faint for any tile to count alone, or in one plane only.
 *
 * A replay whose second camera averaged the sub-pixels away leaves no periodic trace at all; it
 * can still show the displayed picture's own border (screen-border.ts): unlit black wedges cut
 * by straight edges in two corners of the frame, the sides of one turned rectangle.
 */
import { fitRaster, type Raster } from '../raster.js';
import { beatConsensus, isConsensusScreen } from './beat-consensus.js';
import { isHueBeatScreen, scoreHueBeat, type HueBeat } from './hue-beat.js';
import { detectScreenBorder } from './screen-border.js';
import { chromaSpectra, powerSpectra, powerSpectrum, ringGeometry, ringMedians, strongestOverRings, type RingGeometry } from './spectrum.js';

export const RECAPTURE_SETTINGS = {
  tile: 256,
  /** Peak-to-ring-median power ratio above which the pattern is called periodic. */
  minPeakRatio: 3000,
  /**
   * Documents: median tile `both` (the weaker chroma plane's peak ratio) or `colour` (that over
   * the luma ratio at the same frequency) at or above these = screen. On the development half
   * (16 identities, 48 genuine captures) genuine medians reached 939 and 122; the screen
   * replays caught 6,512-11,674 or 183-494, the base set's screens 2,400-3,581.
   */
  minDocumentBoth: 1500,
  minDocumentColour: 150,
  /**
   * The `colour` median counts only beside a sign that the pattern covers the frame: this many
   * beat-grid tiles sharing a beat, or a one-sided hue beat of at least this asymmetry. Development
   * back 21 (issue 20) reached 195 from fringes in a few central tiles with 2 tiles agreeing and a
   * hue asymmetry of 1.0; every development replay over 150 had 7+ tiles agreeing and an asymmetry of 12+.
   * Development back 35 (issue 20) reached 180 with 6 tiles agreeing on its PDF417 rows' fringes, so
   * 3 tiles were too few: replays over 150 had 7-12 (people 0-47).
   * The `both` median too (2026-11-29): under the held-out half's smallest, coarsest uploads
   * (back-stress.ts `harsh`, `wide`) genuine backs' PDF417 rows reached 1,238 against 939 before, a
   * coarse JPEG leaving their chroma rings' medians near nothing; every development replay over
   * 1,500 (people 0-51) had 7+ tiles agreeing and an asymmetry of 7.8+, and a beat or hue rule of its own.
   */
  minColourBeatTiles: 7,
  minColourHueAsymmetry: 3,
  /** The frame-wide beat rule: a grid of this many tiles across and down. */
  beatGrid: [4, 3],
  /** Lowest beat frequency scored, cycles per tile (n/32: a 32 px period on a 256 px tile). */
  minBeatCycles: 8,
  /**
   * A tile's beat (the weaker chroma plane's peak ratio at one frequency) counts from here, and
   * only above the luma's ratio at that frequency. Development half (tuned on): the replays
   * that show a beat reach 400-49,000 in most tiles; genuine fronts, backs and passports never
   * had more than 3 tiles agreeing on a frequency above 300.
   */
  minBeat: 400,
  /**
   * Tiles (of 12) that must share one beat frequency: more than half the frame. Development back 35
   * (issue 20), genuine, had 6 tiles agreeing on its PDF417 rows' fringes; of the development replays
   * (people 0-47) only replay 8 had exactly 6, and its hue beat calls it a screen anyway; the rest
   * that share a beat have 7-12 tiles.
   */
  minBeatTiles: 7,
} as const;

export interface RecaptureResult {
  readonly screen: boolean;
  /** Strongest peak-to-background ratio found. */
  readonly peakRatio: number;
  /**
   * Document rule scores: median tile `both` chroma planes and `colour` over luma (central
   * tiles), and `beat`, the most frame-grid tiles sharing one chroma beat frequency.
   */
  readonly documentScore: {
    readonly both: number;
    readonly colour: number;
    readonly beat: number;
    /** The frame's hue beat (hue-beat.ts): peak over its ring, and over its mirror frequency. */
    readonly hue: { readonly peak: number; readonly asymmetry: number };
    /** Corners of the frame holding a displayed picture's border wedge (screen-border.ts). */
    readonly border: number;
    /** The chroma beat most of the beat grid's tiles reach at one frequency (beat-consensus.ts). */
    readonly consensus: { readonly ratio: number; readonly at: readonly [number, number] };
  };
  /** Labels for `internet_detection_location.guess_labels`. */
  readonly labels: readonly string[];
}

/**
 * Per tile size: the rings of every frequency (spectrum.ts), which frequencies are scored, and
 * which the beat rule scores (lower ones too, one half-plane: a real plane's spectrum is symmetric).
 */
interface TileGeometry extends RingGeometry {
  readonly scored: Uint8Array;
  readonly beatScored: Uint8Array;
}
const geometry = new Map<number, TileGeometry>();
/** Bins short of n/4 the beat rule stops: JPEG's line there (±2), and one more that the 3x3 neighbourhood would read it from. */
const BEAT_LINE_REACH = 4;

function tileGeometry(n: number): TileGeometry {
  let g = geometry.get(n);
  if (g) return g;
  const rings = ringGeometry(n);
  const { ring } = rings;
  const maxR = n / 2;
  const scored = new Uint8Array(n * n);
  const beatScored = new Uint8Array(n * n);
  // JPEG's 8x8 blocks (and 2x2 chroma subsampling) put energy on lines at multiples of n/8
  // cycles: every JPEG has those, screens or not.
  const nearGrid = (f: number): boolean => {
    const m8 = f % (n / 8);
    return m8 <= 2 || m8 >= n / 8 - 2;
  };
  // The beat rule only below n/4 cycles per tile on both axes, and a neighbourhood (its 3x3 max)
  // short of it (issue 20: development backs under the held-out half's smallest, coarsest uploads
  // had 5-7 of 12 tiles "agree" at 118-125 cycles). A JPEG keeps its colour at half resolution
  // (4:2:0, what phones and libjpeg write below quality 90), so past n/4 the chroma planes hold the
  // decoder's upsampling image of the chroma below it and JPEG's blocks, not what the scene held; a
  // beat the second camera recorded off a screen went through the same subsampling and lies below.
  const chromaBand = n / 4 - BEAT_LINE_REACH;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const fy = y > n / 2 ? y - n : y;
      const fx = x > n / 2 ? x - n : x;
      const r = ring[y * n + x]!;
      const inChromaBand = Math.abs(fx) <= chromaBand && Math.abs(fy) <= chromaBand;
      // Below n/16 cycles per tile is image content, not a fine periodic pattern.
      scored[y * n + x] = r >= n / 16 && r <= maxR && !nearGrid(x) && !nearGrid(y) ? 1 : 0;
      beatScored[y * n + x] = fy > 0 && r >= RECAPTURE_SETTINGS.minBeatCycles && r <= maxR && !nearGrid(x) && !nearGrid(y) && inChromaBand ? 1 : 0;
    }
  }
  g = { ...rings, scored, beatScored };
  geometry.set(n, g);
  return g;
}

/** The strongest scored frequency of a spectrum against its ring's median: [ratio, index]. */
function strongest(p: Float64Array, n: number, medians: Float64Array): [number, number] {
  const { ring, scored } = tileGeometry(n);
  return strongestOverRings(p, ring, scored, medians);
}

/** Ratio of a spectrum at frequency `at` (its 3x3 neighbourhood, for a peak split between bins) to its ring median. */
function ratioNear(p: Float64Array, n: number, medians: Float64Array, at: number): number {
  const { ring } = tileGeometry(n);
  const m = medians[ring[at]!]!;
  const x = at % n;
  const y = (at - x) / n;
  let v = 0;
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) v = Math.max(v, p[((y + dy + n) % n) * n + ((x + dx + n) % n)]!);
  return m > 0 ? v / m : 0;
}

/**
 * Document rule for one tile: the chroma peak must show in both chroma planes and outweigh
 * the luma pattern at the same frequency (see the module comment).
 */
function documentTileScore(
  spectra: { rg: Float64Array; bg: Float64Array; luma: Float64Array },
  chroma: { rg: Float64Array; bg: Float64Array },
  n: number,
): { both: number; colour: number } {
  const med = { ...chroma, luma: ringMedians(spectra.luma, n) };
  let both = 0;
  let colour = 0;
  for (const [self, other] of [
    ['rg', 'bg'],
    ['bg', 'rg'],
  ] as const) {
    const [ratio, at] = strongest(spectra[self], n, med[self]);
    if (at < 0) continue;
    const b = Math.min(ratio, ratioNear(spectra[other], n, med[other], at));
    both = Math.max(both, b);
    colour = Math.max(colour, b / Math.max(1, ratioNear(spectra.luma, n, med.luma, at)));
  }
  return { both, colour };
}

/**
 * Each frequency's ratio to its ring median, the strongest of its 3x3 neighbourhood (a peak split
 * between bins). The 3x3 maximum is taken as a maximum over each row's three, then over three rows'
 * (the same numbers: a maximum does not depend on its order), without a modulo per read.
 */
function neighbourhoodRatios(p: Float64Array, n: number, medians: Float64Array): Float64Array {
  const { ring } = tileGeometry(n);
  const ratio = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) {
    const m = medians[ring[i]!]!;
    ratio[i] = m > 0 ? p[i]! / m : 0;
  }
  const across = new Float64Array(p.length);
  for (let y = 0; y < n; y++) {
    const row = y * n;
    for (let x = 0; x < n; x++) {
      const left = ratio[row + (x === 0 ? n - 1 : x - 1)]!;
      const right = ratio[row + (x === n - 1 ? 0 : x + 1)]!;
      across[row + x] = Math.max(left, ratio[row + x]!, right);
    }
  }
  const out = new Float64Array(p.length);
  for (let y = 0; y < n; y++) {
    const up = (y === 0 ? n - 1 : y - 1) * n;
    const down = (y === n - 1 ? 0 : y + 1) * n;
    const row = y * n;
    for (let x = 0; x < n; x++) out[row + x] = Math.max(0, across[up + x]!, across[row + x]!, across[down + x]!);
  }
  return out;
}

/**
 * One tile's chroma beat (module comment), from its chroma planes' ratio maps
 * ({@link neighbourhoodRatios}): the frequency strongest in both chroma planes at once, as
 * signed cycles per tile [fx, fy], when it reaches {@link RECAPTURE_SETTINGS.minBeat} and
 * outweighs the luma's ratio there; otherwise null.
 */
function tileBeat(ratios: { rg: Float64Array; bg: Float64Array }, luma: () => Float64Array, n: number): [number, number] | null {
  const { beatScored } = tileGeometry(n);
  const { rg, bg } = ratios;
  let best = 0;
  let at = -1;
  for (let i = 0; i < rg.length; i++) {
    if (!beatScored[i]) continue;
    const v = Math.min(rg[i]!, bg[i]!);
    if (v > best) {
      best = v;
      at = i;
    }
  }
  if (at < 0 || best < RECAPTURE_SETTINGS.minBeat) return null;
  // The luma's spectrum only for a tile whose beat is strong enough to count (most are not).
  const l = luma();
  if (best <= ratioNear(l, n, ringMedians(l, n), at)) return null;
  const x = at % n;
  const y = (at - x) / n;
  return [x > n / 2 ? x - n : x, y > n / 2 ? y - n : y];
}

/** The most beats that share one frequency, within two bins on each axis. */
function sharedBeats(beats: readonly [number, number][]): number {
  let most = 0;
  for (const [fx, fy] of beats) most = Math.max(most, beats.filter(([gx, gy]) => Math.abs(gx - fx) <= 2 && Math.abs(gy - fy) <= 2).length);
  return most;
}

/** Strongest peak / median-of-its-ring ratio in one spectrum, ignoring low frequencies and JPEG grid lines. */
function peakRatio(p: Float64Array, n: number, medians: Float64Array): number {
  const { ring, scored } = tileGeometry(n);
  let best = 0;
  for (let i = 0; i < p.length; i++) {
    if (!scored[i]) continue;
    const m = medians[ring[i]!]!;
    if (m > 0) best = Math.max(best, p[i]! / m);
  }
  return best;
}

/**
 * Looks for screen moiré in the chroma planes of a few tiles. `document` applies the document
 * rule (module comment); `frame` (selfies and liveness frames) the strongest single peak.
 */
export async function detectRecapture(raster: Raster, kind: 'document' | 'frame' = 'frame'): Promise<RecaptureResult> {
  const r = await fitRaster(raster, 1600);
  const n = RECAPTURE_SETTINGS.tile;
  if (r.channels !== 3 || r.width < n || r.height < n)
    return {
      screen: false,
      peakRatio: 0,
      documentScore: { both: 0, colour: 0, beat: 0, hue: { peak: 0, asymmetry: 0 }, border: 0, consensus: { ratio: 0, at: [0, 0] } },
      labels: [],
    };
  const document = kind === 'document';
  let best = 0;
  const tileScores: { both: number; colour: number }[] = [];
  for (const [fx, fy] of [
    [0.5, 0.5],
    [0.35, 0.35],
    [0.65, 0.35],
    [0.35, 0.65],
    [0.65, 0.65],
  ] as const) {
    const planes = tilePlanes(r, Math.round(fx * r.width - n / 2), Math.round(fy * r.height - n / 2), document);
    const [rg, bg] = powerSpectra(planes.rg, planes.bg, n);
    const spectra = { rg, bg };
    // Each spectrum's ring medians once, for the peak and the document rule alike.
    const medians = { rg: ringMedians(rg, n), bg: ringMedians(bg, n) };
    best = Math.max(best, peakRatio(rg, n, medians.rg), peakRatio(bg, n, medians.bg));
    if (planes.luma) tileScores.push(documentTileScore({ ...spectra, luma: powerSpectrum(planes.luma, n) }, medians, n));
  }
  const beats: [number, number][] = [];
  const tileRatios: { rg: Float64Array; bg: Float64Array }[] = [];
  // The tiles' hue spectra summed (hue-beat.ts), from the same FFTs as their chroma planes'.
  const hueSum = document ? new Float64Array(n * n) : null;
  if (hueSum) {
    const [across, down] = RECAPTURE_SETTINGS.beatGrid;
    for (let gy = 0; gy < down; gy++) {
      for (let gx = 0; gx < across; gx++) {
        const planes = tilePlanes(r, Math.round((gx * (r.width - n)) / (across - 1)), Math.round((gy * (r.height - n)) / (down - 1)), true);
        const { rg, bg, hue } = chromaSpectra(planes.rg, planes.bg, n);
        for (let i = 0; i < hue.length; i++) hueSum[i]! += hue[i]!;
        const ratios = { rg: neighbourhoodRatios(rg, n, ringMedians(rg, n)), bg: neighbourhoodRatios(bg, n, ringMedians(bg, n)) };
        tileRatios.push(ratios);
        const beat = tileBeat(ratios, () => powerSpectrum(planes.luma!, n), n);
        if (beat) beats.push(beat);
      }
    }
  }
  const hue: HueBeat = hueSum ? scoreHueBeat(hueSum, n) : { peak: 0, asymmetry: 0, at: [0, 0] };
  const border = document ? detectScreenBorder(r) : null;
  const consensus = document ? beatConsensus(tileRatios, tileGeometry(n).beatScored, n) : null;
  const median = (xs: number[]): number => (xs.length ? Math.round([...xs].sort((a, b) => a - b)[xs.length >> 1]!) : 0);
  const documentScore = {
    both: median(tileScores.map((t) => t.both)),
    colour: median(tileScores.map((t) => t.colour)),
    beat: sharedBeats(beats),
    hue: { peak: Math.round(hue.peak), asymmetry: Math.round(hue.asymmetry * 10) / 10 },
    border: border ? border.wedges.filter((w) => w.counts).length : 0,
    consensus: { ratio: Math.round(consensus?.ratio ?? 0), at: consensus?.at ?? ([0, 0] as const) },
  };
  const S = RECAPTURE_SETTINGS;
  // The central tiles' medians count only beside a sign that the pattern covers the frame.
  const covers = documentScore.beat >= S.minColourBeatTiles || hue.asymmetry >= S.minColourHueAsymmetry;
  const moire = document
    ? ((documentScore.both >= S.minDocumentBoth || documentScore.colour >= S.minDocumentColour) && covers) ||
      documentScore.beat >= S.minBeatTiles ||
      isHueBeatScreen(hue) ||
      (consensus !== null && isConsensusScreen(consensus))
    : best >= S.minPeakRatio;
  const shown = border?.screen === true;
  const screen = moire || shown;
  const labels = screen ? ['screen', ...(moire ? ['moire_pattern'] : []), ...(shown ? ['screen_border'] : [])] : [];
  return { screen, peakRatio: Math.round(best), documentScore, labels };
}

/** The chroma planes (R−G, B−G) and, when asked, the luma of the n×n tile at (x0, y0), moved inside the raster. */
function tilePlanes(r: Raster, x0: number, y0: number, withLuma: boolean): { rg: Float64Array; bg: Float64Array; luma: Float64Array | null } {
  const n = RECAPTURE_SETTINGS.tile;
  const x = Math.max(0, Math.min(r.width - n, x0));
  const y = Math.max(0, Math.min(r.height - n, y0));
  const rg = new Float64Array(n * n);
  const bg = new Float64Array(n * n);
  const luma = withLuma ? new Float64Array(n * n) : null;
  for (let yy = 0; yy < n; yy++) {
    for (let xx = 0; xx < n; xx++) {
      const i = ((y + yy) * r.width + x + xx) * 3;
      rg[yy * n + xx] = r.data[i]! - r.data[i + 1]!;
      bg[yy * n + xx] = r.data[i + 2]! - r.data[i + 1]!;
      if (luma) luma[yy * n + xx] = (r.data[i]! + r.data[i + 1]! + r.data[i + 2]!) / 3;
    }
  }
  return { rg, bg, luma };
}
