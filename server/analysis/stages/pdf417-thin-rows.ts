/**
 * Thin PDF417 rows (issue 20, `--rows thin`: 1.5 modules tall). At the captures' resolutions a
 * row that thin is blurred into the rows above and below it, whose codewords (other clusters)
 * then match the row's patterns almost as well as its own. Two helpers for the soft reader
 * (pdf417-soft.ts): each row read at its centre with its neighbours' share taken out (a small
 * vertical deconvolution), and a row line from the symbol's fitted top and bottom edges for
 * when the row indicators, misread on thin rows, place the rows on too few reads.
 */
import type { GreyPlane } from '../raster.js';
import { bandProfile, type Grid } from './pdf417-grid.js';

/** A row line at one end: y = a + b t (t the row), fitted on n indicator reads. */
export type RowLine = { a: number; b: number; n: number };

/** Rows at most this many modules tall are read unmixed (standard rows are 3 modules, thin 1.5). */
export const THIN_ROW_MODULES = 2.25;

/** Share of the mean of the rows above and below taken out of a thin row's centre. */
export const UNMIX_SHARE = 0.35;

/** A lighter share, for a sharper capture whose thin rows the default share over-corrects. */
export const LIGHT_UNMIX_SHARE = 0.2;

/** Half the height of the band read at a thin row's centre, in rows. */
const CENTRE_HALF = 0.2;

/** The rows' height in modules: the ends' mean row pitch over the grid's mean module width. */
export function rowModules(grid: Grid, [l, r]: readonly [RowLine, RowLine]): number {
  return pitchModules(grid, (l.b + r.b) / 2);
}

/** A row pitch of `pitch` pixels in the grid's modules (its mean module width). */
export function pitchModules(grid: Grid, pitch: number): number {
  const span = 17 * (grid.columns + 2) + 1;
  return pitch / ((grid.at(span) - grid.at(0)) / span);
}

/**
 * Row `row`'s centre band moved down by `dv` rows, less `share` of the mean of the same band a
 * row above and a row below: what the blur mixed in from the neighbours, taken out. Above the
 * first row and below the last the neighbour is the quiet zone (a constant, which the matching's
 * normalisation ignores).
 */
export function unmixedBand(plane: GreyPlane, yAt: (row: number, x: number) => number, row: number, dv: number, share: number): Float64Array {
  const band = (r: number): Float64Array =>
    bandProfile(
      plane,
      (x) => yAt(r + 0.5 - CENTRE_HALF + dv, x),
      (x) => yAt(r + 0.5 + CENTRE_HALF + dv, x),
    );
  return unmix(band(row), band(row - 1), band(row + 1), share);
}

/**
 * The row line the symbol's fitted top and bottom edges give (the plane is straightened along
 * them: the top edge at `y0`, the bottom at `y1`), for both ends.
 */
export function edgeLine(y0: number, y1: number, rows: number): RowLine {
  return { a: y0, b: (y1 - y0) / rows, n: 0 };
}

/** A three-pixel scanline at `y` less `share` of the mean of the same scanline a row pitch above and below. */
export function unmixedLine(plane: GreyPlane, y: number, pitch: number, share: number): Float64Array {
  const line = (at: number): Float64Array =>
    bandProfile(
      plane,
      () => at - 1,
      () => at + 2,
    );
  return unmix(line(y), line(y - pitch), line(y + pitch), share);
}

/** `centre` less `share` of the mean of `above` and `below`, sample by sample. */
function unmix(centre: Float64Array, above: Float64Array, below: Float64Array, share: number): Float64Array {
  const out = new Float64Array(centre.length);
  for (let x = 0; x < out.length; x++) out[x] = centre[x]! - (share / 2) * (above[x]! + below[x]!);
  return out;
}
