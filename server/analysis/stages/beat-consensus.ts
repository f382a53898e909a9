/**
 * A screen's beat that every part of the frame carries, however faintly (issue 20: development
 * replays whose beat was under the per-tile threshold of recapture.ts in most tiles, or strong in
 * one chroma plane only). The beat between a screen's pixel grid and the camera's keeps nearly one
 * frequency over the whole displayed picture: card, portrait and desk alike. So instead of
 * counting tiles whose beat is strong on its own, each frequency is scored by the tile ratio that
 * {@link BEAT_CONSENSUS_SETTINGS.tiles} of the 12 beat-grid tiles reach there (an order statistic
 * across tiles), in each chroma plane: a pattern in one part of the frame (a label, a PDF417's
 * fringes, a guilloche on the card but not on the desk) cannot reach it.
 *
 * Frequencies within {@link BEAT_CONSENSUS_SETTINGS.axisReach} bins of an axis are left out: print
 * (text rows, a PDF417's rows and columns, the card's edges) lies along the card's axes, which a
 * photo frames nearly square, and faint lines there reach most tiles (development backs 24 and 35:
 * 136-166 at (3, 54-55) cycles). A screen's beat lies there only when the camera is square to the
 * screen's grid, and such a beat is strong enough for the per-tile rule.
 *
 * And only frequencies below n/8 cycles per tile on both axes (a period of 8+ px) are scored: a
 * JPEG keeps a tile's colour at half resolution in blocks, and between n/8 and n/4 its quantised
 * chroma and the decoder's upsampling leave faint lines that recur over the frame wherever the
 * content has edges (development back 24: 109 at (−5, 54) cycles). Every development replay whose
 * beat most tiles carry has it below n/8 (radius 8-26 cycles).
 *
 * One plane is enough: a screen's sub-pixels are not always three equal stripes (a pixel of
 * unequal sub-pixel widths, a PenTile layout), and then one colour difference carries most of the
 * beat.
 */

export const BEAT_CONSENSUS_SETTINGS = {
  /** Tiles (of the 12) that must reach the ratio at one frequency. */
  tiles: 9,
  /** Bins from either axis left out (module comment). */
  axisReach: 4,
  /** Highest frequency scored on either axis, cycles per 256 px tile: short of n/8 and JPEG's line there (±2). */
  maxCycles: 29,
  /** The ratio those tiles must reach for a document to be a screen (see {@link isConsensusScreen}). */
  minRatio: 150,
} as const;

export interface BeatConsensus {
  /** The ratio (peak over its ring's median, 3x3 neighbourhood) that `tiles` tiles reach at one frequency. */
  readonly ratio: number;
  readonly plane: 'rg' | 'bg';
  /** The frequency, signed cycles per tile [fx, fy]. */
  readonly at: readonly [number, number];
}

/**
 * The strongest frequency that `tiles` of the given per-tile ratio maps reach in one plane, among
 * the `scored` ones (module comment).
 */
export function beatConsensus(
  maps: readonly { readonly rg: Float64Array; readonly bg: Float64Array }[],
  scored: Uint8Array,
  n: number,
  tiles: number = BEAT_CONSENSUS_SETTINGS.tiles,
): BeatConsensus {
  let best: BeatConsensus = { ratio: 0, plane: 'rg', at: [0, 0] };
  if (maps.length < tiles) return best;
  const values = new Float64Array(maps.length);
  const reach = BEAT_CONSENSUS_SETTINGS.axisReach;
  const top = (BEAT_CONSENSUS_SETTINGS.maxCycles * n) / 256;
  const inBand = (f: number): boolean => {
    const a = Math.abs(f > n / 2 ? f - n : f);
    return a > reach && a <= top;
  };
  for (const plane of ['rg', 'bg'] as const) {
    for (let i = 0; i < scored.length; i++) {
      if (!scored[i] || !inBand(i % n) || !inBand(Math.floor(i / n))) continue;
      for (let t = 0; t < maps.length; t++) values[t] = maps[t]![plane][i]!;
      values.sort();
      const v = values[maps.length - tiles]!;
      if (v > best.ratio) {
        const x = i % n;
        const y = (i - x) / n;
        best = { ratio: v, plane, at: [x > n / 2 ? x - n : x, y > n / 2 ? y - n : y] };
      }
    }
  }
  return best;
}

/** Whether a frame-wide beat calls a document a screen. */
export function isConsensusScreen(c: BeatConsensus): boolean {
  return c.ratio >= BEAT_CONSENSUS_SETTINGS.minRatio;
}
